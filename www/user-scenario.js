// A <lease-lab>'s own scenario: text given inline (a ```leaselab fence's, fence.js; or a child
// <script type="text/x-leaselab">) or fetched from src="URL", parsed by the user-scenario wasm (pkg/leaselab_user.js: every service plus the
// parser; only pages with a custom scenario load it, lease-lab.js imports this module on demand). A text
// that does not parse, cannot be fetched or does not run shows its errors inside the element, by line
// and column, as text (never markup: a page may embed scenario text from anywhere); the page around it
// keeps working. The first run of a text (at its defaults, to find a limit before the lab starts) runs
// in a Web Worker (user-scenario-worker.js), so a text past the event limit never freezes the page; on
// the main thread only where no worker can start. A text that parses becomes a one-scenario catalogue the lab runs like any other
// (engine.js: engine "user"), with every other attribute working as for a catalogue scenario.
import { fmt, loadLang, loadLibraryWords } from './i18n.js';
import { userBuild } from './engine.js';
import { startWorker } from './worker-start.js';

/** The child that carries a scenario inline, if any. */
export const INLINE = 'script[type="text/x-leaselab"]';

/** Whether element `el` brings a scenario of its own (src, or an inline child). Cheap: no module loads. */
export function hasOwnScenario(el) {
  return el.fence?.scenario != null || el.hasAttribute('src') || Boolean(el.querySelector(`:scope > ${INLINE}`));
}

/** An error the element has already shown in its scenario-error box (its caller shows nothing more). */
class Shown extends Error {}

/**
 * The scenario's text: a fence's (its lines numbered as in the fence), else the inline child's (an
 * inline child wins over src), else src's, fetched (from
 * the page's origin, or another that allows it by CORS). Rejects with a message naming the URL and what
 * went wrong: the network (CORS refusals look like this to a page), or an HTTP status.
 */
export async function scenarioText(el, d) {
  if (el.fence?.scenario != null) return el.fence.scenario;
  const inline = el.querySelector(`:scope > ${INLINE}`);
  // A line break right after the opening tag is dropped, as <pre> drops it: lines count from the text's first.
  if (inline) return inline.textContent.replace(/^\r?\n/, '');
  const raw = el.getAttribute('src');
  let url;
  try {
    url = new URL(raw, document.baseURI);
  } catch {
    throw new Error(fmt(d.scenarioBadSrc, { url: raw }));
  }
  let r;
  try {
    r = await fetch(url);
  } catch (e) {
    throw new Error(fmt(d.scenarioFetchFailed, { url: url.href, why: e && e.message ? e.message : String(e) }));
  }
  if (!r.ok) throw new Error(fmt(d.scenarioHttpError, { url: url.href, status: `${r.status} ${r.statusText}`.trim() }));
  return r.text();
}

/** Marked each time a text is tried on the page's main thread rather than in the worker. */
const ON_MAIN_THREAD = 'leaselab:scenario-on-main-thread';

/**
 * The text tried on this thread: the parser's answer (`{scenario}` or `{errors: [{line, col, message}]}`)
 * and, if it parses, the message of its run at defaults when that run fails (a limit). A text past the
 * event limit holds this thread most of a second: only for pages where the worker cannot start.
 */
async function tryHere(text) {
  performance.mark(ON_MAIN_THREAD); // the page's own record, for DevTools and the tests
  const m = await userBuild();
  const parsed = JSON.parse(m.parseScenario(text));
  if (parsed.errors) return { parsed };
  try {
    const sim = m.Simulation.fromText(text);
    try {
      sim.runJson();
    } finally {
      sim.free();
    }
  } catch (e) {
    return { parsed, runError: e && e.message ? e.message : String(e) };
  }
  return { parsed };
}

/** The page's worker that tries texts (user-scenario-worker.js), shared by its labs, ended when idle. */
const trials = { worker: null, pending: new Map(), next: 0 };

/** Ends the worker and rejects what it still owed (it failed to load or run): those are tried here. */
function dropWorker(why) {
  trials.worker?.terminate();
  trials.worker = null;
  for (const p of trials.pending.values()) p.reject(new Error(why));
  trials.pending.clear();
}

function startTrials() {
  // Throws where a page cannot start it (no Worker); fires `error` where its script cannot load (a host
  // page whose CSP allows no blob: workers, when lease-lab.js comes from another origin: worker-start.js).
  const w = startWorker(new URL('./user-scenario-worker.js', import.meta.url));
  w.onmessage = ({ data }) => {
    const p = trials.pending.get(data.id);
    trials.pending.delete(data.id);
    if (!trials.pending.size) dropWorker('idle'); // its wasm is memory the page need not keep
    if (p) (data.error ? p.reject(new Error(data.error)) : p.resolve(data));
  };
  w.onerror = (e) => {
    e.preventDefault();
    dropWorker(e.message || 'the worker failed');
  };
  trials.worker = w;
}

/** The text tried in the worker (as `tryHere` answers), so no run of it holds up the page. */
function tryInWorker(text) {
  return new Promise((resolve, reject) => {
    if (!trials.worker) startTrials();
    const id = ++trials.next;
    trials.pending.set(id, { resolve, reject });
    trials.worker.postMessage({ id, text });
  });
}

/** The text tried in the worker if one can run it, else here (`tryHere`). */
export async function tryText(text) {
  try {
    return await tryInWorker(text);
  } catch {
    return tryHere(text);
  }
}

/**
 * The lock library a client line of scenario `text` names (`client A library=NAME: …`), or null. The
 * user build runs no client library (the cargo feature `libraries` is the clients build's alone, which
 * carries no parser: tools/build-web.sh), so such a text runs on the command line only.
 */
export function libraryIn(text) {
  const m = /^[ \t]*client\b[^:\n]*\blibrary=([\w.-]+)/m.exec(text);
  return m ? m[1] : null;
}

/**
 * A parsed scenario (the catalogue's shape) as the lab's entry: run by the user build from `text`
 * (engine.js), its prose folded as the catalogue's is (settings.js foldTexts), marked `own` so no
 * catalogue words or written runs of the same id are taken for it.
 */
export function userEntry(parsed, text) {
  const s = { ...parsed, engine: 'user', own: true, text };
  s.title = s.title || { en: s.id };
  s.summary = s.summary || { en: '' };
  s.source ??= '';
  s.derived ??= '';
  for (const p of s.params) p.label ??= { en: p.name };
  return s;
}

/** The page's catalogue `c` narrowed to the one user scenario `s` (its policies and retries kept). */
export function userCatalogue(c, s) {
  return { ...c, list: [s], byId: { [s.id]: s }, defaultId: s.id, runs: {} };
}

/**
 * Shows `lines` (strings) under `heading` in the element's scenario-error box, as text only; hides the
 * loading status. The box is an alert: a screen reader hears it once it appears.
 */
export function showScenarioError(root, heading, lines) {
  const box = root.ownerDocument.createElement('div');
  box.className = 'scenario-error';
  box.dataset.testid = 'scenario-error';
  box.setAttribute('role', 'alert');
  const h = root.ownerDocument.createElement('p');
  h.className = 'scenario-error-title';
  h.textContent = heading;
  const list = root.ownerDocument.createElement('ul');
  for (const line of lines) {
    const li = root.ownerDocument.createElement('li');
    li.textContent = line;
    list.append(li);
  }
  box.append(h, list);
  // A fence's text under its errors, so each line and column can be found (the element's source child).
  if (root.host?.querySelector(':scope > [slot="source"]')) box.append(Object.assign(root.ownerDocument.createElement('slot'), { name: 'source' }));
  const status = root.getElementById('status');
  if (status) status.hidden = true;
  root.getElementById('fallback')?.remove();
  root.getElementById('lab').prepend(box);
}

/**
 * Reads, parses and test-runs element `el`'s own scenario (language `lang`), so the lab can start from it:
 * resolves to `(c) => catalogue` (userCatalogue for the page's catalogue). If the text cannot be had,
 * does not parse, or does not run at its defaults (a limit), shows why in the element and rejects with
 * an error the caller need not show again (`shown`).
 */
export async function prepareOwnScenario(el, root, lang) {
  const d = await loadLang(lang || 'en');
  const fail = (heading, lines) => {
    showScenarioError(root, heading, lines);
    const e = new Shown(heading);
    e.shown = true;
    return e;
  };
  let text;
  try {
    text = await scenarioText(el, d);
  } catch (e) {
    throw fail(d.scenarioUnavailable, [e.message]);
  }
  // A client that calls a lock library runs only on the clients build, which has no parser: this page
  // cannot run the text, so it says where it runs instead of loading a build that would refuse it.
  const lib = libraryIn(text);
  if (lib) {
    await loadLibraryWords(); // the words for it are the libraries' (into `d`, in place)
    throw fail(d.scenarioUnavailable, [fmt(d.scenarioNeedsLibraries, { lib })]);
  }
  // The main thread loads the user build for the lab meanwhile; the first run happens in the worker.
  userBuild().catch(() => {});
  const { parsed, runError } = await tryText(text);
  if (parsed.errors) {
    const lines = parsed.errors.map((x) => fmt(d.scenarioErrorAt, { line: x.line, col: x.col, msg: x.message }));
    throw fail(d.scenarioErrors, lines);
  }
  if (runError) throw fail(d.scenarioDoesNotRun, [runError]);
  const s = userEntry(parsed.scenario, text);
  return (c) => userCatalogue(c, s);
}
