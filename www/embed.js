// embed.html: one <lease-lab> filling the frame, for hosts that only allow iframes. It takes the page's
// query parameters (and the element's presentation ones) as the element's attributes; nothing else
// from the address reaches the DOM.
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
    document.body.append(el);
  },
  () => document.body.append(el), // the element says what went wrong
);
