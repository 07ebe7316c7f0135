// A lesson: one chapter of lessons.js driven through a Lab (lab.js). Used by learn.html (learn.js, bound
// to the document) and by <lease-lab lesson="N"> (bound to the element's shadow root). The question's
// right answer is computed here from the run, never stored: the choice whose predicate holds.
import { loadEngine, loadStart, simulationForId } from './engine.js';
import { Lab } from './lab.js';
import { fmt, loadServiceWords, ownKey } from './i18n.js';
import { chapters, words } from './lessons.js';
import { scopeKeys } from './playback.js';

export { chapters, words };

// ---------- Runs and predicates (pure; the tests use them too)

/** The run a beat sets up, as the lab would show it: the run JSON of the wasm core. */
export function runOf(set, policy = set.fencing || 'none') {
  const sim = new (simulationForId(set.scenario))(set.scenario);
  try {
    sim.setPolicy(policy);
    sim.setRetries(set.retries || 0);
    sim.setNaive(Boolean(set.naive));
    for (const [k, v] of Object.entries(set)) if (sim.hasParam(k)) sim.setParam(k, v);
    return JSON.parse(sim.runJson());
  } finally {
    sim.free();
  }
}

/** A beat's scan: for each policy, how many of the parameter's values lose an update (`quick()`). */
export function scanOf(set, scan) {
  const sim = new (simulationForId(set.scenario))(set.scenario);
  const out = { from: scan.from, to: scan.to, step: scan.step, n: 0 };
  try {
    sim.setRetries(set.retries || 0);
    sim.setNaive(Boolean(set.naive));
    for (const [k, v] of Object.entries(set)) if (sim.hasParam(k)) sim.setParam(k, v);
    for (const p of scan.policies) {
      sim.setPolicy(p);
      let lost = 0;
      let n = 0;
      for (let v = scan.from; v <= scan.to; v += scan.step) {
        sim.setParam(scan.param, v);
        if (sim.quick()[1] !== 0) lost++;
        n++;
      }
      out[p] = lost;
      out.n = n;
    }
  } finally {
    sim.free();
  }
  return out;
}

/**
 * A beat's search (the "Find a failure" panel's grid, `search.vary`: [[param, from, to, step]…]),
 * done the slow way for the lesson's own answer: every point run (`quick()`), for each of
 * `search.policies`, the smallest failure kept — least cost Σ (value − from) / step, ties to the
 * point first in the order the parameters are listed, as the panel and `leaselab search` pick it.
 * Returns {n, [policy]: null | {param: ms…}}. The panel's workers must agree (learn.test.mjs).
 */
export function searchOf(set, search) {
  const sim = new (simulationForId(set.scenario))(set.scenario);
  const dims = search.vary.map(([param, from, to, step]) => ({ param, from, step, count: Math.floor((to - from) / step) + 1 }));
  const n = dims.reduce((a, d) => a * d.count, 1);
  const out = { n };
  try {
    sim.setRetries(set.retries || 0);
    sim.setNaive(Boolean(set.naive));
    for (const [k, v] of Object.entries(set)) if (sim.hasParam(k)) sim.setParam(k, v);
    for (const p of search.policies) {
      sim.setPolicy(p);
      let best = null;
      for (let at = 0; at < n; at++) {
        // The point at place `at`, the last dimension fastest: places rise in the tie order.
        let rest = at;
        const index = dims.map(() => 0);
        for (let k = dims.length - 1; k >= 0; k--) {
          index[k] = rest % dims[k].count;
          rest = Math.floor(rest / dims[k].count);
        }
        const cost = index.reduce((a, i) => a + i, 0);
        if (best && cost >= best.cost) continue;
        dims.forEach((d, k) => sim.setParam(d.param, d.from + index[k] * d.step));
        if (sim.quick()[1] !== 0) best = { cost, index };
      }
      out[p] = best && Object.fromEntries(dims.map((d, k) => [d.param, d.from + best.index[k] * d.step]));
    }
  } finally {
    sim.free();
  }
  return out;
}

const writesOf = (run, c) => run.writes.filter((w) => w.client === c);
const list = (v) => (Array.isArray(v) ? v : [v]);

/** Whether every key of predicate `pred` holds for `run` (and `scan`, the beat's scan counts, and `search`, its search's). */
export function holds(pred, run, scan = null, search = null) {
  return Object.entries(pred).every(([k, v]) => {
    switch (k) {
      case 'verdict':
        return run.verdict === v;
      case 'lost':
        return (run.lost ?? null) === v;
      case 'rejected':
        return v === null ? run.writes.every((w) => w.accepted) : writesOf(run, v).some((w) => !w.accepted);
      case 'lockRejects':
        return run.events.some((e) => e.lane === 'lock' && e.actor === v && /write.*reject/.test(e.kind));
      case 'granted':
        return v === null ? !run.events.some((e) => e.kind === 'granted' && e.actor !== run.clients[0]) : run.events.some((e) => e.kind === 'granted' && e.actor === v);
      case 'denied':
        return run.events.some((e) => e.kind === 'denied' && e.actor === v);
      case 'firstWrite': {
        const w = run.writes.find((x) => x.accepted);
        return !!w && w.client === v;
      }
      case 'overlap':
        return run.overlaps.length > 0 === v;
      case 'allApplied': {
        // Every client's debit is in the final balance: the balance a serial order gives.
        const debit = Object.fromEntries(run.writes.map((w) => [w.client, w.debit]));
        return (run.final === run.initial - Object.values(debit).reduce((a, b) => a + b, 0)) === v;
      }
      case 'writes':
        return run.writes.length === v;
      case 'lockedOut':
        return (run.locked_out ?? null) === v;
      case 'scanZero':
        return !!scan && list(v).every((p) => scan[p] === 0);
      case 'scanSome':
        return !!scan && list(v).every((p) => scan[p] > 0);
      case 'searchZero':
        return !!search && list(v).every((p) => search[p] === null);
      case 'searchSome':
        return !!search && list(v).every((p) => Boolean(search[p]));
      default:
        throw new Error(`lessons: unknown predicate ${k}`);
    }
  });
}

/** The values a beat's text may quote, by placeholder name, from its run (and scan, and givens). */
export function varsOf(beat, run, scan, search = null) {
  const v = { initial: run.initial, final: run.final, expected: run.expected, ...(beat.given || {}) };
  for (const [k, ms] of Object.entries(run.params)) v[k.replace(/_ms$/, '')] = ms;
  for (const c of run.clients) {
    const ws = writesOf(run, c);
    const lease = run.leases.find((l) => l.client === c);
    const end = run.events.find((e) => e.kind === 'session-ended' && e.actor === c);
    const set = (k, x) => x !== undefined && x !== null && (v[`${c}.${k}`] = x);
    set('token', lease && lease.token);
    set('granted', lease && lease.granted_ms);
    set('leaseEnd', lease && lease.ends_ms);
    set('read', ws[0] && ws[0].snapshot);
    set('value', ws[0] && ws[0].value);
    set('debit', ws[0] && ws[0].debit);
    set('last', ws.length ? ws[ws.length - 1].value : undefined);
    set('sessionEnd', end && end.t_ms);
  }
  if (scan) for (const [k, x] of Object.entries(scan)) v[`scan.${k}`] = x;
  if (search) {
    v['search.n'] = search.n;
    for (const [param, from, to, step] of beat.search.vary) Object.assign(v, { [`search.${param}.from`]: from, [`search.${param}.to`]: to, [`search.${param}.step`]: step });
    for (const p of beat.search.policies) for (const [k, x] of Object.entries(search[p] || {})) v[`search.${p}.${k}`] = x;
  }
  return v;
}

/** Fills {name} and {client.name} placeholders from `vars` (through `nf`); unknown ones stay visible. */
export function fillText(text, vars, nf = String) {
  return text.replace(/\{([\w.-]+)\}/g, (m, k) => (Object.hasOwn(vars, k) ? nf(vars[k]) : m));
}

/** The placeholders a text uses. */
export const placeholders = (text) => [...text.matchAll(/\{([\w.-]+)\}/g)].map((m) => m[1]);

/** The index of the choice whose predicate holds (-1 if none or several: the test forbids both). */
export function answerOf(beat, run, scan, search = null) {
  const ok = beat.ask.choices.map((c) => holds(c.when, run, scan, search));
  return ok.filter(Boolean).length === 1 ? ok.indexOf(true) : -1;
}

// ---------- Progress (localStorage when available; a sandboxed frame may refuse it)

const KEY = 'leaselab-lessons';
export function loadProgress() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
  } catch {
    return {};
  }
}
function saveProgress(p) {
  try {
    localStorage.setItem(KEY, JSON.stringify(p));
  } catch {
    // no storage here: progress lasts as long as the page
  }
}

// ---------- The view

// The lab comes right after the question, the answer's words after it: a reader who answered sees
// the verdict and the diagram beside the question (issue 38); why follows.
const markup = () => `
<section class="lesson" id="lesson" tabindex="-1" aria-labelledby="ls-title">
  <p class="ls-kicker" id="ls-kicker"></p>
  <h2 id="ls-title"></h2>
  <p class="ls-progress" id="ls-progress"></p>
  <div class="ls-beat">
    <p id="ls-say" class="ls-say"></p>
    <p id="ls-setup" class="ls-setup"></p>
    <div id="ls-question" class="ls-question" data-testid="question" role="group" aria-labelledby="ls-q" hidden>
      <p id="ls-q" class="ls-q"></p>
      <div id="ls-choices" class="ls-choices"></div>
    </div>
  </div>
  <div id="lab" class="lab ls-lab"><p id="status" class="status" role="status" hidden></p><div id="mount"></div></div>
  <div id="ls-reveal" class="ls-beat ls-reveal" aria-live="polite" aria-atomic="true"></div>
  <div class="ls-nav">
    <button type="button" id="ls-prev"></button>
    <button type="button" id="ls-replay"></button>
    <button type="button" id="ls-next"></button>
  </div>
  <p class="fine" id="ls-keys"></p>
</section>`;

const LAB_FIXED = new Set(['play']);
const LAB_FREE = new Set(['sliders', 'params', 'fencing', 'retries', 'play', 'compare']);

export class Lesson {
  /**
   * root: document or a shadow root; host: where the lesson's markup goes. opts: lang, chapter
   * (1-based), beat (0-based), onMove({chapter, beat}) (learn.js keeps the hash and the index),
   * onReveal() once an answer has shown the run (learn.js keeps it in view).
   */
  constructor(root, host, opts) {
    this.root = root;
    this.host = host;
    this.o = opts;
    this.$ = (id) => root.getElementById(id);
    this.lang = opts.lang || 'en';
    this.chapter = Math.min(Math.max(1, opts.chapter || 1), chapters.length);
    this.beat = opts.beat || 0;
    this.answered = null; // the chosen index on this beat, once chosen
    this.settings = {};
  }

  get w() {
    return { ...words.en, ...(words[this.lang] || {}) };
  }

  async start() {
    this.core = await loadStart();
    this.host.innerHTML = markup();
    this.lab = new Lab(this.root, {
      mount: this.$('mount'),
      get: (name) => {
        if (name === 'lang') return this.lang;
        const v = this.settings[name];
        return v === undefined || v === null ? null : String(v);
      },
      features: LAB_FIXED,
      link: () => '',
    });
    this.settings = this.current.set;
    // The beat's predicates need the engine (and its service's words) now; the lab then computes its runs.
    const first = this.core.byId[this.settings.scenario];
    await Promise.all([loadEngine(first), loadServiceWords(first.service)]);
    await this.lab.start();
    this.wire();
    await this.show();
  }

  get chapterData() {
    return chapters[this.chapter - 1];
  }

  get current() {
    return this.chapterData.beats[this.beat];
  }

  text(o) {
    return (o && (o[this.lang] || o.en)) || '';
  }

  /** Fills a text's placeholders; numbers in the reader's digits. */
  fill(o) {
    const nf = this.lang === 'en' ? String : (x) => (typeof x === 'number' ? new Intl.NumberFormat(this.lang, { useGrouping: false }).format(x) : x);
    return fillText(this.text(o), this.vars, nf);
  }

  async setLang(lang) {
    this.lang = lang;
    await this.lab.update(new Set(['lang']));
    this.render();
  }

  async go(chapter, beat = 0) {
    this.chapter = Math.min(Math.max(1, chapter), chapters.length);
    this.beat = Math.min(Math.max(0, beat), this.chapterData.beats.length - 1);
    await this.show();
  }

  async move(dir) {
    const n = this.chapterData.beats.length;
    const had = this.root.activeElement;
    if (this.beat + dir >= 0 && this.beat + dir < n) await this.go(this.chapter, this.beat + dir);
    else if (dir > 0 && this.chapter < chapters.length && this.o.acrossChapters) await this.go(this.chapter + 1, 0);
    else return;
    // A focused choice is redrawn and a button at the end is disabled: keep the keys in the lesson.
    if (had && (!had.isConnected || had.disabled)) this.$('lesson').focus();
  }

  /** Shows the current beat: computes its run, resets the question, sets the lab (hidden until revealed). */
  async show() {
    const b = this.current;
    this.answered = null;
    // A beat on a service outside the core engine needs the full build and the service's words (fetched once).
    const s = this.core.byId[b.set.scenario];
    await Promise.all([loadEngine(s), loadServiceWords(s.service)]);
    this.run = runOf(b.set);
    this.scan = b.scan ? scanOf(b.set, b.scan) : null;
    this.search = b.search ? searchOf(b.set, b.search) : null;
    this.vars = varsOf(b, this.run, this.scan, this.search);
    this.render();
    if (!b.ask) await this.reveal();
    const p = loadProgress();
    const key = String(this.chapter);
    p[key] = Math.max(p[key] ?? -1, this.beat);
    p.last = this.chapter;
    saveProgress(p);
    if (this.o.onMove) this.o.onMove({ chapter: this.chapter, beat: this.beat });
  }

  /** Sets the lab to the beat's settings (a full reset of its state) and plays the run. */
  async reveal() {
    const b = this.current;
    this.settings = b.set;
    const features = new Set(b.free ? LAB_FREE : LAB_FIXED);
    // A beat with a search shows the "Find a failure" panel, its rows set to the beat's grid.
    if (b.search) features.add('search');
    this.lab.searchPreset = b.search ? b.search.vary : null;
    this.lab.setFeatures(features);
    await this.lab.update(new Set([...this.lab.names, 'scenario']));
    this.$('lab').hidden = false;
    this.$('ls-replay').disabled = false;
    // The run animates, unless the reader asked for reduced motion (then it is shown whole).
    if (!this.lab.reduceMotion.matches) this.lab.startPlay();
    this.renderReveal();
  }

  async choose(i) {
    if (this.answered !== null) return;
    this.answered = i;
    const right = answerOf(this.current, this.run, this.scan, this.search);
    const q = this.$('ls-question');
    q.dataset.revealed = 'true';
    q.dataset.correct = String(i === right);
    const hadFocus = this.root.activeElement && this.root.activeElement.closest && this.root.activeElement.closest('#ls-choices');
    this.renderChoices();
    // The buttons were re-drawn: keep the keyboard where it was, on the chosen one.
    if (hadFocus) this.$('ls-choices').children[i].focus();
    await this.reveal();
    if (this.o.onReveal) this.o.onReveal();
  }

  replay() {
    if (this.current.ask && this.answered === null) return;
    this.lab.stop();
    if (this.lab.reduceMotion.matches) this.lab.setPlayhead(this.lab.run.end_ms);
    else this.lab.startPlay();
    this.$('ls-reveal').textContent = '';
    this.renderReveal();
  }

  // ---------- Rendering

  render() {
    const { $, w } = this;
    const b = this.current;
    const ch = this.chapterData;
    $('lesson').lang = this.lang;
    const num = this.lab.num;
    $('ls-kicker').textContent = fmt(w.chapter, { n: num(this.chapter) });
    $('ls-title').textContent = this.text(ch.title);
    $('ls-progress').textContent = fmt(w.beatOf, { i: num(this.beat + 1), n: num(ch.beats.length) });
    $('ls-say').textContent = this.fill(b.say);
    $('ls-setup').textContent = this.setupLine();
    $('ls-prev').textContent = w.prev;
    $('ls-next').textContent = w.next;
    $('ls-replay').textContent = w.replay;
    $('ls-keys').textContent = w.keys;
    $('ls-prev').disabled = this.beat === 0;
    const last = this.beat === ch.beats.length - 1;
    $('ls-next').disabled = last && !(this.o.acrossChapters && this.chapter < chapters.length);
    const q = $('ls-question');
    q.hidden = !b.ask;
    if (b.ask) {
      $('ls-q').textContent = `${w.predict}: ${this.text(b.ask.q)}`;
      if (this.answered === null) {
        delete q.dataset.revealed;
        delete q.dataset.correct;
      }
      this.renderChoices();
    }
    // Before an answer, nothing of the run is on screen (nor announced).
    $('lab').hidden = Boolean(b.ask) && this.answered === null;
    $('ls-replay').disabled = $('lab').hidden;
    if (this.answered === null && b.ask) $('ls-reveal').replaceChildren();
    else this.renderReveal({ quiet: true });
  }

  setupLine() {
    const { w } = this;
    const b = this.current;
    const s = this.core.byId[b.set.scenario];
    const title = this.lab.scText(s, 'title');
    const parts = [];
    for (const p of s.params) {
      const ms = this.run.params[`${p.name}_ms`];
      if (ms !== undefined && ['ttl', 'pause', 'delay', 'kill', 'restart'].includes(p.name)) parts.push(`${this.lab.paramLabel(s, p) || p.name} ${this.fill({ en: `{${p.name}}` })} ${this.lab.d.ms}`);
    }
    let params = parts.length ? `${parts.join(', ')}${w.stop} ` : '';
    params += fmt(w.fencingIs, { policy: this.lab.d.policies[b.set.fencing || 'none'] });
    // Naive is the majority client's word; a service with its own (`naiveLabel`) says which client it is.
    const own = ownKey(this.lab.d, this.run, 'naiveLabel', null);
    const meaning = own && this.lab.d[own];
    if (b.set.naive) params += meaning ? ` ${meaning}${w.stop}` : ` ${w.naive}`;
    if (b.set.retries) params += ` ${w.retries}`;
    return fmt(w.setup, { title, params });
  }

  renderChoices() {
    const b = this.current;
    const box = this.$('ls-choices');
    const right = this.answered === null ? -1 : answerOf(b, this.run, this.scan, this.search);
    box.replaceChildren();
    b.ask.choices.forEach((c, i) => {
      const btn = document.createElement('button');
      btn.type = 'button';
      btn.className = 'ls-choice';
      btn.dataset.index = String(i);
      btn.textContent = this.text(c.say);
      if (this.answered !== null) {
        btn.setAttribute('aria-pressed', String(i === this.answered));
        if (i === right) {
          btn.classList.add('right');
          btn.append(' ✓');
        } else if (i === this.answered) {
          btn.classList.add('wrong');
          btn.append(' ✗');
        }
      }
      box.appendChild(btn);
    });
  }

  renderReveal() {
    const { $, w } = this;
    const b = this.current;
    const box = $('ls-reveal');
    const lines = [];
    if (b.ask && this.answered !== null) lines.push(this.answered === answerOf(b, this.run, this.scan, this.search) ? w.right : w.wrong);
    lines.push(this.fill(b.why));
    if (b.free) lines.push(w.tryIt);
    if (this.beat === this.chapterData.beats.length - 1) {
      lines.push(w.chapterEnd);
      if (this.chapter < chapters.length) lines.push(fmt(w.nextChapter, { title: this.text(chapters[this.chapter].title) }));
    }
    box.replaceChildren();
    const h = document.createElement('p');
    h.className = 'ls-answer-title';
    h.textContent = w.answer;
    box.appendChild(h);
    for (const l of lines) {
      const p = document.createElement('p');
      p.textContent = l;
      box.appendChild(p);
    }
  }

  wire() {
    const { $ } = this;
    $('ls-prev').addEventListener('click', () => this.move(-1));
    $('ls-next').addEventListener('click', () => this.move(1));
    $('ls-replay').addEventListener('click', () => this.replay());
    $('ls-choices').addEventListener('click', (e) => {
      const btn = e.target.closest('button[data-index]');
      if (btn) this.choose(Number(btn.dataset.index));
    });
    // ←/→ between beats, scoped to the lesson (never window); not while a slider or menu has focus
    // (its own arrows). Either way the key stops here: mdBook's ←/→ turn the host's page.
    scopeKeys($('lesson'), { ArrowRight: 1, ArrowLeft: -1 }, (dir) => this.move(dir));
  }
}

/** <lease-lab lesson="N">: one chapter in the element's shadow root (called by lease-lab.js). */
export async function embedLesson(el, root, style) {
  root.innerHTML = `<link rel="stylesheet" href="${style}"><div id="ls-host" class="lab embed"></div>`;
  const n = Number(el.getAttribute('lesson'));
  const lang = el.getAttribute('lang') || (el.parentElement?.closest('[lang]')?.lang || 'en').split('-')[0];
  const lesson = new Lesson(root, root.getElementById('ls-host'), {
    chapter: Number.isInteger(n) && n >= 1 && n <= chapters.length ? n : 1,
    lang: words[lang] ? lang : 'en',
  });
  await lesson.start();
  return lesson;
}
