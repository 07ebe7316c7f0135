// One storage policy's safety table as a real <table> (matrix.html and <lease-lab-matrix>): services as
// rows (<th scope=row>), faults as columns (<th scope=col>), a caption that counts the verdicts. Each
// cell's <td> carries data-verdict, data-service, data-fault and data-fencing (for tests and for a
// writer's CSS) and shows its verdict as a word as well as a colour, with a mark where a real server
// checks that service under that fault. What a cell holds (a button, a link) is the caller's.
// Hovering or focusing a cell highlights its row and column; with `keys`, the table is one Tab stop and
// the arrow keys, Home and End move between its cells (a roving tabindex).
import { fmt } from './i18n.js';
import { countVerdicts, keyOf } from './matrix-data.js';

const el = (doc, tag, cls, text) => {
  const e = doc.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

/** A verdict as a class name: v-unsafe, v-safe, v-na. */
export const verdictClass = (v) => `v-${v === 'n/a' ? 'na' : v}`;

/** The verdict's word and, where a real server checks the cell, its mark (◆, said in words to a screen reader). */
export function cellFace(doc, cell, w) {
  const frag = doc.createDocumentFragment();
  frag.append(el(doc, 'span', 'mx-word', w.verdict[cell.verdict] || cell.verdict));
  if (cell.real && cell.real.length) {
    const mark = el(doc, 'span', 'mx-real');
    mark.title = w.realMark;
    const glyph = el(doc, 'span', '', '◆');
    glyph.setAttribute('aria-hidden', 'true');
    mark.append(glyph, el(doc, 'span', 'mx-vh', `, ${w.realMark}`));
    frag.append(mark);
  }
  return frag;
}

/**
 * The <table> of policy `fencing` over `services` × `faults`: `index` holds the cells (matrix-data.js's
 * indexOf), `w` the words (matrix-i18n.js), `policyName(id)` a policy's name for the caption, and
 * `body(cell)` the node that goes into a cell's <td>, `num` the reader's numbers.
 */
export function renderTable(doc, { index, services, faults, fencing, w, policyName, body, num = String }) {
  const table = el(doc, 'table', 'mx');
  table.dataset.fencing = fencing;
  const caption = el(doc, 'caption');
  const head = el(doc, 'tr');
  head.append(Object.assign(el(doc, 'th', 'mx-corner', w.serviceCol), { scope: 'col' }));
  for (const f of faults) {
    const th = el(doc, 'th', 'mx-fault', w.faultNames[f] || f);
    th.scope = 'col';
    th.dataset.fault = f;
    if (w.faultHelp[f]) th.title = w.faultHelp[f];
    head.append(th);
  }
  const thead = el(doc, 'thead');
  thead.append(head);
  const tbody = el(doc, 'tbody');
  const shown = [];
  for (const s of services) {
    const tr = el(doc, 'tr');
    tr.dataset.service = s;
    const th = el(doc, 'th', 'mx-service', w.serviceNames[s] || s);
    th.scope = 'row';
    tr.append(th);
    for (const f of faults) {
      const cell = index.get(keyOf(s, f, fencing));
      const td = el(doc, 'td', cell ? verdictClass(cell.verdict) : 'v-missing');
      Object.assign(td.dataset, { service: s, fault: f, fencing });
      if (cell) {
        td.dataset.verdict = cell.verdict;
        td.append(body(cell));
        shown.push(cell);
      }
      tr.append(td);
    }
    tbody.append(tr);
  }
  const n = countVerdicts(shown);
  const counts = { rows: services.length, cols: faults.length, unsafe: n.unsafe, safe: n.safe, na: n.na };
  for (const k of Object.keys(counts)) counts[k] = num(counts[k]);
  caption.textContent = fmt(w.caption, { policy: policyName(fencing), ...counts });
  table.append(caption, thead, tbody);
  highlightOnHover(table);
  return table;
}

/**
 * `table` in a box that scrolls sideways where the table is wider than the column (a phone), the
 * service column staying in view. Its caption is read by screen readers in the table, and shown above
 * the box (a copy hidden from them): a caption inside the box would scroll out of view with the cells.
 */
export function scrollBox(doc, table) {
  const wrap = el(doc, 'div', 'mx-wrap');
  const shown = el(doc, 'p', 'mx-caption', table.caption.textContent);
  shown.setAttribute('aria-hidden', 'true');
  table.caption.classList.add('mx-vh');
  const box = el(doc, 'div', 'mx-box');
  box.append(table);
  wrap.append(shown, box);
  return wrap;
}

/** Marks the row and the column of the cell under the pointer or the focus (classes hl-row, hl-col). */
function highlightOnHover(table) {
  const clear = () => table.querySelectorAll('.hl-row, .hl-col').forEach((e) => e.classList.remove('hl-row', 'hl-col'));
  const mark = (e) => {
    const td = e.target.closest?.('td[data-fault]');
    if (!td || !table.contains(td)) return;
    clear();
    td.parentElement.classList.add('hl-row');
    for (const c of table.querySelectorAll(`[data-fault="${CSS.escape(td.dataset.fault)}"]`)) c.classList.add('hl-col');
  };
  table.addEventListener('mouseover', mark);
  table.addEventListener('focusin', mark);
  table.addEventListener('mouseleave', () => {
    if (!table.contains(table.ownerDocument.activeElement)) clear();
  });
  table.addEventListener('focusout', (e) => {
    if (!table.contains(e.relatedTarget)) clear();
  });
}

/** What a key moves to from row r, column c of a grid of `rows` × `cols`, or null for a key not taken. */
function moved(key, r, c, rows, cols, ctrl) {
  switch (key) {
    case 'ArrowLeft': return [r, Math.max(0, c - 1)];
    case 'ArrowRight': return [r, Math.min(cols - 1, c + 1)];
    case 'ArrowUp': return [Math.max(0, r - 1), c];
    case 'ArrowDown': return [Math.min(rows - 1, r + 1), c];
    case 'Home': return ctrl ? [0, 0] : [r, 0];
    case 'End': return ctrl ? [rows - 1, cols - 1] : [r, cols - 1];
    default: return null;
  }
}

/**
 * Makes `table`'s cell controls (one per <td>, selector `sel`) a single Tab stop that the arrow keys,
 * Home and End (with Ctrl: the table's corners) move through.
 */
export function roveCells(table, sel) {
  const grid = [...table.tBodies[0].rows].map((tr) => [...tr.cells].map((td) => td.querySelector(sel)).filter(Boolean));
  const all = grid.flat();
  all.forEach((b, i) => (b.tabIndex = i === 0 ? 0 : -1));
  const focus = (b) => {
    for (const x of all) x.tabIndex = x === b ? 0 : -1;
    b.focus();
  };
  table.addEventListener('focusin', (e) => {
    if (all.includes(e.target)) for (const x of all) x.tabIndex = x === e.target ? 0 : -1;
  });
  table.addEventListener('keydown', (e) => {
    if (e.altKey || e.metaKey || e.shiftKey) return;
    const r = grid.findIndex((row) => row.includes(e.target));
    if (r < 0) return;
    const to = moved(e.key, r, grid[r].indexOf(e.target), grid.length, grid[r].length, e.ctrlKey);
    if (!to) return;
    e.preventDefault();
    const row = grid[to[0]];
    focus(row[Math.min(to[1], row.length - 1)]);
  });
}
