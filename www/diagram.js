// The space-time diagram's painting: fills an <svg> from a layout (layout.js, which decides where
// everything goes), plus a cheap setTime(t) that moves the playhead and greys out the future.
// drawDiagram(svg, run, opts) is both steps at once, for the lab, the no-JS fallback and the tests.
import { layoutDiagram } from './layout.js';

const NS = 'http://www.w3.org/2000/svg';
const EPS = 1e-6;

function el(parent, name, attrs = {}, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) if (attrs[k] != null) e.setAttribute(k, attrs[k]);
  if (text != null) e.textContent = text;
  parent.appendChild(e);
  return e;
}

/** Arrowheads and patterns (no colour-only cues: hatching, dashes, words, ✓/✗). */
function defs(svg) {
  const g = el(svg, 'defs');
  for (const id of ['ah', 'ah-ok', 'ah-bad']) {
    const m = el(g, 'marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    el(m, 'path', { d: 'M0,0 L10,5 L0,10 z', class: id });
  }
  const hatch = el(g, 'pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  el(hatch, 'rect', { width: 6, height: 6, class: 'hatch-bg' });
  el(hatch, 'line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'hatch-line' });
  const dots = el(g, 'pattern', { id: 'dots', width: 8, height: 8, patternUnits: 'userSpaceOnUse' });
  el(dots, 'rect', { width: 8, height: 8, class: 'dots-bg' });
  el(dots, 'circle', { cx: 2, cy: 2, r: 1.1, class: 'dots-dot' });
}

/**
 * Paints layout `L` (layoutDiagram's) into `svg`, titled by dictionary `d`; `id` prefixes the title's
 * and description's ids. Returns { tMax, setTime(t) }.
 */
export function paintDiagram(svg, L, d, id = 'svg') {
  svg.replaceChildren();
  el(svg, 'title', { id: `${id}-title` }, d.svgTitle);
  el(svg, 'desc', { id: `${id}-desc` }, L.desc || d.svgDesc);
  svg.setAttribute('viewBox', `0 0 ${L.W} ${L.H}`);
  svg.setAttribute('font-size', L.fs);
  if (L.narrow) svg.classList.add('narrow');
  else svg.classList.remove('narrow');
  defs(svg);
  for (const it of L.items) el(svg, it.tag, it.attrs, it.text);
  // The playhead: a veil over the future and a line at "now".
  const { x0, x1, head, axisY } = L;
  const veil = el(svg, 'rect', { x: x1, y: head - 4, width: 0, height: axisY - head + 4, class: 'future' });
  const line = el(svg, 'line', { x1: x1, x2: x1, y1: head - 4, y2: axisY, class: 'playhead' });
  const knob = el(svg, 'path', { d: '', class: 'playhead-knob' });
  return {
    /** The time at the right edge (to line up another diagram with this one). */
    tMax: L.tMax,
    /** Moves the playhead to sim time t (t < 0: before the run starts, everything veiled). */
    setTime(t) {
      const x = Math.min(x1, t < 0 ? x0 - 6 : L.sx(t));
      const atEnd = t >= L.end - EPS;
      veil.setAttribute('x', x);
      veil.setAttribute('width', atEnd ? 0 : Math.max(0, x1 - x));
      line.setAttribute('x1', x);
      line.setAttribute('x2', x);
      knob.setAttribute('d', `M${x - 5},${axisY} L${x + 5},${axisY} L${x},${axisY - 7} z`);
      // At the end the whole run is shown; a line there would only hide the last arrows.
      line.classList.toggle('done', atEnd);
      knob.classList.toggle('done', atEnd);
    },
  };
}

/**
 * Lays `run` out and paints it into `svg`. opts: { width, d (dictionary), num (number formatter),
 * lang, id, mark, tFix, measure } (see layoutDiagram). Returns { tMax, setTime(t) }.
 */
export function drawDiagram(svg, run, opts) {
  return paintDiagram(svg, layoutDiagram(run, opts), opts.d, opts.id);
}
