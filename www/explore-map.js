// Drawing one heat map of the phase diagram as SVG: the cells (coloured and patterned by outcome), the
// axes, the setting the reader came from and the cursor; the legend's swatches; and the map's geometry
// (which cell is under a point, where the cursor goes). No state and no text of its own: the words come in.

export const SVGNS = 'http://www.w3.org/2000/svg';
/** Outcome codes from Simulation.sweep: 0 safe, 1 safe with a write rejected, 2 + i client i's update lost. */
const KINDS = ['safe', 'rejected', 'lost-a', 'lost-b', 'lost-other'];
const kindOf = (code) => KINDS[Math.min(code, 4)];
/** Fill and pattern per outcome: colour and a symbol, so no outcome is told by colour alone. */
const LOOK = {
  safe: { bg: '#dafbe1', ink: '#1a7f37', mark: '' },
  rejected: { bg: '#cfe2ff', ink: '#0a58ca', mark: 'dot' },
  'lost-a': { bg: '#ffe2b3', ink: '#8a4b00', mark: 'back' },
  'lost-b': { bg: '#ffd8d3', ink: '#b42318', mark: 'slash' },
  'lost-other': { bg: '#e9d7fe', ink: '#6e40c9', mark: 'grid' },
};

// Geometry of one map, in SVG user units (the SVG scales to its box).
const G = { left: 58, top: 8, plot: 360, bottom: 44, right: 24 }; // right: room for the last x tick's label

function patternDefs(prefix) {
  const line = (ink, d) => `<path d="${d}" stroke="${ink}" stroke-width="1.3" fill="none"/>`;
  return Object.entries(LOOK)
    .map(([kind, { bg, ink, mark }]) => {
      const body =
        mark === 'slash' ? line(ink, 'M-1,7 L7,-1 M-1,15 L15,-1 M7,15 L15,7') :
        mark === 'back' ? line(ink, 'M-1,1 L7,9 M-1,-7 L15,9 M7,-7 L15,1') + line(ink, 'M-1,7 L7,-1 M-1,15 L15,-1 M7,15 L15,7') :
        mark === 'dot' ? `<circle cx="4" cy="4" r="1.4" fill="${ink}"/>` :
        mark === 'grid' ? line(ink, 'M0,4 H8 M4,0 V8') : '';
      return `<pattern id="${prefix}-${kind}" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" fill="${bg}"/>${body}</pattern>`;
    })
    .join('');
}
const fillOf = (prefix, code) => `url(#${prefix}-${kindOf(code)})`;

/** The legend's swatch for outcome `code`: a small SVG square in that outcome's fill. */
export function swatch(code) {
  const svg = document.createElementNS(SVGNS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  svg.innerHTML = `<defs>${patternDefs('lg')}</defs><rect x="0.5" y="0.5" width="15" height="15" fill="${fillOf('lg', code)}" stroke="#57606a"/>`;
  return svg;
}

/** One row of the map as rects, one per run of equal outcomes (see drawMap). */
function rowRects(prefix, codes, nx, yi, y, cw, ch) {
  const parts = [];
  for (let x0 = 0; x0 < nx; ) {
    const code = codes[yi * nx + x0];
    let x1 = x0 + 1;
    while (x1 < nx && codes[yi * nx + x1] === code) x1++;
    parts.push(`<rect class="run" data-yi="${yi}" data-x0="${x0}" data-len="${x1 - x0}" data-code="${code}" x="${(G.left + x0 * cw).toFixed(2)}" y="${y.toFixed(2)}" width="${((x1 - x0) * cw + 0.05).toFixed(2)}" height="${(ch + 0.05).toFixed(2)}" fill="${fillOf(prefix, code)}"/>`);
    x0 = x1;
  }
  return parts.join('');
}

/** Draws one map: cells, axes with units, ticks, the current setting's mark and the cursor.
 *  `g` is the grid ({xs, ys, current: {x, y}}), `m` its map ({codes}), `labels` the axes' names. */
export function drawMap(svg, prefix, m, g, labels) {
  const { xs, ys } = g;
  const nx = xs.length;
  const ny = ys.length;
  const W = G.left + G.plot + G.right;
  const H = G.top + G.plot + G.bottom;
  const cw = G.plot / nx;
  const ch = G.plot / ny;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  // One rect per run of equal outcomes along a row (a few per row, not one per cell: thousands of
  // patterned SVG elements take hundreds of milliseconds to lay out and paint). Hit-testing is by
  // coordinates; each run says which cells it covers (data-yi, data-x0, data-len).
  const parts = [`<defs>${patternDefs(prefix)}</defs><g class="cells">`];
  for (let yi = 0; yi < ny; yi++) parts.push(rowRects(prefix, m.codes, nx, yi, G.top + G.plot - (yi + 1) * ch, cw, ch));
  parts.push('</g>');
  // Axes: a frame, five ticks each, the parameters' names with their unit.
  parts.push(`<rect class="x-frame" x="${G.left}" y="${G.top}" width="${G.plot}" height="${G.plot}" fill="none"/>`);
  const ticks = (n) => [...new Set([0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * (n - 1))))];
  for (const xi of ticks(nx)) {
    const cx = G.left + (xi + 0.5) * cw;
    parts.push(`<line class="x-tick" x1="${cx}" x2="${cx}" y1="${G.top + G.plot}" y2="${G.top + G.plot + 4}"/><text class="x-tick-label" x="${cx}" y="${G.top + G.plot + 16}" text-anchor="middle">${xs[xi]}</text>`);
  }
  for (const yi of ticks(ny)) {
    const cy = G.top + G.plot - (yi + 0.5) * ch;
    parts.push(`<line class="x-tick" x1="${G.left - 4}" x2="${G.left}" y1="${cy}" y2="${cy}"/><text class="x-tick-label" x="${G.left - 6}" y="${cy + 4}" text-anchor="end">${ys[yi]}</text>`);
  }
  parts.push(`<text class="axis-label" x="${G.left + G.plot / 2}" y="${H - 6}" text-anchor="middle">${esc(labels.x)} (ms)</text>`);
  parts.push(`<text class="axis-label" transform="translate(14 ${G.top + G.plot / 2}) rotate(-90)" text-anchor="middle">${esc(labels.y)} (ms)</text>`);
  // The setting the reader came from, at its exact place (it may fall between cells).
  const pos = (vs, v, n, size) => {
    const i = vs.length > 1 ? (v - vs[0]) / (vs[1] - vs[0]) : 0;
    return Math.min(n - 0.5, Math.max(-0.5, i)) * size + size / 2;
  };
  const mx = G.left + pos(xs, g.current.x, nx, cw);
  const my = G.top + G.plot - pos(ys, g.current.y, ny, ch);
  parts.push(`<g class="current" aria-hidden="true"><circle cx="${mx}" cy="${my}" r="7" fill="none" stroke="#fff" stroke-width="4"/><circle cx="${mx}" cy="${my}" r="7" fill="none" stroke="#1b1f24" stroke-width="2"/><circle cx="${mx}" cy="${my}" r="1.8" fill="#1b1f24"/></g>`);
  parts.push(`<rect class="cursor" x="0" y="0" width="${cw}" height="${ch}" fill="none" visibility="hidden"/>`);
  svg.innerHTML = parts.join('');
  svg.dataset.nx = nx;
  svg.dataset.ny = ny;
  svg.dataset.cells = m.codes.length;
}

const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The cell of grid `g` under the client point (x, y) of `svg`: {xi, yi}, or null outside the plot. */
export function cellAt(svg, g, x, y) {
  const ctm = svg.getScreenCTM();
  if (!ctm) return null;
  const p = new DOMPoint(x, y).matrixTransform(ctm.inverse());
  const xi = Math.floor(((p.x - G.left) / G.plot) * g.xs.length);
  const yi = Math.floor(((G.top + G.plot - p.y) / G.plot) * g.ys.length);
  if (xi < 0 || yi < 0 || xi >= g.xs.length || yi >= g.ys.length) return null;
  return { xi, yi };
}

/** Outlines cell (xi, yi) of grid `g` with the map's cursor rect, marked active or not. */
export function placeCursor(svg, g, xi, yi, active) {
  const c = svg.querySelector('rect.cursor');
  if (!c) return;
  c.setAttribute('x', G.left + xi * (G.plot / g.xs.length));
  c.setAttribute('y', G.top + G.plot - (yi + 1) * (G.plot / g.ys.length));
  c.setAttribute('visibility', 'visible');
  c.classList.toggle('active', active);
}
