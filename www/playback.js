// The lab's playback clock: the playhead's time in a run, play and stop (requestAnimationFrame, owned
// here), stepping from event to event, scrubbing, the speed, and the reader's reduced-motion wish. It
// draws nothing itself: every move hands the new time to `show(t)`, the lab's view.

/** The playhead's time "before the run": nothing has happened yet, not even the events at 0 ms. */
export const BEFORE = -1;
/** The speeds on offer (sim ms per real ms), and the one a lab starts at. */
export const SPEEDS = ['1', '0.25', '0.1', '0.04'];
export const DEFAULT_SPEED = '0.1';
const EPS = 1e-6;

export class Playback {
  /** `show(t)` draws the playhead at sim time t (BEFORE: before the run). */
  constructor(show) {
    this.show = show;
    this.t = 0;
    this.on = false;
    this.raf = 0;
    this.last = 0;
    this.speed = Number(DEFAULT_SPEED);
    this.times = []; // the distinct event times, ascending: the stops of step()
    this.end = 0;
    /** The reader's wish for less motion: then nothing plays by itself (stepping still works). */
    this.reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');
  }

  /** A new run: its event times and when it ends. The playhead stays where it is until moved. */
  load(times, end) {
    this.times = times;
    this.end = end;
  }

  /** Moves the playhead to t, kept between BEFORE and the end, and shows it. */
  seek(t) {
    this.t = Math.min(Math.max(BEFORE, t), this.end);
    this.show(this.t);
  }

  tick(now) {
    this.t += (now - this.last) * this.speed;
    this.last = now;
    if (this.t >= this.end) {
      this.on = false;
      this.t = this.end;
    }
    this.seek(this.t);
    if (this.on) this.raf = requestAnimationFrame((n) => this.tick(n));
  }

  /** Plays from the playhead (from the start when it is at the end). */
  start() {
    if (this.t >= this.end - EPS) this.t = BEFORE;
    this.on = true;
    this.last = performance.now();
    cancelAnimationFrame(this.raf);
    this.raf = requestAnimationFrame((n) => this.tick(n));
    this.seek(this.t);
  }

  stop() {
    this.on = false;
    cancelAnimationFrame(this.raf);
  }

  /** Stops and moves to the next (dir > 0) or previous event time; past the last, to the end or before the run. */
  step(dir) {
    this.stop();
    const { t, times } = this;
    const next = dir > 0 ? times.find((x) => x > t + EPS) : [...times].reverse().find((x) => x < t - EPS);
    this.seek(next ?? (dir > 0 ? this.end : BEFORE));
  }
}
