// author.html: write a scenario of your own and watch it run. The text on the left (a plain <textarea>
// with line numbers), the lab on the right — a <lease-lab> with the text inline, replaced (debounced)
// whenever the text parses — the parser's errors under the text by line (each moves the caret to its
// place), the file's expectation lines ✓/✗, and three ways out (author-share.js): an embed snippet with
// the text inline, a .txt download, and a link carrying the text in its fragment. The parser and the
// checks are the user-scenario wasm's (engine.js userBuild, the one lease-lab.js's custom labs use); the
// expectation lines run in a worker (author-worker.js), so typing never waits for a run.
// Start from any catalogue scenario: the build copies their files to scenarios/.
import { languages, loadLang, fmt } from './i18n.js';
import { loadStart, userBuild } from './engine.js';
import { en as enA, bn as bnA } from './author-i18n.js';
import { embedSnippet, fileName, fragmentValue, shareLink, decodeText } from './author-share.js';
import { HERE } from './settings.js';
import { download } from './share.js';
import { startWorker } from './worker-start.js';
import './lease-lab.js'; // defines <lease-lab>, which shows the lab on the right

const $ = (id) => document.getElementById(id);
/** How long typing must pause before the text is parsed and the lab replaced. */
const DEBOUNCE_MS = 300;

const st = {
  lang: 'en',
  d: null, // the lab's dictionary (scenario titles) with this page's words under `a`
  wasm: null,
  catalogue: null,
  parsed: null, // the last parse: { scenario } or { errors }
  shownText: null, // the text the lab on the right runs
  timer: 0,
  worker: null, // author-worker.js: the expectation lines, off the main thread
  seq: 0, // the newest text sent to the worker
};

function langOfAddress() {
  try {
    const v = new URLSearchParams(location.search).get('lang');
    return Object.hasOwn(languages, v) ? v : 'en';
  } catch {
    return 'en';
  }
}

async function dict(lang) {
  const base = await loadLang(lang);
  return { ...base, a: { ...enA, ...(lang === 'bn' ? bnA : {}) } };
}

/** The page's fixed words in the language, and the catalogue picker's titles. */
function renderStatic() {
  const a = st.d.a;
  document.documentElement.lang = st.lang;
  document.title = a.docTitle;
  for (const el of document.querySelectorAll('[data-a]')) el.textContent = a[el.dataset.a];
  const pick = $('start');
  const chosen = pick.value;
  pick.replaceChildren(new Option('—', ''));
  for (const s of st.catalogue.list) {
    const t = st.d.scenarios && st.d.scenarios[s.id];
    const title = (t && t.title) || s.title.en || s.id;
    pick.add(new Option(`${title} (${s.id})`, s.id));
  }
  pick.value = chosen;
}

/** The gutter's line numbers, one per line of the text, scrolled with it. */
function renderGutter() {
  const n = $('text').value.split('\n').length;
  let out = '';
  for (let i = 1; i <= n; i++) out += `${i}\n`;
  $('gutter').textContent = out;
  $('gutter').scrollTop = $('text').scrollTop;
}

/** The offset in `text` of line `line`, column `col` (both from 1; columns in characters). */
export function offsetOf(text, line, col) {
  let at = 0;
  for (let i = 1; i < line; i++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  const end = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
  return Math.min(at + [...text.slice(at, end)].slice(0, col - 1).join('').length, end);
}

/** Puts the caret at line, col and scrolls the text there. */
function goTo(line, col) {
  const ta = $('text');
  const at = offsetOf(ta.value, line, col);
  ta.focus();
  ta.setSelectionRange(at, at);
  const lineHeight = parseFloat(getComputedStyle(ta).lineHeight) || 20;
  ta.scrollTop = Math.max(0, (line - 3) * lineHeight);
  renderGutter();
}

/** The errors list: a button per error, which moves the caret to it. */
function renderErrors(errors) {
  const a = st.d.a;
  const list = $('errors');
  list.replaceChildren();
  for (const e of errors) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'link';
    b.textContent = fmt(a.errorAt, { line: e.line, col: e.col, msg: e.message });
    b.dataset.line = e.line;
    b.addEventListener('click', () => goTo(e.line, e.col));
    li.append(b);
    list.append(li);
  }
  $('no-errors').hidden = errors.length > 0;
}

/** The expectation lines, ✓ or ✗ each, with what differs; each moves the caret to its line. */
function renderExpects(expects) {
  const a = st.d.a;
  const list = $('expects');
  list.replaceChildren();
  for (const x of expects) {
    const li = document.createElement('li');
    li.className = x.ok ? 'holds' : 'fails';
    li.dataset.ok = String(x.ok);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'link';
    // ✓ or ✗ for the eye, the words for a screen reader; then the line and what differs.
    const mark = document.createElement('span');
    mark.setAttribute('aria-hidden', 'true');
    mark.textContent = x.ok ? '✓ ' : '✗ ';
    const said = document.createElement('span');
    said.className = 'visually-hidden';
    said.textContent = `${x.ok ? a.holdsSr : a.failsSr}: `;
    const what = fmt(a.expectAt, { line: x.line, head: x.head }) + (x.ok ? '' : ` — ${x.message || ''}`);
    b.append(mark, said, what);
    b.addEventListener('click', () => goTo(x.line, 1));
    li.append(b);
    list.append(li);
  }
  $('no-expects').hidden = expects.length > 0 || !st.parsed || Boolean(st.parsed.errors);
  $('expects-wait').hidden = !st.parsed || !st.parsed.errors;
}

/** A fresh lab running `text`: a <lease-lab> with the text inline, in the page's language. */
function showLab(text) {
  const el = document.createElement('lease-lab');
  el.setAttribute('lang', st.lang);
  el.setAttribute('controls', 'sliders params fencing retries compare play');
  const old = $('lab-slot').querySelector('lease-lab');
  // The reader's policy carries over to the new lab.
  const fencing = old?.shadowRoot?.getElementById('fencing')?.value;
  if (fencing) el.setAttribute('fencing', fencing);
  const script = document.createElement('script');
  script.type = 'text/x-leaselab';
  script.textContent = text;
  el.append(script);
  $('lab-slot').replaceChildren(el);
  st.shownText = text;
}

/** Runs the text's expectation lines in the worker (author-worker.js); the newest answer is shown. */
function checkExpectations(text) {
  if (!st.worker) {
    st.worker = startWorker(new URL('./author-worker.js', import.meta.url));
    st.worker.onmessage = ({ data }) => {
      if (data.seq !== st.seq) return; // an older text's
      $('expects').removeAttribute('aria-busy');
      if (data.error) say(data.error);
      else renderExpects(data.checked.expects || []);
    };
    st.worker.onerror = (e) => say(e.message || 'worker failed');
  }
  st.seq += 1;
  $('expects').setAttribute('aria-busy', 'true');
  st.worker.postMessage({ seq: st.seq, text });
}

/** Parses the text now (the lab and the errors) and has its expectations checked; replaces the lab if it parses and changed. */
function update() {
  clearTimeout(st.timer);
  st.timer = 0;
  const text = $('text').value;
  st.parsed = JSON.parse(st.wasm.parseScenario(text));
  if (st.parsed.errors) {
    renderErrors(st.parsed.errors);
    st.seq += 1; // a check still running is for an older text
    $('expects').removeAttribute('aria-busy');
    renderExpects([]);
    $('stale').hidden = st.shownText === null;
    return;
  }
  renderErrors([]);
  checkExpectations(text);
  $('stale').hidden = true;
  if (text !== st.shownText) showLab(text);
}

function say(text) {
  $('action-status').textContent = text;
}

/** Copies `text` (else shows it in the field to copy by hand), and says which. */
async function copy(text, done) {
  const field = $('copy-field');
  field.value = text;
  field.hidden = false;
  try {
    await navigator.clipboard.writeText(text);
    say(done);
  } catch {
    field.select();
    say(st.d.a.byHand);
  }
}

/** The scenario id of the text as it stands (parsed now if typing has not paused yet). */
function currentId() {
  if (st.timer) update();
  return st.parsed && st.parsed.scenario ? st.parsed.scenario.id : '';
}

function wireActions() {
  $('copy-snippet').addEventListener('click', () => {
    const { html, escaped } = embedSnippet(new URL('lease-lab.js', HERE).href, $('text').value);
    return copy(html, escaped ? `${st.d.a.snippetCopied} ${st.d.a.scriptEscaped}` : st.d.a.snippetCopied);
  });
  $('share-link').addEventListener('click', async () => {
    const href = await shareLink(location.href, $('text').value);
    try {
      history.replaceState(history.state, '', href);
    } catch {
      // a sandboxed frame may refuse: the link is still given
    }
    return copy(href, st.d.a.linkCopied);
  });
  $('download').addEventListener('click', () => {
    const name = fileName(currentId());
    download(name, 'text/plain;charset=utf-8', $('text').value);
    say(fmt(st.d.a.downloaded, { file: name }));
  });
}

/** Loads catalogue scenario `id`'s file into the text. */
async function startFrom(id) {
  setText(await fetchScenario(id));
}

/** Catalogue scenario `id`'s file as written (the build copies them to scenarios/). */
async function fetchScenario(id) {
  const r = await fetch(new URL(`scenarios/${encodeURIComponent(id)}.txt`, HERE));
  if (!r.ok) throw new Error(`scenarios/${id}.txt: HTTP ${r.status}`);
  return r.text();
}

function setText(text) {
  $('text').value = text;
  renderGutter();
  update();
}

function wireEditor() {
  const ta = $('text');
  ta.addEventListener('input', () => {
    renderGutter();
    clearTimeout(st.timer);
    st.timer = setTimeout(update, DEBOUNCE_MS);
  });
  ta.addEventListener('scroll', () => ($('gutter').scrollTop = ta.scrollTop), { passive: true });
  $('start').addEventListener('change', (e) => {
    if (e.target.value) startFrom(e.target.value).catch((err) => say(err.message));
  });
  $('lang').addEventListener('change', async (e) => {
    st.lang = e.target.value;
    st.d = await dict(st.lang);
    renderStatic();
    try {
      const u = new URL(location.href);
      if (st.lang === 'en') u.searchParams.delete('lang');
      else u.searchParams.set('lang', st.lang);
      history.replaceState(history.state, '', u.href);
    } catch {
      // a sandboxed frame may refuse
    }
    st.shownText = null; // the lab again, in the new language
    update();
  });
}

/** The text to start with: the link's (its fragment), else the catalogue's default scenario's. */
async function firstText() {
  const value = fragmentValue(location.hash);
  if (value) {
    try {
      const text = await decodeText(value);
      say(st.d.a.restored);
      return text;
    } catch (e) {
      say(fmt(st.d.a.badLink, { msg: e.message }));
    }
  }
  $('start').value = st.catalogue.defaultId;
  return fetchScenario(st.catalogue.defaultId);
}

async function start() {
  $('status').hidden = false;
  st.lang = langOfAddress();
  const [wasm, catalogue, d] = await Promise.all([userBuild(), loadStart(), dict(st.lang)]);
  Object.assign(st, { wasm, catalogue, d });
  const langSel = $('lang');
  for (const [code, name] of Object.entries(languages)) langSel.add(new Option(name, code, false, code === st.lang));
  renderStatic();
  wireEditor();
  wireActions();
  setText(await firstText());
  $('status').hidden = true;
  $('lang-field').hidden = false;
  $('workbench').hidden = false;
}

start().catch((e) => {
  const s = $('status');
  s.hidden = false;
  s.classList.add('error');
  s.textContent = fmt((st.d && st.d.a.loadError) || enA.loadError, { msg: e && e.message ? e.message : String(e) });
});
