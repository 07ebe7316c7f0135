// store.py's storage for the Node holder and contender (a row that writes, conformance/src/
// library_rows.rs): the balance in one plain key of the row's redis-server, read with GET and written
// with SET, no guard (policy `none`), each write stamped with its CLOCK_MONOTONIC time (notices.mjs's
// clock, the conductor's) so that the row orders the writes as they reached the store.
//
// A process is given its part as `--store JSON` after its own arguments, as store.py reads it:
// {"port", "key", "debit"} and, for the holder, "check" (its scenario's check after the pause, or
// null) and "check_after_s" (the work between waking and that check).

import { monotonic } from './notices.mjs';

export class Store {
  /** The `--store JSON` part of a command line, or null when the row does not write. */
  static fromArgv(argv, Redis) {
    const i = argv.indexOf('--store');
    return i < 0 ? null : new Store(JSON.parse(argv[i + 1]), Redis);
  }

  constructor(spec, Redis) {
    this.spec = spec;
    this.redis = new Redis({ host: '127.0.0.1', port: Number(spec.port) });
    this.snapshot = null;
    this.wrote = null;
  }

  get check() {
    return this.spec.check ?? null;
  }

  get checkAfterS() {
    return Number(this.spec.check_after_s ?? 0);
  }

  async read() {
    this.snapshot = Number(await this.redis.get(this.spec.key));
    return this.snapshot;
  }

  /** The scenario's write: what was read, less the debit (a plain SET: policy `none`). */
  async write() {
    const value = this.snapshot - Number(this.spec.debit);
    await this.redis.set(this.spec.key, String(value));
    this.wrote = { snapshot: this.snapshot, value, t: monotonic() };
    return this.wrote;
  }

  /** The write, unless the scenario's check said no (the attempt is given up, as the model's `owned`). */
  async writeUnless(saidNo) {
    return saidNo ? null : this.write();
  }

  report() {
    return { store: { read: this.snapshot, wrote: this.wrote } };
  }

  close() {
    this.redis.disconnect();
  }
}
