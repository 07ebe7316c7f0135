// The lab's controller: one instance per lab on a page (the page itself, or each <lease-lab>). It binds
// to a root (the document or a shadow root: ids are looked up there), reads its settings from a getter
// (the URL's query or the element's attributes), owns the state, the controls and the playback clock,
// asks the wasm for a run and hands it to the pure renderers. No simulation logic lives here.
import init, { Simulation, catalogue, defaultScenario, policies } from './pkg/leaselab.js';
import { languages, loadLang, fmt } from './i18n.js';
import { drawDiagram } from './diagram.js';
import { describeEvent, eventTimes, explainVerdict, safetyMargin, whoOf } from './explain.js';
import { labMarkup } from './markup.js';
import { loadCatalogue } from './core.js';
import { BEFORE, DEFAULT_SPEED, Playback, SPEEDS } from './playback.js';
import { RETRIES_ON, defaultsOf, extraParams, paramsOf, pauseParam, rangeOf, readSettings, resetOf, settingNames, snippet, takeSettings, ttlParam } from './settings.js';

const EPS = 1e-6;

/** The parts a lab can show, by their `controls` token (the verdict, diagram and events always show). */
export const FEATURES = ['scenario', 'sliders', 'params', 'fencing', 'retries', 'reset', 'lang', 'play', 'share', 'compare', 'info'];

/** The wasm and its catalogue, initialised once per page however many labs it has (core.js). */
export const loadCore = () => loadCatalogue({ init, catalogue, defaultScenario, policies });

function option(parent, value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  parent.appendChild(o);
  return o;
}

/** A small swatch per legend entry, drawn with the diagram's own classes. */
function legendIcon(kind) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 36 16');
  svg.setAttribute('class', 'swatch');
  svg.setAttribute('aria-hidden', 'true');
  const add = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    svg.appendChild(e);
  };
  const box = { x: 2, y: 3, width: 32, height: 10, rx: 2 };
  if (['lease', 'belief', 'pause', 'overlap', 'value'].includes(kind)) add('rect', { ...box, class: kind });
  else if (kind === 'ask') {
    add('line', { x1: 2, x2: 34, y1: 12, y2: 12, class: 'lane-line' });
    for (const x of [10, 18, 26]) add('line', { x1: x, x2: x, y1: 12, y2: 5, class: 'ask' });
  } else add('line', { x1: 4, y1: 8, x2: 30, y2: 8, class: 'arrow write ok', 'marker-end': 'url(#ah-ok)' });
  return svg;
}

/** The first instant at which two runs of the same schedule differ, or null. */
function divergence(a, b) {
  const n = Math.max(a.events.length, b.events.length);
  for (let i = 0; i < n; i++) {
    const x = a.events[i];
    const y = b.events[i];
    if (!x || !y || JSON.stringify(x) !== JSON.stringify(y)) return Math.min(x ? x.t_ms : Infinity, y ? y.t_ms : Infinity);
  }
  return null;
}

export class Lab {
  /**
   * root: where the ids live (document or a shadow root). opts:
   *  mount — the element the lab's markup goes into;
   *  get(name) — a setting's raw value or null;
   *  page — true for the page itself: it owns <html lang>, the title and the address bar (onChange);
   *  features — a Set of FEATURES to show; autoplay — play the run once loaded (unless reduced motion);
   *  onChange(now) — a setting changed (the page writes the URL; `now` false while a slider moves);
   *  onVerdict(run) — a new run was shown; link() — the link to this state;
   *  attrs() — extra [name, value] pairs for the embed snippet (the element's presentation).
   */
  constructor(root, opts) {
    this.root = root;
    this.o = opts;
    this.$ = (id) => root.getElementById(id);
    this.features = opts.features || new Set(FEATURES);
    this.state = { compare: 'token' };
    this.notices = []; // [{key, vars}] — kept as keys so a language switch re-words them
    this.extraNotices = [];
    this.playback = new Playback((t) => this.renderPlayhead(t));
    this.shownRow = -2; // the last events-table row shown as past
    this.width = 0; // the diagram's width, from the ResizeObserver
    this.sim = null;
    this.run = null;
    this.other = null; // the run under the comparison policy, while the side-by-side view is open
    this.lastSaid = null;
  }

  /** The reader's reduced-motion preference (a MediaQueryList): then nothing plays by itself. */
  get reduceMotion() {
    return this.playback.reduceMotion;
  }

  /** Loads the wasm (shared) and the language, then draws the lab. Rejects if the wasm cannot load. */
  async start() {
    const [c] = await Promise.all([loadCore(), loadLang(this.o.get('lang') || 'en')]);
    this.core = c;
    this.cat = c.byId;
    this.names = settingNames(c);
    this.readAll();
    await this.setLang(this.state.lang);
    this.o.mount.innerHTML = labMarkup({ langPicker: !this.o.page });
    this.renderStatic();
    this.applyFeatures();
    this.renderNotices();
    this.simulate();
    // Reduced motion: no animated playback on load; the whole run is shown (stepping still works).
    const animate = this.o.autoplay && !this.reduceMotion.matches;
    this.playback.t = animate ? BEFORE : this.run.end_ms;
    this.renderAll();
    this.wire();
    if (animate) this.startPlay();
  }

  // ---------- Settings

  readAll() {
    const { st, notices } = readSettings(this.o.get, this.core);
    Object.assign(this.state, st);
    this.notices = notices;
  }

  /** Some settings changed at the source (attributes): take those, keep what the reader set. */
  async update(names) {
    const { st, notices } = readSettings(this.o.get, this.core);
    this.notices = notices;
    const lang = this.state.lang;
    takeSettings(this.state, st, names);
    if (names.has('lang') && st.lang !== lang) {
      await this.setLang(st.lang);
      this.renderStatic();
    }
    this.renderNotices();
    this.fillSelects();
    this.changed();
  }

  /** Presentation notices (controls, theme, height) from the element, shown with the others. */
  setExtraNotices(list) {
    this.extraNotices = list;
    if (this.run) this.renderNotices();
  }

  setFeatures(set) {
    this.features = set;
    if (this.run) {
      this.applyFeatures();
      this.renderExtra();
    }
  }

  /**
   * The settings as [name, value] pairs: those that differ from the defaults (for the URL), or with
   * `explicit` the scenario, TTL, pause and fencing always (for a snippet that must not drift).
   */
  params(opts) {
    return paramsOf(this.state, this.core, opts);
  }

  /** An embed of this exact state: the <lease-lab> element with its script, or an iframe. */
  snippet(kind) {
    const pairs = [...this.params({ explicit: true }), ...(this.o.attrs ? this.o.attrs() : [])];
    return snippet(kind, pairs, this.scText(this.cat[this.state.scenario], 'title'));
  }

  // ---------- Simulation

  simulate() {
    const st = this.state;
    const s = this.cat[st.scenario];
    if (!this.sim || this.sim.scenario !== st.scenario) {
      if (this.sim) this.sim.free();
      this.sim = new Simulation(st.scenario);
    }
    const sim = this.sim;
    sim.setPolicy(st.fencing);
    sim.setRetries(st.retries);
    sim.setNaive(Boolean(st.naive));
    if (ttlParam(s)) sim.setParam('ttl', st.ttl);
    const p = pauseParam(s);
    if (p) sim.setParam(p.name, st.pause);
    for (const [k, v] of Object.entries(st.extra)) sim.setParam(k, v);
    this.run = JSON.parse(sim.runJson());
    // The comparison: same scenario and parameters, another storage policy.
    this.other = null;
    if (st.compare === st.fencing) {
      st.compare = st.fencing === 'none' ? 'token' : 'none';
      this.$('compare-policy').value = st.compare;
    }
    if (this.$('compare').open) {
      sim.setPolicy(st.compare);
      this.other = JSON.parse(sim.runJson());
      sim.setPolicy(st.fencing);
    }
    this.playback.load(eventTimes(this.run), this.run.end_ms);
  }

  // ---------- Words

  async setLang(lang) {
    const d = await loadLang(lang);
    this.state.lang = lang;
    this.d = d;
    // Plain digits need no Intl (its first use costs ~30 ms of start-up); other scripts get theirs.
    const nf = lang === 'en' ? null : new Intl.NumberFormat(lang, { maximumFractionDigits: 3, useGrouping: false });
    this.num = (v) => (v == null || Number.isNaN(v) ? '' : nf ? nf.format(v) : String(Math.round(v * 1000) / 1000));
  }

  /** A scenario's title or summary in the lab's language: the language file's, the catalogue's, or English. */
  scText(s, field) {
    const t = this.d.scenarios && this.d.scenarios[s.id];
    return (t && t[field]) || s[field][this.state.lang] || s[field].en;
  }

  paramLabel(s, p) {
    const t = this.d.scenarios && this.d.scenarios[s.id];
    return (t && t.params && t.params[p.name]) || p.label[this.state.lang] || p.label.en;
  }

  async switchLang(lang) {
    await this.setLang(lang);
    this.renderStatic();
    this.renderNotices();
    this.renderAll();
    if (this.o.onChange) this.o.onChange(true);
  }

  // ---------- Rendering (all of it reads the run, the playhead and the dictionary)

  applyFeatures() {
    for (const e of this.root.querySelectorAll('[data-feature]')) {
      e.hidden = !e.dataset.feature.split(' ').some((f) => this.features.has(f));
    }
    this.$('grid').classList.toggle('solo', this.$('h-settings').parentElement.hidden);
  }

  fillSelects() {
    const { $, d, state } = this;
    const langSel = $('lang');
    if (langSel) {
      langSel.replaceChildren();
      for (const [k, name] of Object.entries(languages)) option(langSel, k, name).lang = k;
      langSel.value = state.lang;
    }
    const sc = $('scenario');
    sc.replaceChildren();
    const groups = new Map();
    for (const s of this.core.list) {
      if (!groups.has(s.group)) {
        const g = document.createElement('optgroup');
        g.label = (d.groups && d.groups[s.group]) || s.group;
        sc.appendChild(g);
        groups.set(s.group, g);
      }
      option(groups.get(s.group), s.id, this.scText(s, 'title'));
    }
    sc.value = state.scenario;
    for (const [id, v] of [['fencing', state.fencing], ['compare-policy', state.compare]]) {
      const f = $(id);
      f.replaceChildren();
      for (const p of this.core.policies) option(f, p, d.policies[p] || p);
      f.value = v;
    }
    const sp = $('speed');
    const keep = sp.value || DEFAULT_SPEED;
    sp.replaceChildren();
    for (const s of SPEEDS) option(sp, s, d.speeds[s]);
    sp.value = keep;
  }

  /** Builds the scenario's extra sliders (only when the scenario or the language changes). */
  renderExtra() {
    const { $, state, d, num } = this;
    const s = this.cat[state.scenario];
    const list = $('extra-list');
    const params = extraParams(s);
    const key = `${s.id}/${state.lang}`;
    if (list.dataset.key !== key) {
      list.dataset.key = key;
      list.replaceChildren();
      for (const p of params) {
        const field = document.createElement('div');
        field.className = 'field';
        const label = document.createElement('label');
        label.htmlFor = `x-${p.name}`;
        label.textContent = this.paramLabel(s, p);
        const row = document.createElement('div');
        row.className = 'slider';
        const input = document.createElement('input');
        Object.assign(input, { type: 'range', id: `x-${p.name}`, step: 1 });
        [input.min, input.max] = rangeOf(s, p);
        input.dataset.param = p.name;
        const out = document.createElement('output');
        out.htmlFor = input.id;
        out.id = `x-${p.name}-out`;
        row.append(input, out);
        field.append(label, row);
        list.append(field);
      }
    }
    for (const p of params) {
      $(`x-${p.name}`).value = state.extra[p.name];
      $(`x-${p.name}-out`).value = `${num(state.extra[p.name])} ${d.ms}`;
    }
    $('extra').hidden = !params.length || !this.features.has('params');
  }

  /** Sets one of the two contract sliders from its scenario parameter, or switches it off (`p` null). */
  syncSlider(id, s, p, value, label, note) {
    const { $, d, num } = this;
    const input = $(id);
    if (p) {
      [input.min, input.max] = rangeOf(s, p);
      input.value = value;
      $(`${id}-out`).value = `${num(value)} ${d.ms}`;
    } else {
      $(`${id}-out`).value = '—';
    }
    input.disabled = !p;
    $(`${id}-label`).textContent = label;
    $(`${id}-note`).textContent = note;
    $(`${id}-note`).hidden = !note;
  }

  syncSliders() {
    const { d, state } = this;
    this.renderExtra();
    this.$('retries').checked = state.retries > 0;
    // Redlock's client: compliant (checks the validity) unless the reader makes it naive.
    this.$('naive-box').hidden = this.cat[state.scenario].service !== 'redlock';
    this.$('naive').checked = Boolean(state.naive);
    const s = this.cat[state.scenario];
    // A session lock (PostgreSQL) has no TTL at all: that is the point of those scenarios.
    const tp = ttlParam(s);
    this.syncSlider('ttl', s, tp, state.ttl, tp ? d.ttl : d.ttlOff, tp ? '' : d.noteNoTtl);
    const p = pauseParam(s);
    const label = !p ? d.pauseOff : p.name === 'delay' ? d.pauseAsDelay : this.paramLabel(s, p) || d.pause;
    this.syncSlider('pause', s, p, state.pause, label, !p ? d.noteNoPause : p.name === 'delay' ? d.noteDelay : '');
  }

  renderNotices() {
    const list = this.$('notice-list');
    list.replaceChildren();
    const all = [...this.notices, ...this.extraNotices];
    for (const n of all) {
      const li = document.createElement('li');
      li.textContent = fmt(this.d.notices[n.key], n.vars);
      list.appendChild(li);
    }
    this.$('notice').hidden = !all.length;
  }

  renderStatic() {
    const { d, root } = this;
    if (this.o.page) {
      document.documentElement.lang = this.state.lang;
      document.title = d.docTitle;
    } else this.$('lab').lang = this.state.lang;
    for (const e of root.querySelectorAll('[data-i18n]')) {
      const v = d[e.dataset.i18n];
      if (typeof v === 'string') e.textContent = v;
    }
    for (const e of root.querySelectorAll('[data-i18n-label]')) e.setAttribute('aria-label', d[e.dataset.i18nLabel]);
    this.$('notice-title').textContent = this.o.page ? d.noticeTitle : d.noticeTitleEmbed;
    const legend = this.$('legend');
    legend.replaceChildren();
    for (const [kind, text] of d.legend) {
      const li = document.createElement('li');
      li.appendChild(legendIcon(kind));
      li.append(text);
      legend.appendChild(li);
    }
    this.fillSelects();
  }

  renderVerdict() {
    const { $, d, num, run } = this;
    const v = explainVerdict(run, d, num);
    const box = $('outcome');
    box.dataset.outcome = run.verdict;
    box.dataset.final = String(run.final);
    box.dataset.expected = String(run.expected);
    box.classList.toggle('lost', v.lost);
    box.classList.toggle('safe', !v.lost);
    $('verdict-mark').textContent = v.lost ? '✗' : '✓';
    $('verdict-word').textContent = v.word;
    $('verdict-numbers').textContent = v.numbers;
    const lines = $('verdict-lines');
    lines.replaceChildren();
    for (const l of v.lines) {
      const p = document.createElement('p');
      p.textContent = l;
      lines.appendChild(p);
    }
    $('verdict-expected').textContent = d.expectedIs;
    const margin = $('margin');
    margin.replaceChildren();
    for (const line of safetyMargin(run, d, num)) {
      const li = document.createElement('li');
      li.textContent = line;
      margin.appendChild(li);
    }
    $('transcript').textContent = run.transcript.join('\n');
    if (!performance.getEntriesByName('leaselab:verdict').length) performance.mark('leaselab:verdict');
    this.announce(fmt(d.live, { verdict: v.word, final: num(run.final), expected: num(run.expected) }));
    if (this.o.onVerdict) this.o.onVerdict(run);
  }

  /** Tells screen readers about a changed verdict, once the slider has settled. */
  announce(text) {
    clearTimeout(this.liveTimer);
    if (this.lastSaid === null) {
      this.lastSaid = text; // the first verdict is on the page already; do not read it out
      return;
    }
    this.liveTimer = setTimeout(() => {
      if (text !== this.lastSaid) this.$('live').textContent = this.lastSaid = text;
    }, 600);
  }

  renderAbout() {
    const { $ } = this;
    const s = this.cat[this.state.scenario];
    $('scn-title').textContent = this.scText(s, 'title');
    $('about-summary').textContent = this.scText(s, 'summary');
    $('about-source').textContent = s.source;
    $('about-derived-text').textContent = s.derived;
    $('about-derived').hidden = !s.derived;
  }

  renderEvents() {
    const { d, num, run } = this;
    const body = this.$('events');
    body.replaceChildren();
    let prev = null;
    for (const e of run.events) {
      const tr = document.createElement('tr');
      if (e.t_ms === prev) tr.className = 'tie';
      prev = e.t_ms;
      for (const text of [num(e.t_ms), whoOf(e, d), describeEvent(e, run, d, num)]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    this.shownRow = -2;
  }

  renderDiagram() {
    const { $, d, num, run, other } = this;
    // The width comes from the ResizeObserver: reading clientWidth here, after the other renderers have
    // written to the DOM, would force a synchronous layout on every slider input.
    if (!this.width) this.width = $('chart').clientWidth || 800;
    const t = other ? divergence(run, other) : null;
    const mark = t === null ? null : { t, label: fmt(d.diverge, { t: num(t) }) };
    const opts = { width: this.width, d, num, lang: this.state.lang, mark };
    this.diagram = drawDiagram($('svg'), run, opts);
    if (other) {
      // Both on one time scale: whichever needs the longer axis sets it for both.
      const second = drawDiagram($('svg2'), other, { ...opts, id: 'svg2', tFix: this.diagram.tMax });
      if (second.tMax > this.diagram.tMax) this.diagram = drawDiagram($('svg'), run, { ...opts, tFix: second.tMax });
      second.setTime(Infinity); // the whole comparison run, no playhead
      const word = other.verdict === 'lost-update' ? d.lost : d.safe;
      $('compare-verdict').textContent = fmt(d.compareVerdict, {
        policy: d.policies[other.fencing] || other.fencing,
        word,
        final: num(other.final),
        expected: num(other.expected),
        same: t === null ? d.compareSame : fmt(d.diverge, { t: num(t) }),
      });
      $('compare-verdict').className = `compare-verdict ${other.verdict}`;
    }
  }

  renderAll() {
    this.syncSliders();
    this.renderVerdict();
    this.renderAbout();
    this.renderDiagram();
    this.renderEvents();
    this.$('scrub').max = this.run.end_ms;
    this.playback.seek(this.playback.t);
  }

  /** Moves the playhead to sim time t (BEFORE: before the run), and shows it. */
  setPlayhead(t) {
    this.playback.seek(t);
  }

  /**
   * Shows the playhead at t: the veil, the scrubber, the "now" line and the events table's past/future.
   * t = BEFORE means "before the run": nothing has happened yet, not even the events at 0 ms.
   */
  renderPlayhead(t) {
    const { $, d, num, run, playback } = this;
    this.diagram.setTime(t);
    const scrub = $('scrub');
    scrub.value = Math.max(0, t);
    scrub.setAttribute('aria-valuetext', `${num(Math.max(0, t))} ${d.ms}`);
    // The latest event time at or before the playhead; its events make up the "now" line.
    let at = -1;
    for (const x of playback.times) if (x <= t + EPS) at = x;
    const boring = new Set(['start', 'acquire-sent', 'done']);
    const now = $('now');
    if (at < 0) now.textContent = d.nothingYet;
    else {
      const said = run.events.filter((e) => e.t_ms === at && !boring.has(e.kind)).map((e) => describeEvent(e, run, d, num));
      now.textContent = `${fmt(d.atTime, { t: `${num(at)} ${d.ms}` })} ${said.join(' ') || '…'}`;
    }
    const rows = $('events').children;
    let last = -1;
    run.events.forEach((e, i) => {
      if (e.t_ms <= t + EPS) last = i;
    });
    if (last !== this.shownRow) {
      this.shownRow = last;
      for (let i = 0; i < rows.length; i++) rows[i].classList.toggle('future', i > last);
    }
    $('play').textContent = playback.on ? d.stop : d.play;
  }

  // ---------- Playback (playback.js)

  startPlay() {
    this.playback.start();
  }

  stop() {
    this.playback.stop();
  }

  // ---------- Wiring

  /** A setting changed: re-simulate, re-render, show the whole run, tell the owner (the URL). */
  changed({ now = false } = {}) {
    this.stop();
    try {
      this.simulate();
    } catch (e) {
      this.showError(e);
      return;
    }
    this.playback.t = this.run.end_ms;
    this.renderAll();
    if (this.o.onChange) this.o.onChange(now);
  }

  showError(e) {
    const st = this.$('status');
    st.hidden = false;
    st.classList.add('error');
    const said = (this.d && this.d.loadError) || 'The simulation could not load: {msg}';
    st.textContent = fmt(said, { msg: e && e.message ? e.message : String(e) });
  }

  /** Puts `text` on the clipboard (else selects it in the field, to copy by hand) and shows it; says which. */
  async share(text, said, byHand) {
    const { copyText } = await import('./share.js');
    const field = this.$('share-text');
    const ok = text && (await copyText(text, field));
    field.value = text;
    field.hidden = !text;
    this.$('share-status').textContent = ok ? said : byHand;
  }

  wire() {
    const { $, state, playback } = this;
    const on = (id, type, fn) => $(id).addEventListener(type, fn);
    on('ttl', 'input', (e) => {
      state.ttl = Number(e.target.value);
      this.changed();
    });
    on('pause', 'input', (e) => {
      state.pause = Number(e.target.value);
      this.changed();
    });
    const settled = () => this.o.onChange && this.o.onChange(true);
    for (const id of ['ttl', 'pause', 'extra-list']) on(id, 'change', settled);
    // The scenario's own extra sliders (rebuilt per scenario): one listener on their container.
    on('extra-list', 'input', (e) => {
      if (!e.target.dataset.param) return;
      state.extra[e.target.dataset.param] = Number(e.target.value);
      this.changed();
    });
    on('compare', 'toggle', () => this.changed());
    on('copy-link', 'click', () => {
      if (this.o.onChange) this.o.onChange(true);
      let href = '';
      try {
        href = this.o.link();
      } catch {
        // a sandboxed iframe may refuse access to location
      }
      return this.share(href, this.d.copied, this.d.copyByHand);
    });
    on('copy-embed', 'click', () => this.share(this.snippet('element'), this.d.snippetCopied, this.d.copySnippetByHand));
    on('copy-iframe', 'click', () => this.share(this.snippet('iframe'), this.d.snippetCopied, this.d.copySnippetByHand));
    for (const b of this.root.querySelectorAll('button.export')) {
      b.addEventListener('click', async () => {
        const base = `leaselab-${state.scenario}-${state.fencing}`;
        try {
          const { exportRun } = await import('./share.js');
          await exportRun(b.dataset.kind, this.run, $('svg'), base);
          $('share-status').textContent = fmt(this.d.exported, { kind: b.textContent });
        } catch (e) {
          $('share-status').textContent = e.message;
        }
      });
    }
    on('retries', 'change', (e) => {
      state.retries = e.target.checked ? RETRIES_ON : 0;
      this.changed({ now: true });
    });
    on('naive', 'change', (e) => {
      state.naive = e.target.checked;
      this.changed({ now: true });
    });
    on('compare-policy', 'change', (e) => {
      state.compare = e.target.value;
      this.changed();
    });
    on('fencing', 'change', (e) => {
      state.fencing = e.target.value;
      this.changed({ now: true });
    });
    on('scenario', 'change', (e) => {
      state.scenario = e.target.value;
      Object.assign(state, defaultsOf(this.cat[state.scenario]), { naive: false });
      this.changed({ now: true });
    });
    on('reset', 'click', () => {
      Object.assign(state, resetOf(this.cat[state.scenario]));
      this.fillSelects();
      this.changed({ now: true });
    });
    on('lang', 'change', (e) => this.switchLang(e.target.value).catch((err) => this.showError(err)));
    on('notice-close', 'click', () => {
      $('notice').hidden = true;
      // The button vanishes; keep focus in the lab, at its first control that is shown.
      const first = [...this.root.querySelectorAll('#lab select, #lab input, #lab button, #lab summary')].find((x) => x.offsetParent);
      if (first) first.focus();
    });
    on('play', 'click', () => {
      if (playback.on) playback.stop();
      else playback.start();
      playback.seek(playback.t);
    });
    on('next', 'click', () => playback.step(1));
    on('back', 'click', () => playback.step(-1));
    on('scrub', 'input', (e) => {
      this.stop();
      this.setPlayhead(Number(e.target.value));
    });
    on('speed', 'change', (e) => {
      playback.speed = Number(e.target.value);
    });
    // Keyboard shortcuts, scoped to this lab (never window): "." next event, "," previous event.
    on('lab', 'keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      if (e.key === '.') playback.step(1);
      else if (e.key === ',') playback.step(-1);
      else return;
      e.preventDefault();
    });
    // Re-lay the diagram out when its container changes width (it draws at 1 unit = 1 CSS pixel).
    this.resize = new ResizeObserver(([entry]) => {
      const w = Math.round(entry.contentRect.width);
      if (this.run && w > 0 && Math.abs(w - this.width) >= 1) {
        this.width = w;
        this.renderDiagram();
        playback.seek(playback.t);
      }
    });
    this.resize.observe($('chart'));
  }
}
