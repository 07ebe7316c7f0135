// The page (index.html): one Lab bound to the document, every control shown, its settings read from and
// kept in the address bar. The lab itself (state, rendering, playback) lives in lab.js, shared with
// the <lease-lab> element.
import { Lab } from './lab.js';
import { loadLang } from './i18n.js';

function query() {
  try {
    return new URLSearchParams(location.search);
  } catch {
    return new URLSearchParams(); // sandboxed iframes may refuse access to location
  }
}

const q = query();
const status = document.getElementById('status');
status.hidden = false; // hidden in the HTML, where it would stay forever without scripts
let urlTimer = 0;

const lab = new Lab(document, {
  mount: document.getElementById('mount'),
  page: true,
  // A safety table cell's link (matrix.html): its run, faults injected (injected.js, loaded only then).
  catalogue: q.has('inject') ? (start) => import('./injected.js').then((m) => m.injectedOr(start, q, lab)) : null,
  autoplay: true,
  get: (name) => q.get(name),
  link: () => location.href,
  // Debounced while a slider is dragged; at once when it settles or a choice is made.
  onChange(now) {
    clearTimeout(urlTimer);
    if (now) writeUrl();
    else urlTimer = setTimeout(writeUrl, 150);
  },
});

/** learn.html, author.html and matrix.html in the reader's language. */
function langLinks() {
  for (const id of ['learn-link', 'author-link', 'matrix-link']) document.getElementById(id).search = lab.state.lang === 'en' ? '' : `lang=${lab.state.lang}`;
}

/** Writes the non-default settings into the address bar, keeping any other parameters it has. */
function writeUrl() {
  try {
    const url = new URLSearchParams(location.search);
    for (const k of lab.names) url.delete(k);
    for (const [k, v] of lab.params()) url.set(k, v);
    const s = url.toString();
    history.replaceState(history.state, '', `${location.pathname}${s ? `?${s}` : ''}${location.hash}`);
    // explore.html marks this setting on its phase diagram.
    document.getElementById('explore-link').search = s;
    langLinks();
  } catch {
    // Sandboxed iframe or file: URL without history — the page keeps working without it.
  }
}

// Even the loading message in the reader's language, once its dictionary is here.
loadLang(q.get('lang') || 'en').then((d) => {
  if (!lab.run) status.textContent = d.loading;
});
lab.start().then(
  () => {
    status.hidden = true;
    document.getElementById('lang-field').hidden = false;
    document.getElementById('explore-link').search = q.toString();
    langLinks();
  },
  (e) => lab.showError(e),
);
