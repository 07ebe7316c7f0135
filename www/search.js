// The lab's "Find a failure" panel: the reader picks the parameters to vary and their ranges; the grid
// is cut into slices (search-plan.js) and searched by Web Workers, one per core (search-worker.js, on
// explore's wasm); the answer is "no lost update in N combinations" or the smallest counterexample,
// which the panel opens in the lab's diagram and links to. Loaded when the reader first opens the
// panel, so the lab's first load carries none of it. What a search proves: every point of the grid,
// exactly; nothing between points.
import { fmt } from './i18n.js';
import { HERE, pauseParam, rangeOf, ttlParam } from './settings.js';
import { startWorker } from './worker-start.js';
import { combine, combinationsOf, costMaxFor, countOf, rangeAround, readGrid, skippable, sliceAnswer, sliceGrid, slicesOf, smaller } from './search-plan.js';

/** Slices per worker: enough for the progress bar to move and for late slices to be skipped. */
const SLICES_PER_WORKER = 4;
/** At most this many workers, whatever the machine says (each loads its own wasm). */
const WORKERS_MAX = 16;

/** `n` search workers (search-worker.js), each loading its own wasm (worker-start.js: from any origin). */
export function searchWorkers(n) {
  const workers = [];
  try {
    while (workers.length < n) workers.push(startWorker(new URL('./search-worker.js', import.meta.url)));
  } catch (e) {
    for (const w of workers) w.terminate(); // none left running when the page refuses one of them
    throw e;
  }
  return workers;
}

/** A worker that could not be started, or failed before its first answer (its script did not load). */
class WorkerStartError extends Error {}

/**
 * Sends a message to a worker (one at a time per worker); resolves with its reply, rejects with its
 * error (a WorkerStartError if the worker never answered anything: it did not start).
 */
export function ask(w, msg) {
  const id = (w.asked = (w.asked || 0) + 1);
  return new Promise((resolve, reject) => {
    w.onmessage = (e) => {
      w.answered = true;
      if (e.data.id !== id) return;
      if (e.data.type === 'error') reject(new Error(e.data.message));
      else resolve(e.data);
    };
    w.onerror = (e) => {
      e.preventDefault(); // said in the panel, not as an uncaught error
      const message = e.message || 'worker failed';
      reject(w.answered ? new Error(message) : new WorkerStartError(message));
    };
    w.postMessage({ ...msg, id });
  });
}

/**
 * Searches `dims` (at the lab's `setup`) in the workers: the slices handed to whichever worker is
 * free, cheapest first, each searched only for a counterexample that beats the best found so far
 * (costMaxFor), a slice that cannot beat it skipped; resolves with the combined
 * answer (search-plan.js's combine). `onPoints(n)`: n more points decided. Terminating the workers
 * stops it (the promise then never settles). The panel's search, and the benchmark's.
 */
export function searchInWorkers(workers, setup, dims, slices, onPoints = () => {}) {
  const answers = [];
  const perIndex = combinationsOf(dims.slice(1)); // points per value of the first dimension
  let skipped = 0;
  let next = 0;
  let pending = 0;
  let best = null;
  return new Promise((resolve, reject) => {
    const feed = (w) => {
      while (next < slices.length && skippable(slices[next], best)) {
        const sl = slices[next++];
        skipped += (sl.hi - sl.lo + 1) * perIndex;
        onPoints((sl.hi - sl.lo + 1) * perIndex);
      }
      if (next >= slices.length) {
        if (pending === 0) resolve(combine(dims, answers, skipped));
        return;
      }
      const slice = slices[next++];
      pending++;
      // Started after a counterexample elsewhere: only one that beats it is looked for.
      ask(w, { type: 'run', setup, grid: sliceGrid(dims, slice), costMax: costMaxFor(slice, best) }).then((r) => {
        pending--;
        const a = sliceAnswer(slice, r.out, dims.length);
        answers.push(a);
        if (a.counterexample && smaller(a.counterexample, best)) best = a.counterexample;
        onPoints(a.combinations);
        feed(w);
      }, reject);
    };
    for (const w of workers) feed(w);
  });
}

export class SearchPanel {
  constructor(lab) {
    this.lab = lab;
    this.$ = lab.$;
    this.workers = [];
    this.job = 0; // the search in progress (0: none); a reply from an older one is ignored
    this.jobs = 0;
    this.shownFor = ''; // the scenario and language the rows were built for
    this.applying = false; // the panel itself is changing the lab's settings
    const on = (id, fn) => this.$(id).addEventListener('click', fn);
    on('search', () => this.start());
    on('search-cancel', () => this.cancel(true));
    // Escape inside the panel cancels a running search (scoped to the panel, never window).
    this.$('search-box').addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.job) {
        e.stopPropagation();
        this.cancel(true);
      }
    });
    this.sync();
  }

  get d() {
    return this.lab.d;
  }

  /** After the lab redrew: new rows if the scenario or language changed (keeping the reader's ranges otherwise). */
  sync() {
    const { st } = this.lab.snapshot();
    const key = `${st.scenario} ${st.lang} ${JSON.stringify(this.lab.searchPreset || null)}`;
    if (key !== this.shownFor) {
      this.shownFor = key;
      this.buildRows();
      this.clearResult();
    }
  }

  /** The lab's settings changed (not by this panel): a running search is of other settings now. */
  changed() {
    if (this.job && !this.applying) this.cancel(true);
  }

  /** The current value of parameter p in the lab's state. */
  valueOf(s, p, st) {
    if (p === ttlParam(s)) return st.ttl;
    if (p === pauseParam(s)) return st.pause;
    return st.extra[p.name];
  }

  /**
   * One row per parameter of the scenario: vary it?, from, to, step (ms). Text as text, never markup.
   * Ticked: TTL and pause, around their current values; or, if the lab has a preset (a lesson's beat:
   * [[param, from, to, step]…]), the preset's.
   */
  buildRows() {
    const { st, s } = this.lab.snapshot();
    const preset = this.lab.searchPreset;
    const box = this.$('search-dims');
    box.replaceChildren();
    const d = this.d;
    s.params.forEach((p, k) => {
      const label = this.lab.paramLabel(s, p);
      const row = document.createElement('div');
      row.className = 'search-dim';
      row.dataset.param = p.name;
      const vary = document.createElement('label');
      vary.className = 'check';
      const box0 = document.createElement('input');
      box0.type = 'checkbox';
      box0.dataset.f = 'vary';
      const given = preset && preset.find((g) => g[0] === p.name);
      box0.checked = preset ? Boolean(given) : p === ttlParam(s) || p === pauseParam(s);
      const name = document.createElement('span');
      name.id = `search-name-${k}`;
      name.textContent = label;
      vary.append(box0, ' ', name);
      row.append(vary);
      const range = rangeOf(s, p);
      const start = given ? { from: given[1], to: given[2], step: given[3] } : rangeAround(this.valueOf(s, p, st), range);
      for (const f of ['from', 'to', 'step']) {
        const field = document.createElement('label');
        const words = document.createElement('span');
        words.textContent = d[`search_${f}`];
        const input = document.createElement('input');
        input.type = 'text'; // whole milliseconds, checked on Search (a number input would hide bad text)
        input.inputMode = 'numeric';
        input.dataset.f = f;
        input.value = String(start[f]);
        input.setAttribute('aria-label', fmt(d.searchFieldLabel, { field: d[`search_${f}`], name: label }));
        field.append(words, input);
        row.append(field);
      }
      box.append(row);
    });
  }

  /** The rows as typed, for readGrid. */
  rows() {
    return [...this.$('search-dims').querySelectorAll('.search-dim')].map((row) => {
      const get = (f) => row.querySelector(`[data-f="${f}"]`);
      return { name: row.dataset.param, vary: get('vary').checked, from: get('from').value, to: get('to').value, step: get('step').value };
    });
  }

  /** What the workers need to set up the lab's current run (the varied parameters are overwritten). */
  setup() {
    const { st, s } = this.lab.snapshot();
    return {
      scenario: st.scenario,
      // A table cell's run (injected.js): its faults stay injected while the grid varies the rest.
      injections: s.injections || null,
      policy: st.fencing,
      retries: st.retries,
      naive: Boolean(st.naive),
      params: s.params.map((p) => [p.name, this.valueOf(s, p, st)]),
    };
  }

  /** Checks the rows, then searches the grid in workers. */
  async start() {
    if (this.job) return;
    const { s } = this.lab.snapshot();
    const byName = (name) => rangeOf(s, s.params.find((p) => p.name === name));
    const read = readGrid(this.rows(), byName);
    this.clearResult();
    if (read.problem) return this.say(this.problemText(read, s), true);
    const job = (this.job = ++this.jobs);
    const setup = this.setup();
    const dims = read.dims;
    const n = Math.max(1, Math.min(WORKERS_MAX, navigator.hardwareConcurrency || 2, countOf(dims[0])));
    try {
      // A page that allows no workers (no Worker; a CSP without blob: where this script comes from
      // another origin: worker-start.js) cannot start them: said below.
      try {
        this.spawn(n);
      } catch (e) {
        throw new WorkerStartError(e && e.message ? e.message : String(e));
      }
      this.busy(true);
      const total = await ask(this.workers[0], { type: 'check', setup, grid: sliceGrid(dims, { lo: 0, hi: countOf(dims[0]) - 1 }) });
      if (job !== this.job) return;
      this.total = total.combinations;
      this.done = 0;
      const found = await searchInWorkers(this.workers, setup, dims, slicesOf(dims, n * SLICES_PER_WORKER), (points) => this.progress(points));
      if (job !== this.job) return;
      this.finish();
      this.show(dims, found);
    } catch (e) {
      if (job !== this.job) return;
      this.finish();
      if (e instanceof WorkerStartError) this.say(this.d.searchNoWorkers, true);
      else this.say(fmt(this.d.searchError, { msg: e && e.message ? e.message : String(e) }), true);
    }
  }

  spawn(n) {
    this.workers = searchWorkers(n);
  }

  stopWorkers() {
    for (const w of this.workers) w.terminate();
    this.workers = [];
  }

  /** The search is over, whatever its end: no job, no workers, the buttons back. */
  finish() {
    this.job = 0;
    this.stopWorkers();
    this.busy(false);
  }

  /** Cancel: the workers are terminated at once (a slice runs to its end inside the wasm otherwise). */
  cancel(said) {
    if (!this.job) return;
    this.finish();
    if (said) this.say(this.d.searchCancelled, false);
  }

  /** Points searched so far: the bar, and a polite word at every quarter (not at every slice). */
  progress(points) {
    this.done += points;
    const bar = this.$('search-progress');
    bar.max = this.total;
    bar.value = Math.min(this.total, this.done);
    const quarter = Math.floor((4 * this.done) / this.total);
    if (quarter > this.quarter && quarter < 4) {
      this.quarter = quarter;
      this.say(fmt(this.d.searchProgressSaid, { pct: this.lab.num(quarter * 25) }), false);
    }
  }

  /** Running or not: the buttons, the bar. */
  busy(on) {
    const cancelHadFocus = this.lab.root.activeElement === this.$('search-cancel');
    this.$('search').disabled = on;
    this.$('search-cancel').hidden = !on;
    const bar = this.$('search-progress');
    bar.hidden = !on;
    bar.value = 0;
    this.quarter = 0;
    this.$('search-box').setAttribute('aria-busy', String(on));
    if (on) {
      this.say(fmt(this.d.searchStarted, { n: this.lab.num(this.workers.length) }), false);
      this.$('search-cancel').focus();
    } else if (cancelHadFocus) this.$('search').focus();
  }

  /** The status line (read out politely); `echo`: it repeats the result shown below it, so only screen readers get it. */
  say(text, problem, echo = false) {
    const st = this.$('search-status');
    st.textContent = text;
    st.classList.toggle('problem', Boolean(problem));
    st.classList.toggle('sr-only', echo);
  }

  problemText(p, s) {
    const param = p.name && s.params.find((q) => q.name === p.name);
    const name = param ? this.lab.paramLabel(s, param) : '';
    const num = this.lab.num;
    return fmt(this.d[p.problem], { name, field: p.field && this.d[`search_${p.field}`], value: p.value, min: num(p.min), max: num(p.max), from: num(p.from), to: num(p.to) });
  }

  clearResult() {
    const r = this.$('search-result');
    r.hidden = true;
    r.replaceChildren();
    delete r.dataset.safe;
    delete r.dataset.combinations;
    delete r.dataset.behaviours;
    delete r.dataset.cost;
  }

  /** A count in the lab's language with thousands separators (lab.num leaves them out: it writes milliseconds as the sliders do). */
  count(n) {
    const lang = this.lab.snapshot().st.lang === 'bn' ? 'bn' : 'en';
    if (this.counts?.lang !== lang) this.counts = { lang, nf: new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }) };
    return this.counts.nf.format(n);
  }

  /**
   * The answer: the count, or the counterexample opened in the diagram with its values marked and a
   * link to it. A safe answer names the distinct behaviours the runs met (a lower bound of the grid's:
   * crate::search's Found::behaviours says why).
   */
  show(dims, found) {
    const { d } = this;
    const num = this.lab.num;
    const count = (n) => this.count(n);
    const r = this.$('search-result');
    r.dataset.safe = String(!found.counterexample);
    r.dataset.combinations = String(found.combinations);
    if (found.behaviours != null) r.dataset.behaviours = String(found.behaviours);
    const p = document.createElement('p');
    r.replaceChildren(p);
    r.hidden = false;
    const vars = { n: count(found.combinations), runs: count(found.runs), m: count(found.behaviours) };
    if (!found.counterexample) {
      p.textContent = fmt(found.behaviours == null ? d.searchSafe : d.searchSafeBehaviours, vars);
      this.say(p.textContent, false, true);
      return;
    }
    const c = found.counterexample;
    r.dataset.cost = String(c.cost);
    const { s } = this.lab.snapshot();
    p.append(fmt(d.searchLost, vars), ' ');
    dims.forEach((dim, k) => {
      const mark = document.createElement('mark');
      mark.dataset.param = dim.name;
      mark.dataset.ms = String(c.values[k]);
      mark.textContent = fmt(d.searchValue, { name: this.lab.paramLabel(s, s.params.find((q) => q.name === dim.name)), ms: num(c.values[k]) });
      p.append(k ? ', ' : '', mark);
    });
    p.append(' ', fmt(d.searchCost, { cost: count(c.cost) }));
    this.open(dims, c);
    const link = document.createElement('a');
    link.href = this.link();
    link.dataset.testid = 'search-link';
    link.textContent = d.searchLink;
    const more = document.createElement('p');
    more.append(d.searchOpened, ' ', link);
    r.append(more);
    this.say(`${p.textContent} ${d.searchOpened}`, false, true);
  }

  /** The lab's link to its state (the page's address, the element's); a lesson's lab has none, so the lab page's. */
  link() {
    let href = '';
    try {
      href = this.lab.o.link();
    } catch {
      // a sandboxed iframe may refuse access to location
    }
    if (href) return href;
    const q = new URLSearchParams(this.lab.params()).toString();
    return new URL(`index.html${q ? `?${q}` : ''}`, HERE).href;
  }

  /** Sets the lab to the counterexample (the varied parameters; the rest as searched) and redraws it. */
  open(dims, c) {
    const { st, s } = this.lab.snapshot();
    dims.forEach((dim, k) => {
      const p = s.params.find((q) => q.name === dim.name);
      if (p === ttlParam(s)) st.ttl = c.values[k];
      else if (p === pauseParam(s)) st.pause = c.values[k];
      else st.extra[p.name] = c.values[k];
    });
    this.applying = true;
    try {
      this.lab.changed({ now: true });
    } finally {
      this.applying = false;
    }
  }
}
