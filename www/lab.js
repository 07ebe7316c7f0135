// The lab's controller: one instance per lab on a page (the page itself, or each <lease-lab>). It binds
// to a root (the document or a shadow root: ids are looked up there), reads its settings through
// settings.js from a getter (the URL's query or the element's attributes), owns the state, gets its
// runs from engine.js (the build's written runs, or the wasm), and after every change hands a
// snapshot of itself to the view (view.js); the playback clock is playback.js's; its controls are wired to the state by lab-wiring.js. No simulation logic lives here.
import { defaultRuns, loadEngine, loadStart, simulationFor } from './engine.js';
import { loadLang, loadWordsFor, orKeys, wordsSettledFor, fmt, numberFormat } from './i18n.js';
import { eventTimes } from './explain.js';
import { BEFORE, Playback } from './playback.js';
import { atDefaults, compareOf, paramsOf, pauseParam, readSettings, settingNames, takeSettings, ttlParam } from './settings.js';
import * as view from './view.js';
import { labMarkup } from './lab-markup.js';
import { wirePlayer, wirePrint, wireSettings, wireShare } from './lab-wiring.js';

/** The parts a lab can show, by their `controls` token (the verdict, diagram and events always show). */
export const FEATURES = ['scenario', 'sliders', 'params', 'fencing', 'retries', 'reset', 'lang', 'play', 'share', 'compare', 'info', 'search'];

/** The catalogue (and the default scenario's first runs), once per page however many labs it has. */
export { loadStart };

export class Lab {
  /**
   * root: where the ids live (document or a shadow root). opts:
   *  mount — the element the lab's markup goes into;
   *  get(name) — a setting's raw value or null;
   *  page — true for the page itself: it owns <html lang>, the title and the address bar (onChange);
   *  compact — the docs layout (a <lease-lab>): verdict and diagram first, the rest behind disclosures;
   *  features — a Set of FEATURES to show; autoplay — play the run once loaded (unless reduced motion);
   *  onChange(now) — a setting changed (the page writes the URL; `now` false while a slider moves);
   *  onVerdict(run) — a new run was shown; link() — the link to this state;
   *  attrs() — extra [name, value] pairs for the embed snippet (the element's presentation);
   *  catalogue(c) — the catalogue this lab offers, from the page's (a scenario of its own: user-scenario.js).
   */
  constructor(root, opts) {
    this.root = root;
    this.o = opts;
    this.$ = (id) => root.getElementById(id);
    this.v = { $: this.$, root };
    this.features = opts.features || new Set(FEATURES);
    this.state = { compare: 'token' };
    this.notices = []; // [{key, vars}] — kept as keys so a language switch re-words them
    this.extraNotices = [];
    this.playback = new Playback(() => this.renderPlayhead());
    this.shownRow = -2; // the last events-table row shown as past (-2: the rows are new)
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

  /** What the view draws: everything it needs, nothing it could read elsewhere. */
  snapshot() {
    const st = this.state;
    return {
      st,
      s: this.cat[st.scenario],
      core: this.core,
      d: this.d,
      num: this.num,
      run: this.run,
      other: this.other,
      features: this.features,
      notices: [...this.notices, ...this.extraNotices],
      page: Boolean(this.o.page),
      width: this.width,
    };
  }

  /**
   * Loads the catalogue and the language (and the engine, unless the build wrote the first view's
   * runs: engine.js), then draws the lab. Rejects if they cannot load.
   */
  async start() {
    const [start] = await Promise.all([loadStart(), loadLang(this.o.get('lang') || 'en')]);
    // A page's own scenario narrows the catalogue to itself (opts.catalogue: user-scenario.js, or a
    // table cell's link: injected.js, which loads its engine first).
    const c = this.o.catalogue ? await this.o.catalogue(start) : start;
    this.core = c;
    this.cat = c.byId;
    this.names = settingNames(c);
    const { st, notices } = readSettings(this.o.get, c);
    Object.assign(this.state, st);
    this.notices = notices;
    // The scenario's service's words (beyond the core's: i18n.js), and its libraries', arrive with the runs, not after them.
    const s = this.cat[this.state.scenario];
    await Promise.all([this.setLang(this.state.lang), this.firstRuns(), loadWordsFor(s)]);
    this.o.mount.innerHTML = labMarkup({ langPicker: !this.o.page, compact: Boolean(this.o.compact) });
    view.renderStatic(this.v, this.snapshot());
    view.applyFeatures(this.v, this.features);
    this.$('compare').open = Boolean(this.state.sideBySide);
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

  /** Some settings changed at the source (attributes): take those, keep what the reader set. */
  async update(names) {
    const { st, notices } = readSettings(this.o.get, this.core);
    this.notices = notices;
    const lang = this.state.lang;
    takeSettings(this.state, st, names);
    if (names.has('lang') && st.lang !== lang) {
      await this.setLang(st.lang);
      view.renderStatic(this.v, this.snapshot());
    }
    this.renderNotices();
    view.fillSelects(this.v, this.snapshot());
    this.$('compare').open = Boolean(this.state.sideBySide);
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
      view.applyFeatures(this.v, set);
      view.renderExtra(this.v, this.snapshot());
    }
  }

  /**
   * The settings as [name, value] pairs: those that differ from the defaults (for the URL), or with
   * `explicit` the scenario, TTL, pause and fencing always (for a snippet that must not drift).
   */
  params(opts) {
    return paramsOf(this.state, this.core, opts);
  }

  /** An embed of this exact state, by share.js (`m`): the <lease-lab> element with its script, or an iframe. */
  embed(m, kind) {
    const pairs = [...this.params({ explicit: true }), ...(this.o.attrs ? this.o.attrs() : [])];
    return m.snippet(kind, pairs, this.scText(this.cat[this.state.scenario], 'title'));
  }

  // ---------- Simulation

  /**
   * The first view's runs: as the build wrote them where the settings are the scenario's defaults
   * (engine.js; no wasm yet), else from the engine, fetched now.
   */
  async firstRuns() {
    const st = this.state;
    const s = this.cat[st.scenario];
    // An engine already loaded (the lessons run one first) computes them; else the build's runs do.
    if (!simulationFor(s) && atDefaults(st, s)) {
      try {
        this.pre = { scenario: s.id, runs: await defaultRuns(s, [st.fencing, compareOf(st)]) };
        return;
      } catch {
        // Not there (an old copy of the site, a blocked request): the engine computes them instead.
      }
    }
    await loadEngine(s);
  }

  /** The runs the build wrote for these settings — `{ run, other }` — or null where it wrote none. */
  prerendered(st, s) {
    const runs = this.pre && this.pre.scenario === st.scenario && atDefaults(st, s) ? this.pre.runs : null;
    if (!runs || !runs[st.fencing] || (this.$('compare').open && !runs[compareOf(st)])) return null;
    return { run: runs[st.fencing], other: this.$('compare').open ? runs[compareOf(st)] : null };
  }

  simulate() {
    const st = this.state;
    const s = this.cat[st.scenario];
    if (st.compare === st.fencing) {
      st.compare = compareOf(st);
      this.$('compare-policy').value = st.compare;
    }
    const pre = this.prerendered(st, s);
    if (pre) {
      this.run = pre.run;
      this.other = pre.other;
    } else {
      this.simulateWith(s);
    }
    this.playback.load(eventTimes(this.run), this.run.end_ms);
  }

  /** Runs the settings on the engine (its build loaded: see `changed`). */
  simulateWith(s) {
    const st = this.state;
    if (!this.sim || this.sim.scenario !== st.scenario) {
      if (this.sim) this.sim.free();
      const Simulation = simulationFor(s);
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
    if (this.$('compare').open) {
      sim.setPolicy(st.compare);
      this.other = JSON.parse(sim.runJson());
      sim.setPolicy(st.fencing);
    }
  }

  // ---------- Words

  async setLang(lang) {
    const d = await loadLang(lang);
    this.state.lang = lang;
    // The dictionary itself (a service's words, arriving later, go into it), missing words as keys.
    this.d = orKeys(d);
    this.num = numberFormat(lang);
  }

  /** A scenario's title or summary in the lab's language: the language file's, the catalogue's, or English. */
  scText(s, field) {
    return view.scText(this.d, this.state.lang, s, field);
  }

  paramLabel(s, p) {
    return view.paramLabel(this.d, this.state.lang, s, p);
  }

  async switchLang(lang) {
    await this.setLang(lang);
    view.renderStatic(this.v, this.snapshot());
    this.renderNotices();
    this.renderAll();
    if (this.o.onChange) this.o.onChange(true);
  }

  // ---------- Drawing (view.js, from a snapshot)

  renderNotices() {
    view.renderNotices(this.v, this.snapshot());
  }

  renderAll() {
    const { v } = this;
    const snap = this.snapshot();
    view.syncSliders(v, snap);
    this.announce(view.renderVerdict(v, snap));
    if (this.o.onVerdict) this.o.onVerdict(this.run);
    view.renderAbout(v, snap);
    this.renderDiagram();
    view.renderEvents(v, snap);
    this.shownRow = -2;
    this.playback.seek(this.playback.t);
    if (this.searchPanel) this.searchPanel.sync();
  }

  renderDiagram() {
    // The width comes from the ResizeObserver: reading clientWidth here, after the other renderers have
    // written to the DOM, would force a synchronous layout on every slider input.
    if (!this.width) this.width = this.$('chart').clientWidth || 800;
    this.diagram = view.renderDiagram(this.v, this.snapshot());
  }

  /** Shows the playhead where the playback clock has it. */
  renderPlayhead() {
    this.shownRow = view.renderPlayhead(this.v, this.snapshot(), this.diagram, this.playback, this.shownRow);
    // The compact layout shows the "now" line from the reader's first play, step or scrub on: over the
    // whole run it would only repeat the verdict above it (style.css).
    if (this.playback.t !== this.run.end_ms) this.$('now').classList.add('moved');
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

  // ---------- Playback (playback.js)

  /** Moves the playhead to sim time t (BEFORE: before the run), and shows it. */
  setPlayhead(t) {
    this.playback.seek(t);
  }

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
    if (this.searchPanel) this.searchPanel.changed();
    const s = this.cat[this.state.scenario];
    const needsEngine = !this.prerendered(this.state, s) && !simulationFor(s);
    if (needsEngine || !wordsSettledFor(s)) {
      // The first change the build wrote no run for: fetch the engine it needs (once), and the words of
      // its service alongside (i18n.js), then go on. Meanwhile the verdict says it is out of date
      // (dimmed, aria-busy; no outcome for scripts to read).
      const box = this.$('outcome');
      delete box.dataset.outcome;
      box.setAttribute('aria-busy', 'true');
      Promise.all([needsEngine && loadEngine(s), loadWordsFor(s)]).then(() => this.changed({ now }), (e) => this.showError(e));
      return;
    }
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

  /**
   * Puts the text `make(share.js)` gives on the clipboard (else selects it in the field, to copy by
   * hand) and shows it; says which.
   */
  async share(make, said, byHand) {
    const m = await import('./share.js');
    const text = make(m);
    const field = this.$('share-text');
    const ok = text && (await m.copyText(text, field));
    field.value = text;
    field.hidden = !text;
    this.$('share-status').textContent = ok ? said : byHand;
  }

  wire() {
    // A reader reaching for a control will change something: fetch the engine now, not after.
    const warm = () =>
      loadEngine(this.cat[this.state.scenario]).then(
        () => (this.o.mount.dataset.engine = 'ready'), // (a hook for tests: the next input is synchronous)
        () => {}, // a change will try again and say so if it fails
      );
    for (const type of ['pointerdown', 'focusin', 'keydown']) this.o.mount.addEventListener(type, warm, { once: true, passive: true });
    wireSettings(this);
    wireShare(this);
    wirePlayer(this);
    this.wireSearch();
    wirePrint(this);
  }

  /** The "Find a failure" panel (search.js, with its workers), loaded when the reader first opens it. */
  wireSearch() {
    const box = this.$('search-box');
    box.addEventListener('toggle', () => {
      if (!box.open || this.searching) return;
      this.searching = import('./search.js').then(
        (m) => (this.searchPanel = new m.SearchPanel(this)),
        (e) => {
          this.searching = null;
          this.showError(e);
        },
      );
    });
  }
}
