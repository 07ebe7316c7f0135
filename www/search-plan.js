// The "Find a failure" panel's arithmetic, pure (no DOM, no wasm) so plain Node can test it: how a grid
// is cut into slices for the Web Workers, and how their answers combine into the answer for the whole
// grid — the same one `leaselab search` gives. A grid is a list of dimensions {name, from, to, step}
// (whole milliseconds), in the order the reader listed them, which is the tie order.

/** How many values a dimension takes: from, from + step, … up to to. */
export const countOf = (d) => Math.floor((d.to - d.from) / d.step) + 1;

/** Points in the grid. */
export const combinationsOf = (dims) => dims.reduce((n, d) => n * countOf(d), 1);

/**
 * The grid cut into `n` slices (fewer if the first dimension has fewer values) along its first
 * dimension, cheapest first: [{lo, hi}] as indices of the first dimension, inclusive. More slices than
 * workers lets the progress bar move and a late slice be skipped when an earlier one has already found
 * a cheaper counterexample.
 */
export function slicesOf(dims, n) {
  const count = countOf(dims[0]);
  const k = Math.max(1, Math.min(n, count));
  const out = [];
  for (let i = 0; i < k; i++) {
    const lo = Math.floor((i * count) / k);
    const hi = Math.floor(((i + 1) * count) / k) - 1;
    out.push({ lo, hi });
  }
  return out;
}

/** The slice's own grid, as the wasm's search takes it: parallel lists, the first dimension narrowed. */
export function sliceGrid(dims, { lo, hi }) {
  const first = dims[0];
  const narrowed = [{ ...first, from: first.from + lo * first.step, to: first.from + hi * first.step }, ...dims.slice(1)];
  return {
    names: narrowed.map((d) => d.name).join(','),
    from: narrowed.map((d) => d.from),
    to: narrowed.map((d) => d.to),
    step: narrowed.map((d) => d.step),
  };
}

/** Whether counterexample a is smaller than b: less cost, then the smaller index in the dimensions' order. */
export function smaller(a, b) {
  if (!b) return true;
  if (a.cost !== b.cost) return a.cost < b.cost;
  for (let k = 0; k < a.index.length; k++) if (a.index[k] !== b.index[k]) return a.index[k] < b.index[k];
  return false;
}

/**
 * A slice's answer from the wasm (`[combinations, runs, cost, index…]`, in the slice's own indices)
 * as {combinations, runs, counterexample: null | {cost, index}} in the whole grid's: the first index,
 * and so the cost, move up by the slice's start. The cost stays Σ (value − FROM) / STEP over the
 * ORIGINAL ranges.
 */
export function sliceAnswer(slice, out) {
  const [combinations, runs, cost, ...index] = Array.from(out);
  if (cost < 0) return { combinations, runs, counterexample: null };
  index[0] += slice.lo;
  return { combinations, runs, counterexample: { cost: cost + slice.lo, index } };
}

/**
 * Whether a slice can be skipped given the best counterexample so far: every point of it costs at
 * least its first index `lo`; at a cost equal to the best's, its points come later in the tie order
 * unless the best is in it (then it has run already).
 */
export const skippable = (slice, best) => Boolean(best) && slice.lo >= best.cost;

/**
 * The answers of the slices combined: {combinations, runs, counterexample: null | {cost, index,
 * values: [ms…]}}. `skipped` counts the points of the slices that were not searched (they cannot hold
 * a smaller counterexample).
 */
export function combine(dims, answers, skipped = 0) {
  let best = null;
  let combinations = skipped;
  let runs = 0;
  for (const a of answers) {
    combinations += a.combinations;
    runs += a.runs;
    if (a.counterexample && smaller(a.counterexample, best)) best = a.counterexample;
  }
  const counterexample = best && { ...best, values: best.index.map((i, k) => dims[k].from + i * dims[k].step) };
  return { combinations, runs, counterexample };
}

/**
 * The reader's rows ({name, vary, from, to, step} as typed text) checked into dims, or the first
 * problem as {problem: key, name, field, value, min, max} (the panel words it). `range(name)` is the
 * lab's [min, max] for the parameter. Only whole milliseconds: the counterexample must be a setting
 * the lab's sliders and its link can hold.
 */
export function readGrid(rows, range) {
  const dims = [];
  for (const r of rows) {
    if (!r.vary) continue;
    const [min, max] = range(r.name);
    const d = { name: r.name };
    for (const field of ['from', 'to', 'step']) {
      const text = String(r[field]).trim();
      const v = /^\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(v)) return { problem: 'searchNotWhole', name: r.name, field, value: text };
      d[field] = v;
    }
    if (d.step === 0) return { problem: 'searchStepZero', name: r.name };
    if (d.from > d.to) return { problem: 'searchEmpty', name: r.name, from: d.from, to: d.to };
    if (d.from < min || d.to > max) return { problem: 'searchOutside', name: r.name, min, max };
    dims.push(d);
  }
  if (!dims.length) return { problem: 'searchNone' };
  return { dims };
}

/**
 * The starting range around a value: about a fifth of the slider's span either side, in 20 steps,
 * kept inside [min, max]; whole milliseconds.
 */
export function rangeAround(value, [min, max]) {
  const span = Math.max(1, Math.round((max - min) / 5));
  const step = Math.max(1, Math.round(span / 10));
  const from = Math.max(min, value - span);
  const to = Math.min(max, value + span);
  return { from, to: from + Math.floor((to - from) / step) * step, step };
}
