// The "Find a failure" panel's arithmetic, pure (no DOM, no wasm) so plain Node can test it: how a grid
// is cut into slices for the Web Workers, and how their answers combine into the answer for the whole
// grid — the same one `leaselab search` gives. A grid is a list of dimensions {name, from, to, step}
// (whole milliseconds), in the order the reader listed them, which is the tie order.

/** How many values a dimension takes: from, from + step, … up to to. */
export const countOf = (d) => Math.floor((d.to - d.from) / d.step) + 1;

/** Points in the grid. */
export const combinationsOf = (dims) => dims.reduce((n, d) => n * countOf(d), 1);

/**
 * The grid cut along its first dimension into slices, cheapest first: [{lo, hi}] as indices of the
 * first dimension, inclusive, none wider than a `n`th of it. The first slices are narrow (1, 1, 2, 2,
 * 4, 4 … values): the cheapest points are there, so a counterexample found in them soon bounds what
 * the slices after them look for (costMaxFor) — slices started together, before any is found, search
 * without that bound, and narrow ones waste little. More slices than workers also lets the progress
 * bar move and a late slice be skipped.
 */
export function slicesOf(dims, n) {
  const count = countOf(dims[0]);
  const widest = Math.max(1, Math.ceil(count / Math.max(1, n)));
  const out = [];
  for (let lo = 0, width = 1; lo < count; ) {
    const hi = Math.min(count, lo + Math.min(width, widest)) - 1;
    out.push({ lo, hi });
    lo = hi + 1;
    if (out.length % 2 === 0) width *= 2;
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
 * A slice's answer from the wasm (Found::numbers: `[combinations, runs, cost, index…, b, key…]`, in
 * the slice's own indices; `d` dimensions) as {combinations, runs, counterexample: null | {cost,
 * index}, behaviours: null | ['hi:lo'…]} in the whole grid's: the first index, and so the cost, move
 * up by the slice's start. The cost stays Σ (value − FROM) / STEP over the ORIGINAL ranges.
 * `behaviours`: the slice's distinct behaviour keys (each a u64 sent as two u32), null when the
 * slice did not decide every point — keys, so that slices can be united (counts would not add up).
 */
export function sliceAnswer(slice, out, d) {
  const v = Array.from(out);
  const [combinations, runs, cost] = v;
  let at = 3;
  let counterexample = null;
  if (cost >= 0) {
    const index = v.slice(at, at + d);
    index[0] += slice.lo;
    counterexample = { cost: cost + slice.lo, index };
    at += d;
  }
  const b = v[at++];
  const behaviours = b < 0 ? null : Array.from({ length: b }, (_, i) => `${v[at + 2 * i]}:${v[at + 2 * i + 1]}`);
  return { combinations, runs, counterexample, behaviours };
}

/**
 * The most a counterexample in `slice` may cost, in the slice's own indices, to beat `best` (the best
 * found so far in other slices, in the whole grid's): null with no best yet (no bound); below 0 when
 * nothing in the slice can beat it (skip the slice). A best in an earlier slice wins a tie, so only a
 * smaller cost beats it; one in a later slice loses a tie (its first index is larger).
 */
export function costMaxFor(slice, best) {
  if (!best) return null;
  const cost = best.index[0] < slice.lo ? best.cost - 1 : best.cost;
  return cost - slice.lo;
}

/** Whether a slice can be skipped given the best counterexample so far (see costMaxFor). */
export const skippable = (slice, best) => Boolean(best) && costMaxFor(slice, best) < 0;

/**
 * The answers of the slices combined: {combinations, runs, counterexample: null | {cost, index,
 * values: [ms…]}, behaviours: null | n}. `skipped` counts the points of the slices that were not
 * searched (they cannot hold a smaller counterexample). `behaviours` is the number of distinct
 * behaviour keys over all slices (their union), null when some point was left undecided (a skipped
 * slice, or a slice that stopped looking past a counterexample).
 */
export function combine(dims, answers, skipped = 0) {
  let best = null;
  let combinations = skipped;
  let runs = 0;
  let keys = skipped > 0 ? null : new Set();
  for (const a of answers) {
    combinations += a.combinations;
    runs += a.runs;
    if (a.counterexample && smaller(a.counterexample, best)) best = a.counterexample;
    if (!a.behaviours) keys = null;
    else if (keys) for (const k of a.behaviours) keys.add(k);
  }
  const counterexample = best && { ...best, values: best.index.map((i, k) => dims[k].from + i * dims[k].step) };
  return { combinations, runs, counterexample, behaviours: keys ? keys.size : null };
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
