// <lease-lab-matrix>: the safety table (matrix.html's) as a compact element for docs pages:
//
//   <script type="module" src="https://example.org/leaselab/lease-lab-matrix.js"></script>
//   <lease-lab-matrix services="lease,redis" faults="pause,partition" fencing="token"></lease-lab-matrix>
//
// It shows the cells of the table the build computed (pkg/matrix.json, found next to this file, so the
// folder can live under any path; nothing else is requested), each verdict as a word and a colour,
// an unsafe cell a link that opens its counterexample in the lab, and a link to the whole table. The
// rules are <lease-lab>'s (docs/embedding.md): its own shadow DOM, the host's light or dark theme
// (theme="auto", the default; host-theme.js), no key handler outside itself, and a bad attribute is
// a notice inside the element and a fallback, never a blank box. Attributes: services, faults
// (comma-separated; absent: every one), fencing (one policy; default none), lang, theme.
import { fmt, numberFormat } from './i18n.js';
import { matrixWords, en as enM } from './matrix-i18n.js';
import { readChoice, indexOf } from './matrix-data.js';
import { renderTable, cellFace, scrollBox } from './matrix-table.js';
import { autoScheme, watchScheme } from './host-theme.js';
import { declareBengaliFace } from './bengali-face.js';
import { serviceNamesOf } from './matrix-names.js';
import { reasonText } from './matrix-detail.js';

const HERE = new URL('./', import.meta.url);
const LANGS = ['en', 'bn'];

let shipped = null;
/** The build's table, fetched once per page however many elements show it. */
function loadTable() {
  shipped ??= fetch(new URL('pkg/matrix.json', HERE)).then((r) => {
    if (!r.ok) throw new Error(`pkg/matrix.json: HTTP ${r.status}`);
    return r.json();
  });
  return shipped;
}

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

class LeaseLabMatrix extends HTMLElement {
  static observedAttributes = ['services', 'faults', 'fencing', 'lang', 'theme'];

  connectedCallback() {
    if (!this.shadowRoot) {
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML =
        `<link rel="stylesheet" href="${new URL('style.css', HERE).href}">` +
        `<link rel="stylesheet" href="${new URL('matrix-table.css', HERE).href}">` +
        '<div class="embed mx-embed"><p class="status" role="status">Loading the table…</p></div>';
    }
    this.unwatch ??= watchScheme(() => this.applyScheme());
    this.render();
  }

  disconnectedCallback() {
    this.unwatch?.();
    this.unwatch = null;
  }

  attributeChangedCallback() {
    if (this.shadowRoot) this.render();
  }

  /** lang="en" or "bn"; without it the page's language (the nearest lang around the element) if the table has it. */
  language() {
    const v = (this.getAttribute('lang') || this.parentElement?.closest('[lang]')?.lang || 'en').split('-')[0].toLowerCase();
    return LANGS.includes(v) ? v : 'en';
  }

  applyScheme() {
    const box = this.shadowRoot?.querySelector('.embed');
    const theme = this.getAttribute('theme');
    if (box) box.dataset.scheme = theme === 'light' || theme === 'dark' ? theme : autoScheme();
  }

  async render() {
    // Attributes may change while a draw waits for the table or the names: only the latest one draws.
    const seq = (this.seq = (this.seq || 0) + 1);
    this.applyScheme();
    const box = this.shadowRoot.querySelector('.embed');
    const lang = this.language();
    const w = matrixWords(lang);
    box.lang = lang;
    if (lang === 'bn') declareBengaliFace();
    let table;
    try {
      table = await loadTable();
    } catch (e) {
      if (seq === this.seq) box.replaceChildren(el('p', 'status error', fmt(w.loadError, { msg: e && e.message ? e.message : String(e) })));
      return;
    }
    const choice = readChoice((k) => this.getAttribute(k), table);
    const theme = this.getAttribute('theme');
    if (theme !== null && !['light', 'dark', 'auto'].includes(theme)) choice.notices.push({ key: 'badTheme', vars: { value: theme } });
    const names = await serviceNamesOf(choice.services, lang, w);
    if (seq !== this.seq) return;
    const parts = [];
    if (choice.notices.length) parts.push(this.notice(w, choice.notices));
    const tableEl = renderTable(document, {
      index: indexOf(table),
      services: choice.services,
      faults: choice.faults,
      fencing: choice.fencing,
      w: { ...w, serviceNames: names },
      policyName: (p) => p,
      body: (cell) => this.cellBody(cell, { ...w, serviceNames: names }, lang),
      num: numberFormat(lang),
    });
    parts.push(scrollBox(document, tableEl), this.footer(w, choice, lang));
    box.replaceChildren(...parts);
    this.dispatchEvent(new CustomEvent('ready', { bubbles: true, detail: { cells: tableEl.querySelectorAll('td[data-verdict]').length } }));
  }

  /** An unsafe cell links to its run in the lab; the others say why in their title. */
  cellBody(cell, w, lang) {
    if (cell.verdict === 'unsafe' && cell.link) {
      const a = el('a');
      a.href = new URL(lang === 'en' ? cell.link : `${cell.link}&lang=${lang}`, HERE).href;
      a.append(cellFace(document, cell, w));
      return a;
    }
    const span = el('span');
    span.append(cellFace(document, cell, w));
    span.title = cell.verdict === 'n/a' ? reasonText(cell, w, (id) => w.serviceNames[id] || id) : w.verdictLong[cell.verdict];
    return span;
  }

  notice(w, notices) {
    const box = el('div', 'notice');
    box.setAttribute('role', 'status');
    const ul = el('ul');
    for (const n of notices) ul.append(el('li', '', fmt(w[n.key] || enM[n.key], n.vars)));
    box.append(el('p', '', w.noticeTitleEmbed), ul);
    return box;
  }

  /** The key to the marks, and the link to matrix.html showing the same rows, columns and policy. */
  footer(w, choice, lang) {
    const p = el('p', 'fine mx-foot');
    const q = new URLSearchParams();
    for (const k of ['services', 'faults']) if (this.getAttribute(k) !== null) q.set(k, choice[k].join(','));
    if (choice.fencing !== 'none') q.set('fencing', choice.fencing);
    if (lang !== 'en') q.set('lang', lang);
    const a = el('a', 'mx-whole', w.wholeTable);
    const s = q.toString().replace(/%2C/g, ',');
    a.href = new URL(`matrix.html${s ? `?${s}` : ''}`, HERE).href;
    p.append(el('span', '', `◆ ${w.realMark} · `), a);
    return p;
  }
}

if (!customElements.get('lease-lab-matrix')) customElements.define('lease-lab-matrix', LeaseLabMatrix);
