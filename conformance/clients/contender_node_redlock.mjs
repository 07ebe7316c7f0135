// Takes npm redlock 4.2.0's lock on the same key while the holder is frozen, says `acquired {json}`
// with its CLOCK_MONOTONIC time, and keeps it until the conductor ends this process. It retries
// without end (retryCount -1, redlock.js 427) every 20 ± 10 ms, so that it takes the lock within a
// few ms of the holder's key expiring (the default, 200 ± 100 ms, would blur that moment).
//
// With `--store JSON` (store.mjs, a row that writes) it reads the balance and writes it less its debit
// once it holds the lock, before it says `acquired` (so its write is done before the holder wakes), as
// contender.py does.
//
// usage: node contender_node_redlock.mjs MODULES_DIR PORT,PORT,PORT KEY [--store JSON]   (the holder's masters)

import { modules, monotonic, say } from './notices.mjs';
import { Store } from './store.mjs';

const [dir, ports, key] = process.argv.slice(2);
const require = modules(dir);
const Redis = require('ioredis');
const Redlock = require('redlock');
const store = Store.fromArgv(process.argv, Redis);

const masters = ports.split(',').map((p) => new Redis({ host: '127.0.0.1', port: Number(p) }));
const redlock = new Redlock(masters, { retryCount: -1, retryDelay: 20, retryJitter: 10 });
await redlock.lock(key, 10000);
const t = monotonic();
const info = {};
if (store) {
  await store.read();
  info.wrote = await store.write();
}
say('acquired', { t, ...info });
setTimeout(() => process.exit(0), 60000);
