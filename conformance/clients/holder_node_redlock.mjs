// Holds npm redlock 4.2.0's lock on its masters (three redis-servers, as its scenarios' `service:
// redlock nodes=3`; redlock.js takes a list of clients, one per master), is frozen past its TTL, and
// notes what the library tells the application after waking: `lock.expiration > Date.now()` (its only
// answer to "do I still hold it?": redlock.js keeps the expiration it computed at the grant, 416, and
// tests it so itself in extend(), 298) and `unlock()`'s outcome.
//
// STEP_MS, if not 0, is a wall-clock step back the holder's clock takes while it is frozen (NTP
// stepping it): on waking, Date.now() — the clock redlock.js and the check read — is replaced by one
// STEP_MS behind. (Stepping the machine's own clock needs root and would move every process's.)
//
// With `--store JSON` (store.mjs, a row that writes) it does its scenario's read before the pause and,
// after waking, the scenario's work (if any), the check and then its write, unless the scenario checks
// `lock.expiration > Date.now()` after the pause and it said no; then `unlock()`.
//
// usage: node holder_node_redlock.mjs MODULES_DIR PORT,PORT,PORT TTL_MS KEY [STEP_MS [--store JSON]]

import { Notices, modules } from './notices.mjs';
import { Store } from './store.mjs';

const [dir, ports, ttlMs, key, stepMs = '0'] = process.argv.slice(2);
const require = modules(dir);
const Redis = require('ioredis');
const Redlock = require('redlock');
const store = Store.fromArgv(process.argv, Redis);

const n = new Notices();
const masters = ports.split(',').map((p) => new Redis({ host: '127.0.0.1', port: Number(p) }));
const redlock = new Redlock(masters, { retryCount: 0 });
redlock.on('clientError', (e) => n.note('clientError', e.message));

const lock = await redlock.lock(key, Number(ttlMs));
const left = lock.expiration - Date.now();
const ownedBefore = lock.expiration > Date.now();
if (store) await store.read();
n.held({ owned: ownedBefore, expiration_left_ms: left });
await n.waitWake();
if (Number(stepMs) !== 0) {
  const wall = Date.now;
  Date.now = () => wall() - Number(stepMs);
}
if (store && store.checkAfterS > 0) {
  await new Promise((resolve) => setTimeout(resolve, store.checkAfterS * 1000));
}
const owned = await n.attempt('owned', () => lock.expiration > Date.now());
if (store) await store.writeUnless(store.check === 'owned' && !owned);
await n.attempt('release', () => lock.unlock());
n.report({ step_ms: Number(stepMs), ...(store ? store.report() : {}) });
for (const m of masters) m.disconnect();
if (store) store.close();
