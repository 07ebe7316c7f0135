// The holder's side of a measurement, for the Node holders: notices.py's protocol and clock. Each
// notice carries its CLOCK_MONOTONIC time in seconds (process.hrtime is libuv's uv_hrtime, which reads
// CLOCK_MONOTONIC on Linux: the conductor's time.monotonic() clock), and a holder speaks the same lines:
//
//     held {json}     the lock is held (the conductor then stops the holder's process group)
//     report {json}   what it saw after waking (the holder then exits)
//
// The modules come from the directory conformance/setup.sh (or clients/run.sh) installs
// conformance/clients/package-lock.json into, given on the command line: never a global install.

import { createRequire } from 'node:module';
import path from 'node:path';

/** CLOCK_MONOTONIC now, in seconds. */
export function monotonic() {
  return Number(process.hrtime.bigint()) / 1e9;
}

/** `require` from the installed modules' directory. */
export function modules(dir) {
  return createRequire(path.join(path.resolve(dir), 'package.json'));
}

/** One protocol line on stdout. */
export function say(kind, obj) {
  process.stdout.write(`${kind} ${JSON.stringify(obj)}\n`);
}

const ms = (seconds) => Math.round(seconds * 10000) / 10;

export class Notices {
  constructor() {
    this.events = [];
    this.woke = null;
    // The wake-up as the holder itself sees it: a check on the conductor's moment.
    this.wakened = new Promise((resolve) => {
      process.on('SIGCONT', () => {
        if (this.woke === null) this.woke = monotonic();
        resolve();
      });
    });
  }

  note(what, detail = null) {
    this.events.push({ t: monotonic(), what, detail });
  }

  held(info) {
    say('held', info);
  }

  /** Resolves once SIGCONT was seen. */
  waitWake() {
    return this.wakened;
  }

  /** Runs `call` (sync or async), noting when it returned (and what) or threw (its name and message);
   *  resolves to what it returned (null when it threw), as notices.py's `attempt`. */
  async attempt(name, call) {
    const start = monotonic();
    try {
      const value = await call();
      this.note(name, { returned: String(value), took_ms: ms(monotonic() - start) });
      return value;
    } catch (e) {
      this.note(name, { raised: e.name, message: e.message, took_ms: ms(monotonic() - start) });
      return null;
    }
  }

  report(facts = {}) {
    say('report', { woke: this.woke, events: this.events, ...facts });
  }
}
