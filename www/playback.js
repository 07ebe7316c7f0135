// The lab's playback clock: the playhead's time in a run, play and stop (requestAnimationFrame, owned
// here), stepping from event to event, scrubbing, the speed, and the reader's reduced-motion wish. It
// draws nothing itself: every move hands the new time to `show(t)`, the lab's view. And, below, which
// of the keys that step and play a lab keeps from its host page. (One module, not two: each request
// costs the page's budget its headers.)

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

// ---------- Keys
//
// Which keys a lab keeps to itself. A lab sits inside someone else's page (a docs site), whose own
// shortcuts listen on document or window: MkDocs Material's "," and "." (previous and next page),
// mdBook's ← and →, search on "/" or "s". A key the lab acts on must not reach them, or stepping
// through the events leaves the page. Keys the lab does not act on pass through untouched, so the
// host's shortcuts still work while a button of the lab has focus.
//
// Pure: it reads a keydown event's key, modifiers and target and says what to do; lab.js and lesson.js
// act on the answer.

/** Keys a focused native control acts on itself (its default action): the host must not act too. */
const CONTROL_KEYS = {
  range: /^(Arrow(Left|Right|Up|Down)|Home|End|PageUp|PageDown)$/,
  // A menu also jumps to an option by its first letters (type-ahead).
  select: /^(Arrow(Left|Right|Up|Down)|Home|End|PageUp|PageDown| |Enter|.)$/u,
  toggle: /^ $/,
  button: /^( |Enter)$/,
  link: /^Enter$/,
};

/** The kind of control a key event's target is, for CONTROL_KEYS; 'text' for text entry; or null. */
function controlOf(t) {
  const tag = t && t.tagName;
  if (tag === 'TEXTAREA' || t?.isContentEditable) return 'text';
  if (tag === 'SELECT') return 'select';
  if (tag === 'BUTTON' || tag === 'SUMMARY') return 'button';
  if (tag === 'A') return 'link';
  if (tag !== 'INPUT') return null;
  if (t.type === 'range') return 'range';
  if (t.type === 'checkbox' || t.type === 'radio') return 'toggle';
  return 'text';
}

/**
 * What a lab does with a keydown event, given its shortcuts ({ key: action }, e.g. { '.': 'next' }):
 *  - { action } — a shortcut of the lab's: act, preventDefault and stopPropagation;
 *  - { own: true } — the focused control's own key (a slider's arrows, a menu's letters, text being
 *    typed): stopPropagation only, so the control still acts and the host does not;
 *  - null — not the lab's: let it through (Tab, Escape, the host's shortcuts on a button, Ctrl+…).
 * A shortcut does not fire where the focused control takes the key itself (a menu's type-ahead, typing).
 */
export function keyRole(e, shortcuts) {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  const kind = controlOf(e.target);
  if (kind === 'text') return { own: true };
  if (kind && CONTROL_KEYS[kind].test(e.key)) return { own: true };
  // Shift+arrow extends a selection: not a shortcut. (Shift may be how a layout types "," or ".".)
  const action = (e.shiftKey && e.key.length > 1) || !Object.hasOwn(shortcuts, e.key) ? undefined : shortcuts[e.key];
  return action ? { action } : null;
}

/**
 * Listens for keydown on `el` (the lab's own element: never window or document) and runs
 * `act(action, e)` for its shortcuts, keeping them and its controls' keys from the host page.
 */
export function scopeKeys(el, shortcuts, act) {
  el.addEventListener('keydown', (e) => {
    const role = keyRole(e, shortcuts);
    if (!role) return;
    e.stopPropagation();
    if (!role.action) return;
    e.preventDefault();
    act(role.action, e);
  });
}
