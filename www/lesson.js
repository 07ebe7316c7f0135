// A lesson: one chapter of lessons.js driven through a Lab (lab.js). Used by learn.html (learn.js, bound
// to the document) and by <lease-lab lesson="N"> (bound to the element's shadow root). The question's
// right answer is computed here from the run, never stored: the choice whose predicate holds.
import { loadEngine, loadStart } from './engine.js';
import { Lab } from './lab.js';
import { fmt, loadWordsFor, ownKey } from './i18n.js';
import { chapters, words } from './lessons.js';
import { scopeKeys } from './playback.js';

import { answerOf, fillText, holds, placeholders, runOf, scanOf, searchOf, tableRowOf, varsOf } from './lesson-checks.js';

export { chapters, words };
// A beat's checks (lesson-checks.js), as the tests and learn.js have always imported them from here.
export { answerOf, fillText, holds, placeholders, runOf, scanOf, searchOf, tableRowOf, varsOf };

let matrix = null;
/** The safety table the build shipped (pkg/matrix.json), fetched once, for a beat that asks about a row of it. */
export function loadMatrix() {
  matrix ??= fetch(new URL('pkg/matrix.json', import.meta.url)).then((r) => {
    if (!r.ok) throw new Error(`pkg/matrix.json: HTTP ${r.status}`);
    return r.json();
  });
  return matrix;
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
  <div id="ls-table" class="ls-table"></div>
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
    await Promise.all([loadEngine(first), loadWordsFor(first)]);
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
    await Promise.all([loadEngine(s), loadWordsFor(s)]);
    this.run = runOf(b.set);
    this.scan = b.scan ? scanOf(b.set, b.scan) : null;
    this.search = b.search ? searchOf(b.set, b.search) : null;
    this.table = b.table ? tableRowOf(b.table, await loadMatrix()) : null;
    this.vars = varsOf(b, this.run, this.scan, this.search, this.table);
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
    const right = answerOf(this.current, this.run, this.scan, this.search, this.table);
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
    if (this.answered === null && b.ask) {
      $('ls-reveal').replaceChildren();
      $('ls-table').replaceChildren();
    } else this.renderReveal({ quiet: true });
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
    const right = this.answered === null ? -1 : answerOf(b, this.run, this.scan, this.search, this.table);
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
    if (b.ask && this.answered !== null) lines.push(this.answered === answerOf(b, this.run, this.scan, this.search, this.table) ? w.right : w.wrong);
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
    this.renderTableRow();
  }

  /** A beat about a row of the safety table shows that row after the reveal (outside the live region: a table read aloud in one breath helps nobody). */
  renderTableRow() {
    const spec = this.current.table;
    const host = this.$('ls-table');
    if (!spec) return host.replaceChildren();
    const shown = host.firstElementChild;
    if (shown && shown.getAttribute('services') === spec.service && shown.getAttribute('fencing') === spec.fencing && shown.getAttribute('lang') === this.lang) return;
    // Defines the element; where it cannot load, its tag stays empty and the reveal's words stand alone.
    import('./lease-lab-matrix.js').catch((e) => console.warn(`leaselab: the safety table's element did not load (${e && e.message ? e.message : e})`));
    const el = document.createElement('lease-lab-matrix');
    for (const [k, v] of [['services', spec.service], ['fencing', spec.fencing], ['lang', this.lang]]) el.setAttribute(k, v);
    host.replaceChildren(el);
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
