// The host page's own light or dark mode, for <lease-lab theme="auto">. Docs sites switch their
// palette with a toggle, not only by the reader's system setting, and mark it on <html> or <body>; a
// lab that followed only prefers-color-scheme stayed white on a dark page. Read live: one
// MutationObserver on those two elements' attributes and one media query listener, however many labs.
//
// What each site generator marks (light / dark):
//   MkDocs Material    data-md-color-scheme="default" / "slate" (on body)
//   Docusaurus, Starlight, pydata   data-theme="light" / "dark" on html
//   furo (Sphinx)      data-theme="light" / "dark" on body ("auto": the system's)
//   VitePress          class "dark" on html, none when light (known by its generator meta tag)
//   mdBook             class on html: "light", "rust" / "coal", "navy", "ayu"
//   Tailwind and many  class "dark" / "light" on html
// Anything else: the reader's prefers-color-scheme.

const DARK_CLASSES = ['dark', 'coal', 'navy', 'ayu'];
const LIGHT_CLASSES = ['light', 'rust'];
const ATTRIBUTES = ['class', 'data-theme', 'data-md-color-scheme', 'data-bs-theme'];

/** A data-theme–like value as a scheme, or null when it does not say (e.g. furo's "auto"). */
const word = (v) => (v === 'dark' || v === 'light' ? v : null);

/** What one element (html or body) says, or null. */
function markOf(el) {
  if (!el) return null;
  const md = el.getAttribute('data-md-color-scheme');
  if (md === 'slate') return 'dark';
  if (md === 'default') return 'light';
  const t = word(el.getAttribute('data-theme')) || word(el.getAttribute('data-bs-theme'));
  if (t) return t;
  if (DARK_CLASSES.some((c) => el.classList.contains(c))) return 'dark';
  if (LIGHT_CLASSES.some((c) => el.classList.contains(c))) return 'light';
  return null;
}

/** The host's scheme as its own switch sets it: 'dark', 'light', or null (it does not say). */
export function hostScheme(doc = document) {
  const said = markOf(doc.body) || markOf(doc.documentElement);
  if (said) return said;
  // VitePress marks only dark; its light mode is the absence of the class.
  const gen = doc.querySelector('meta[name="generator"]')?.content || '';
  return /^VitePress/i.test(gen) ? 'light' : null;
}

const systemDark = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;

/** The scheme a lab with theme="auto" shows: the host's, else the reader's system setting. */
export function autoScheme(doc = document) {
  return hostScheme(doc) || (systemDark?.matches ? 'dark' : 'light');
}

const listeners = new Set();
let observer = null;

function notify() {
  for (const fn of listeners) fn();
}

/** Calls fn whenever the host's marks or the system setting change; returns the unsubscribe. */
export function watchScheme(fn) {
  if (!observer && typeof MutationObserver === 'function') {
    observer = new MutationObserver(notify);
    for (const el of [document.documentElement, document.body]) {
      if (el) observer.observe(el, { attributes: true, attributeFilter: ATTRIBUTES });
    }
    systemDark?.addEventListener('change', notify);
  }
  listeners.add(fn);
  return () => listeners.delete(fn);
}
