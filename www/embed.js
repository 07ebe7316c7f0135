// embed.html: one <lease-lab> filling the frame, for hosts that only allow iframes. It takes the page's
// query parameters (and the element's presentation ones) as the element's attributes; nothing else
// from the address reaches the DOM. It tells its parent page how tall the lab is, whenever that
// changes, for lease-lab-frame.js there to size the frame (docs/embedding.md).
import { loadStart } from './lab.js';
import { settingNames } from './settings.js';
import './lease-lab.js';

let q;
try {
  q = new URLSearchParams(location.search);
} catch {
  q = new URLSearchParams(); // a sandboxed frame may refuse access to location
}
const el = document.createElement('lease-lab');
el.className = 'frame';
const allowed = new Set(['controls', 'theme', 'autoplay', 'height']);
loadStart().then(
  (c) => {
    for (const n of settingNames(c)) allowed.add(n);
    for (const [k, v] of q) if (allowed.has(k)) el.setAttribute(k, v);
    show();
  },
  show, // the element says what went wrong
);

function show() {
  document.body.append(el);
  if (window.parent !== window && !el.hasAttribute('height')) postHeight();
}

/**
 * Posts { type: 'leaselab:height', height } to the parent now and on every change. The height is the
 * lab's content, measured to the bottom of its last part: the frame's own min-height (100vh, so that a
 * frame without the resizer is filled) would otherwise feed the frame's height back into it.
 */
function postHeight() {
  const lab = el.shadowRoot.getElementById('lab');
  let said = 0;
  const measure = () => {
    const last = lab.lastElementChild;
    const pad = parseFloat(getComputedStyle(lab).paddingBottom) || 0;
    const height = Math.ceil(last.getBoundingClientRect().bottom + window.scrollY + pad);
    if (height === said) return;
    said = height;
    window.parent.postMessage({ type: 'leaselab:height', height }, '*'); // only a height: any origin may know it
  };
  const watch = new ResizeObserver(measure);
  for (const part of lab.children) watch.observe(part);
}
