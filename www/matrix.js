// matrix.html: the field's safety table (issue 39) — every lock service × fault × storage policy, each
// cell the exact search `leaselab matrix` runs. The first view is the table the build computed
// (pkg/matrix.json: no wasm needed); "Compute in this browser" computes it again in Web Workers on
// every core (matrix-live.js) and the live cells replace the shipped ones as they finish. The address
// keeps what the reader shows (?services=lease,redis&faults=pause,partition&fencing=token&lang=bn);
// a bad value becomes a notice and a fallback. One job per module:
//   matrix-data.js    the JSON's rows, columns and policies; the address's choice; the live queue
//   matrix-table.js   one policy's <table>, its highlight and its keys
//   matrix-detail.js  a cell in full
//   matrix-live.js    the workers
import { languages, loadLang, fmt, numberFormat } from './i18n.js';
import { matrixWords, en as enM } from './matrix-i18n.js';
import { servicesOf, faultsOf, policiesOf, indexOf, keyOf, readChoice, shownPolicies, faultReach, liveQueue, tableOf } from './matrix-data.js';
import { renderTable, roveCells, cellFace, verdictClass, scrollBox } from './matrix-table.js';
import { renderDetail } from './matrix-detail.js';
import { computeLive, workerCount } from './matrix-live.js';
import { serviceNamesOf } from './matrix-names.js';

const $ = (id) => document.getElementById(id);

function query() {
  try {
    return new URLSearchParams(location.search);
  } catch {
    return new URLSearchParams();
  }
}
const q = query();

const st = {
  lang: Object.hasOwn(languages, q.get('lang')) ? q.get('lang') : 'en',
  w: matrixWords('en'), // this page's words
  policyNames: {}, // the lab's names of the storage policies, in the reader's language
  names: {}, // the rows' names, in the reader's language (matrix-names.js)
  shipped: null, // the build's table (pkg/matrix.json)
  known: null, // the shipped cells by key: the live queue's costs
  index: null, // the cells shown: the shipped ones, replaced by live ones as they finish
  bounds: null, // each row's bounds, live ones over the shipped
  choice: null, // { services, faults, fencing }
  notices: [],
  open: null, // the key of the cell whose details show
  live: null, // the computation under way: { handle, done, total, t0 }
  liveKeys: new Set(), // the cells computed in this browser (data-source="live")
};

const serviceName = (id) => st.names[id] || id;
const faultName = (id) => st.w.faultNames[id] || id;
const policyName = (id) => id;
const num = (v) => numberFormat(st.lang)(v);

/** The lab's address of an unsafe cell's run, in the reader's language. */
const labHref = (cell) => (st.lang === 'en' ? cell.link : `${cell.link}&lang=${st.lang}`);

async function start() {
  $('status').hidden = false;
  const table = await loadTable();
  st.shipped = table;
  await setLanguage(st.lang);
  st.known = indexOf(table);
  st.index = indexOf(table);
  st.bounds = { ...table.bounds };
  const chosen = readChoice((k) => q.get(k), table, { allowAll: true });
  st.notices = chosen.notices;
  st.choice = { services: chosen.services, faults: chosen.faults, fencing: chosen.fencing };
  buildControls();
  for (const [code, name] of Object.entries(languages)) $('lang').add(new Option(name, code, false, code === st.lang));
  $('lang').addEventListener('change', async () => {
    await setLanguage($('lang').value);
    writeUrl();
    renderAll();
  });
  renderAll();
  $('status').hidden = true;
  $('lang-field').hidden = false;
  $('controls').hidden = false;
  $('legend').hidden = false;
  document.body.dataset.ready = '1';
}

async function loadTable() {
  const r = await fetch(new URL('pkg/matrix.json', import.meta.url));
  if (!r.ok) throw new Error(`pkg/matrix.json: HTTP ${r.status}`);
  const t = await r.json();
  if (!t || typeof t.bounds !== 'object' || !Array.isArray(t.cells)) throw new Error('pkg/matrix.json is not a safety table');
  return t;
}

async function setLanguage(lang) {
  st.lang = lang;
  st.w = matrixWords(lang);
  const [d, names] = await Promise.all([loadLang(lang), serviceNamesOf(servicesOf(st.shipped), lang, st.w)]);
  st.policyNames = d.policies || {};
  st.names = names;
}

/** The policy picker and the rows' and columns' checkboxes, from the table itself. */
function buildControls() {
  const sel = $('fencing');
  for (const p of [...policiesOf(st.shipped), 'all']) sel.add(new Option(p, p, false, p === st.choice.fencing));
  sel.addEventListener('change', () => {
    st.choice.fencing = sel.value;
    changed();
  });
  for (const [set, key, all] of [
    ['services-set', 'services', servicesOf(st.shipped)],
    ['faults-set', 'faults', faultsOf(st.shipped)],
  ]) {
    const box = $(set);
    for (const id of all) {
      const label = document.createElement('label');
      const input = Object.assign(document.createElement('input'), { type: 'checkbox', value: id, checked: st.choice[key].includes(id) });
      input.dataset.list = key;
      label.append(input, document.createTextNode(' '), Object.assign(document.createElement('span'), { className: 'mx-name' }));
      box.append(label);
      input.addEventListener('change', () => {
        const ticked = [...box.querySelectorAll('input:checked')].map((i) => i.value);
        // Never an empty table: the last box stays ticked.
        if (!ticked.length) {
          input.checked = true;
          return;
        }
        st.choice[key] = all.filter((n) => ticked.includes(n));
        changed();
      });
    }
  }
  $('compute').addEventListener('click', computeHere);
  $('cancel').addEventListener('click', () => st.live?.handle.cancel());
  $('download').addEventListener('click', downloadJson);
}

function changed() {
  st.notices = [];
  writeUrl();
  renderTables();
  renderNotices();
}

/** The address: what differs from the whole table under `none`, and the language. */
function writeUrl() {
  try {
    const u = new URLSearchParams(location.search);
    const whole = { services: servicesOf(st.shipped), faults: faultsOf(st.shipped) };
    for (const key of ['services', 'faults']) {
      if (st.choice[key].length === whole[key].length) u.delete(key);
      else u.set(key, st.choice[key].join(','));
    }
    if (st.choice.fencing === 'none') u.delete('fencing');
    else u.set('fencing', st.choice.fencing);
    if (st.lang === 'en') u.delete('lang');
    else u.set('lang', st.lang);
    const s = u.toString().replace(/%2C/g, ',');
    history.replaceState(history.state, '', `${location.pathname}${s ? `?${s}` : ''}${location.hash}`);
  } catch {
    // a sandboxed frame: the page works without it
  }
}

function renderAll() {
  renderStatic();
  renderTables();
  renderLegend();
  renderNotices();
  renderLiveStatus();
  if (st.open && st.index.has(st.open)) showDetail(st.index.get(st.open));
}

/** Every fixed word in the reader's language. */
function renderStatic() {
  const { w } = st;
  document.documentElement.lang = st.lang;
  document.title = w.docTitle;
  for (const el of document.querySelectorAll('[data-m]')) {
    const v = w[el.dataset.m];
    if (typeof v === 'string') el.textContent = v;
  }
  $('back').href = st.lang === 'en' ? 'index.html' : `index.html?lang=${st.lang}`;
  for (const o of $('fencing').options) o.textContent = o.value === 'all' ? w.allPolicies : st.policyNames[o.value] || o.value;
  for (const input of document.querySelectorAll('#controls input[data-list]')) {
    const name = input.dataset.list === 'services' ? serviceName(input.value) : faultName(input.value);
    input.parentElement.querySelector('.mx-name').textContent = name;
  }
}

/** The tables: one for the policy picked, or one per policy. */
function renderTables() {
  const host = $('tables');
  const focused = document.activeElement?.closest?.('td[data-fault]');
  const refocus = focused && host.contains(focused) ? { ...focused.dataset } : null;
  host.replaceChildren();
  for (const fencing of shownPolicies(st.shipped, st.choice.fencing)) {
    const table = renderTable(document, {
      index: st.index,
      services: st.choice.services,
      faults: st.choice.faults,
      fencing,
      w: { ...st.w, serviceNames: st.names },
      policyName,
      body: cellButton,
      num,
    });
    roveCells(table, 'button');
    host.append(scrollBox(document, table));
  }
  for (const td of host.querySelectorAll('td[data-fault]')) if (st.liveKeys.has(keyOf(td.dataset.service, td.dataset.fault, td.dataset.fencing))) td.dataset.source = 'live';
  document.querySelector('.mx-keys').hidden = false;
  markOpen();
  if (refocus) host.querySelector(`td[data-service="${refocus.service}"][data-fault="${refocus.fault}"][data-fencing="${refocus.fencing}"] button`)?.focus();
}

/** A cell's button: its verdict word (and real-server mark); it opens the cell's details. */
function cellButton(cell) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'mx-cell';
  b.append(cellFace(document, cell, st.w));
  b.setAttribute('aria-describedby', 'detail');
  b.addEventListener('click', () => {
    st.open = keyOf(cell.service, cell.fault, cell.fencing);
    showDetail(st.index.get(st.open));
    markOpen();
  });
  return b;
}

function markOpen() {
  for (const td of $('tables').querySelectorAll('td[data-fault]')) {
    const on = keyOf(td.dataset.service, td.dataset.fault, td.dataset.fencing) === st.open;
    td.classList.toggle('open', on);
    td.querySelector('button')?.setAttribute('aria-pressed', String(on));
  }
}

function showDetail(cell) {
  const box = $('detail');
  box.hidden = false;
  renderDetail(box, cell, {
    w: st.w,
    step: st.bounds[cell.service]?.step_ms,
    serviceName,
    faultName,
    policyName,
    num,
    labHref,
  });
}

/** The legend: each verdict's colour and word, the real-server mark, and the bounds of every row. */
function renderLegend() {
  const { w } = st;
  const key = $('verdict-key');
  key.replaceChildren();
  for (const v of ['unsafe', 'safe', 'n/a']) {
    const li = document.createElement('li');
    const sw = Object.assign(document.createElement('span'), { className: `mx-swatch ${verdictClass(v)}`, textContent: w.verdict[v] });
    li.append(sw, document.createTextNode(` ${w.verdictLong[v]}`));
    key.append(li);
  }
  const real = document.createElement('li');
  const mark = Object.assign(document.createElement('span'), { className: 'mx-swatch mx-real', textContent: '◆' });
  mark.setAttribute('aria-hidden', 'true');
  real.append(mark, document.createTextNode(` ${w.legendReal}`));
  key.append(real);
  const reach = faultReach(st.shipped);
  const fb = $('fault-bounds');
  fb.replaceChildren();
  for (const f of faultsOf(st.shipped)) {
    const r = reach[f];
    if (!r) continue;
    const text = r.capMs ? fmt(w.faultBoundCap, { fault: faultName(f), k: num(r.k), cap: num(r.capMs / 1000) }) : fmt(w.faultBound, { fault: faultName(f), k: num(r.k) });
    fb.append(Object.assign(document.createElement('li'), { textContent: text }));
  }
  const sb = $('service-bounds');
  sb.replaceChildren();
  for (const s of servicesOf(st.shipped)) {
    const b = st.bounds[s];
    const text = fmt(w.serviceBound, { service: serviceName(s), name: b.time.name, ms: num(b.time.ms), step: num(b.step_ms), scenario: b.scenario });
    sb.append(Object.assign(document.createElement('li'), { textContent: text }));
  }
}

function renderNotices() {
  const box = $('notice');
  box.replaceChildren();
  box.hidden = !st.notices.length;
  if (!st.notices.length) return;
  const ul = document.createElement('ul');
  for (const n of st.notices) ul.append(Object.assign(document.createElement('li'), { textContent: fmt(st.w[n.key] || enM[n.key], n.vars) }));
  box.append(Object.assign(document.createElement('p'), { textContent: st.w.noticeTitle }), ul);
}

/** "Compute in this browser": every policy of the rows and columns shown, on every core. */
function computeHere() {
  const jobs = liveQueue(st.choice.services, st.choice.faults, policiesOf(st.shipped), st.known);
  const workers = workerCount();
  let handle;
  try {
    handle = computeLive(jobs, { workers, onCell: liveCell });
  } catch {
    st.live = { error: st.w.noWorkers };
    renderLiveStatus();
    return;
  }
  st.live = { handle, done: 0, total: jobs.length, workers, t0: performance.now() };
  document.body.dataset.live = 'running';
  $('compute').disabled = true;
  $('cancel').disabled = false;
  renderLiveStatus();
  handle.done.then(
    (r) => {
      st.live = { ...st.live, ...r, handle: null, ms: Math.round(performance.now() - st.live.t0) };
      document.body.dataset.live = r.cancelled ? 'cancelled' : 'done';
      document.body.dataset.liveMs = String(st.live.ms);
      liveEnded();
    },
    (e) => {
      st.live = { error: fmt(st.w.liveError, { msg: e.message }) };
      document.body.dataset.live = 'error';
      liveEnded();
    },
  );
}

function liveEnded() {
  $('compute').disabled = false;
  $('cancel').disabled = true;
  renderTables(); // the captions' counts
  renderLegend();
  renderLiveStatus();
  if (st.open && st.index.has(st.open)) showDetail(st.index.get(st.open));
}

/** A cell computed live: it replaces the shipped one, in the data and on the page. */
function liveCell(cell, bounds) {
  const key = keyOf(cell.service, cell.fault, cell.fencing);
  st.index.set(key, cell);
  st.liveKeys.add(key);
  if (bounds) st.bounds[cell.service] = bounds;
  st.live.done += 1;
  const td = $('tables').querySelector(`td[data-service="${cell.service}"][data-fault="${cell.fault}"][data-fencing="${cell.fencing}"]`);
  if (td) {
    td.className = verdictClass(cell.verdict);
    td.dataset.verdict = cell.verdict;
    td.dataset.source = 'live';
    const b = td.querySelector('button');
    b.replaceChildren(cellFace(document, cell, st.w));
  }
  markOpen();
  if (st.open === key) showDetail(cell);
  renderLiveStatus();
}

function renderLiveStatus() {
  const { w, live } = st;
  const out = $('live-status');
  const bar = $('progress');
  if (!live) {
    out.textContent = w.shipped;
    bar.hidden = true;
    return;
  }
  bar.hidden = Boolean(live.error);
  if (live.error) out.textContent = live.error;
  else if (live.handle) out.textContent = fmt(w.progress, { done: num(live.done), total: num(live.total), workers: num(live.workers) });
  else if (live.cancelled) out.textContent = fmt(w.cancelled, { done: num(live.done), total: num(live.total) });
  else out.textContent = fmt(w.computed, { total: num(live.total), ms: num(live.ms), workers: num(live.workers) });
  bar.max = Math.max(1, live.total || 1);
  bar.value = live.done || 0;
}

/** The table as shown (rows, columns; every policy), live cells where computed, as `leaselab matrix --json` writes it. */
async function downloadJson() {
  const { download } = await import('./share.js');
  const t = tableOf(st.bounds, st.index, st.choice.services, st.choice.faults, policiesOf(st.shipped));
  download('leaselab-matrix.json', 'application/json', JSON.stringify(t));
}

start().catch((e) => {
  const el = $('status');
  el.hidden = false;
  el.className = 'status error';
  el.textContent = fmt(st.w.loadError, { msg: e && e.message ? e.message : String(e) });
});
