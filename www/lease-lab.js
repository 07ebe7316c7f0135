// <lease-lab>: the lab as a custom element for docs pages and static sites. One script tag, any number
// of elements, each with its own state, shadow DOM, keyboard handling, live region and verdict:
//
//   <script type="module" src="https://example.org/leaselab/lease-lab.js"></script>
//   <lease-lab scenario="seed-gc-pause" ttl="300" pause="600" fencing="token"></lease-lab>
//
// Attributes (docs/embedding.md): the settings the page takes in its URL (scenario, ttl, pause,
// fencing, retries, lang and the scenario's own parameters by name), and controls, theme, autoplay,
// height; a scenario of its own as src="URL" or a child <script type="text/x-leaselab"> (user-scenario.js).
// Its layout is the compact one for docs columns: verdict and diagram first, the margin,
// transcript, share and events behind disclosures (lab-markup.js). theme="auto" (the default) follows the host page's own light/dark switch (host-theme.js). The wasm, the stylesheet and the dictionaries are found next to this file, so the folder can
// live under any path; the wasm is initialised once per page. Children of the element are its
// fallback: shown while it loads, and instead of it where scripts do not run. A ```leaselab fenced
// block in the page's Markdown becomes an element too (fence.js, loaded only where the page has one).
import { Lab, FEATURES } from './lab.js';
import { HERE } from './settings.js';
import { languages } from './i18n.js';
import { autoScheme, watchScheme } from './host-theme.js';

const STYLE = new URL('style.css', import.meta.url).href;
/** A scenario of the element's own: a fence's text, src="URL", or inline text in a child (user-scenario.js reads it). */
const hasOwnScenario = (el) => el.fence?.scenario != null || el.hasAttribute('src') || Boolean(el.querySelector(':scope > script[type="text/x-leaselab"]'));

/**
 * The Bengali face of style.css, on the host document: a shadow root ignores @font-face. As there, it
 * downloads only if Bengali letters show and no local font has them (local() first, unicode-range).
 */
function declareBengaliFace() {
  if (typeof FontFace !== 'function' || !document.fonts) return;
  const url = new URL('fonts/noto-sans-bengali-400.woff2', import.meta.url).href;
  const local = ['Noto Sans Bengali', 'Noto Sans Bengali Regular', 'NotoSansBengali-Regular', 'Noto Sans Bengali UI', 'Lohit Bengali'];
  const src = `${local.map((n) => `local("${n}")`).join(', ')}, url("${url}") format("woff2")`;
  const face = new FontFace('leaselab Bengali', src, { unicodeRange: 'U+0964-0965, U+0980-09FE, U+200C-200D, U+25CC', display: 'swap' });
  document.fonts.add(face);
}
declareBengaliFace();

/**
 * --lease-lab-rem, style.css's unit, registered as a length: the element's 1em is then computed once,
 * at the element, and inherited as pixels, so the lab keeps its proportions whatever the host's root
 * font size. Unregistered, each use would take its own element's em (the look drifts, nothing breaks).
 */
function registerLabUnit() {
  try {
    CSS.registerProperty({ name: '--lease-lab-rem', syntax: '<length>', inherits: true, initialValue: '16px' });
  } catch {
    // Registered already (a second copy of this script), or a browser without the Properties API.
  }
}
registerLabUnit();
/**
 * The markup each docs tool gives a ```leaselab fenced block (docs/embedding.md lists the tools):
 * markdown-it, marked, Python-Markdown, mdBook and Hugo without highlighting write
 * `pre > code.language-leaselab`; Hugo's Chroma adds `data-lang`; Sphinx's Pygments a
 * `div.highlight-leaselab`; Docusaurus's Prism and VitePress's Shiki a `.language-leaselab` wrapper;
 * Starlight's Expressive Code `pre[data-language]`; MkDocs Material's superfences drops the language,
 * so it needs a custom fence: `pre.leaselab` (or `div.leaselab`, superfences' div format).
 */
export const FENCE_MARKERS =
  'code.language-leaselab, pre.language-leaselab, div.language-leaselab, div.highlight-leaselab, [data-lang="leaselab"], pre[data-language="leaselab"], pre.leaselab, div.leaselab';

/**
 * Upgrades the page's fences now and whenever nodes are added (a docs tool's client-side navigation);
 * fence.js loads only once a fence shows up. A removal lets fence.js drop the lab of a block that left.
 */
function watchFences() {
  let fence = null;
  const has = (n) => n.nodeType === 1 && (n.matches(FENCE_MARKERS) || n.querySelector(FENCE_MARKERS));
  const take = (roots) => {
    if (roots.some(has)) fence ??= import('./fence.js');
    fence?.then((m) => m.upgradeFences(roots, FENCE_MARKERS));
  };
  take([document.documentElement]);
  new MutationObserver((records) => {
    const added = records.flatMap((r) => [...r.addedNodes]).filter((n) => n.nodeType === 1);
    if (added.length || (fence && records.some((r) => r.removedNodes.length))) take(added);
  }).observe(document.documentElement, { childList: true, subtree: true });
}

/** What shows when `controls` is absent. */
export const DEFAULT_CONTROLS = 'sliders fencing play share';
const PRESENTATION = ['controls', 'theme', 'height', 'autoplay'];
/** Attributes the element reads besides the lab's settings (a fence that names another is told so). */
const OTHER_NAMES = new Set([...PRESENTATION, 'lesson', 'src']);

/**
 * `controls`: tokens separated by spaces or commas, each a part to show (FEATURES), or `all`, or
 * `none` (also the empty string). Unknown tokens are reported and skipped.
 */
export function parseControls(value) {
  const set = new Set();
  const bad = [];
  for (const t of (value ?? DEFAULT_CONTROLS).toLowerCase().split(/[\s,]+/).filter(Boolean)) {
    if (t === 'all') FEATURES.forEach((f) => set.add(f));
    else if (FEATURES.includes(t)) set.add(t);
    else if (t !== 'none') bad.push(t);
  }
  return { set, bad };
}

/** `height`: a CSS length (a bare number is pixels), or null when unusable. */
function parseHeight(v) {
  const m = /^\s*(\d+(?:\.\d+)?)(px|em|rem|vh|svh|dvh|%)?\s*$/.exec(v);
  return m ? `${m[1]}${m[2] || 'px'}` : null;
}

class LeaseLab extends HTMLElement {
  connectedCallback() {
    if (this.lab || this.lesson) {
      this.followScheme(); // moved in the page: listen again
      return;
    }
    const root = this.attachShadow({ mode: 'open' });
    if (this.hasAttribute('lesson')) {
      // <lease-lab lesson="N">: one chapter of the lessons (loaded only when asked for; see lesson.js).
      root.innerHTML = '<p class="status" role="status">Loading the lesson…</p>';
      this.lesson = import('./lesson.js').then((m) => {
        const shown = m.embedLesson(this, root, STYLE);
        this.applyScheme(); // its markup is in
        return shown;
      });
      this.followScheme();
      // The lab's attributes re-render it (flush); of a lesson's, only its theme changes live.
      new MutationObserver(() => this.applyScheme()).observe(this, { attributes: true, attributeFilter: ['theme'] });
      this.lesson.catch((e) => (root.textContent = String(e && e.message ? e.message : e)));
      return;
    }
    root.innerHTML =
      `<link rel="stylesheet" href="${STYLE}">` +
      '<div id="lab" class="lab embed compact"><p id="status" class="status" role="status">Loading the simulation…</p>' +
      '<div id="fallback"><slot></slot></div><div id="mount"></div></div>';
    this.pending = new Set();
    this.followScheme();
    // Its own scenario, read, parsed and test-run before the lab starts (only then is user-scenario.js
    // and the parser's wasm loaded); errors show inside the element, by line and column.
    this.ownScenario = hasOwnScenario(this);
    const own = this.ownScenario ? import('./user-scenario.js').then((m) => m.prepareOwnScenario(this, root, this.setting('lang'))) : null;
    this.lab = new Lab(root, {
      catalogue: (c) => (this.narrow ? this.narrow(c) : c),
      mount: root.getElementById('mount'),
      compact: true,
      get: (name) => this.setting(name),
      autoplay: this.hasAttribute('autoplay'),
      link: () => {
        const q = new URLSearchParams(this.lab.params()).toString();
        return new URL(q ? `?${q}` : '', HERE).href;
      },
      attrs: () => PRESENTATION.filter((a) => this.hasAttribute(a)).map((a) => [a, this.getAttribute(a)]),
      onVerdict: (run) =>
        this.dispatchEvent(new CustomEvent('verdict', { bubbles: true, detail: { outcome: run.verdict, final: run.final, expected: run.expected } })),
    });
    this.present();
    new MutationObserver((records) => {
      for (const r of records) this.pending.add(r.attributeName);
      if (this.lab.run) this.flush();
    }).observe(this, { attributes: true });
    const started = own
      ? own.then((narrow) => {
          this.narrow = narrow;
          return this.lab.start();
        })
      : this.lab.start();
    started.then(
      () => {
        root.getElementById('status').hidden = true;
        root.getElementById('fallback').remove();
        const source = root.getElementById('source-box');
        if (source) source.hidden = !this.querySelector(':scope > [slot="source"]');
        if (this.fence) this.present(); // a fence's names are checked once the lab knows its settings
        this.flush(); // attributes that changed while it loaded
      },
      (e) => (e && e.shown ? null : this.lab.showError(e)), // (shown: in the scenario-error box already)
    );
  }

  disconnectedCallback() {
    this.lab?.stop();
    this.unwatchScheme?.();
    this.unwatchScheme = null;
  }

  /** Keeps the lab's colours in step with its theme, and with theme="auto" with the host's switch. */
  followScheme() {
    this.applyScheme();
    this.unwatchScheme ??= watchScheme(() => this.applyScheme());
  }

  /** theme="light" or "dark" as given; otherwise (auto, absent, unusable) the host's or the system's. */
  applyScheme() {
    const box = this.shadowRoot?.querySelector('.embed');
    const theme = this.getAttribute('theme');
    if (box) box.dataset.scheme = theme === 'light' || theme === 'dark' ? theme : autoScheme();
  }

  /** A setting's value: the attribute; for `lang` without one, the page's language if the lab has it. */
  setting(name) {
    const v = this.getAttribute(name);
    if (name !== 'lang' || v !== null) return v;
    const code = (this.parentElement?.closest('[lang]')?.lang || '').split('-')[0].toLowerCase();
    return Object.hasOwn(languages, code) ? code : null;
  }

  /** The presentation attributes: which controls show, the height; bad values become notices. */
  present() {
    const notices = [];
    const { set, bad } = parseControls(this.getAttribute('controls'));
    // Links and snippets name catalogue scenarios: for one of the page's own they would show another.
    if (this.ownScenario) set.delete('share');
    for (const t of bad) notices.push({ key: 'badControls', vars: { value: t, list: ['all', 'none', ...FEATURES].join(', ') } });
    for (const name of this.fenceNamesUnknown()) notices.push({ key: 'badFenceName', vars: { name } });
    const theme = this.getAttribute('theme');
    if (theme !== null && !['light', 'dark', 'auto'].includes(theme)) notices.push({ key: 'badTheme', vars: { value: theme } });
    this.applyScheme();
    const raw = this.getAttribute('height');
    const height = raw === null ? null : parseHeight(raw);
    if (raw !== null && !height) notices.push({ key: 'badHeight', vars: { value: raw } });
    // CSSOM, not a style attribute: allowed under a CSP without 'unsafe-inline'.
    this.style.height = height || '';
    this.style.overflow = height ? 'auto' : '';
    this.lab.setFeatures(set);
    this.lab.setExtraNotices(notices);
  }

  /** A fence's names that are no setting of this lab: refused ones at once, unknown ones once it started. */
  fenceNamesUnknown() {
    if (!this.fence) return [];
    const known = this.lab.names ? this.fence.names.filter((n) => !OTHER_NAMES.has(n) && !this.lab.names.has(n)) : [];
    return [...this.fence.refused, ...known];
  }

  flush() {
    const names = this.pending;
    this.pending = new Set();
    if (PRESENTATION.some((a) => names.has(a))) this.present();
    if (names.has('autoplay') && this.hasAttribute('autoplay') && !this.lab.reduceMotion.matches) this.lab.startPlay();
    if ([...names].some((n) => this.lab.names.has(n))) this.lab.update(names).catch((e) => this.lab.showError(e));
  }
}

if (!customElements.get('lease-lab')) {
  customElements.define('lease-lab', LeaseLab);
  watchFences(); // once per page, by the copy that defined the element
}
