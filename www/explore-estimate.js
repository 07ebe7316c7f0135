// explore.html's probability mode: the form (presets, pause distribution, contender, TTL, retry, work,
// policy, operations, seed), the Monte Carlo estimate run in the worker (explore-wasm.js starts it) with
// progress and Cancel, and the result in the reader's language. The presets, where the form starts and
// the bounds of its numbers are the crate's (explore-wasm.js's loadEstimateForm): the page refuses what
// the estimator would, and starts where `leaselab estimate` does.
import { fmt } from './i18n.js';
import { $, q, st, writeUrl } from './explore-state.js';
import { estimateWorker, loadEstimateForm } from './explore-wasm.js';

const prob = { worker: null, id: 0, total: 0, last: null, state: 'idle', spec: null, form: null };

/** An input's bounds, [min, max]. */
function bound(id, [min, max]) {
  $(id).min = min;
  $(id).max = max;
}

/** The form's presets, starting values and bounds from the crate; the seed from the address. */
function fillForm(form) {
  const def = form.default;
  const sel = $('preset');
  sel.add(new Option('', ''));
  for (const p of form.presets) sel.add(new Option(p.id, p.id, false, p.id === def.preset));
  $('dist').value = def.dist;
  $('dist-a').value = def.a;
  $('dist-b').value = def.b;
  bound('dist-a', form.limits.pause_ms);
  for (const [id, key] of [['p-ttl', 'ttl_ms'], ['p-retry', 'retry_ms'], ['p-work', 'work_ms'], ['p-seed', 'seed']]) {
    bound(id, form.limits[key]);
    $(id).value = def[key];
  }
  // The rate field's lower end is the page's own (a positive rate: 0 is the other button, always waiting).
  $('rate').max = form.limits.rate_per_s[1];
  if (def.rate_per_s > 0) {
    $('poisson').checked = true;
    $('rate').value = def.rate_per_s;
    $('rate').disabled = false;
  }
  if (q.get('seed') !== null && /^\d+$/.test(q.get('seed'))) $('p-seed').value = q.get('seed');
}

/** Fills the form from the crate and the address, and listens to it. */
export function initProb() {
  prob.form = loadEstimateForm();
  fillForm(prob.form);
  const sel = $('preset');
  const preset = () => prob.form.presets.find((o) => o.id === sel.value);
  sel.addEventListener('change', () => {
    const p = preset();
    if (p) {
      $('dist').value = p.dist;
      $('dist-a').value = p.a;
      $('dist-b').value = p.b;
    }
    distFields();
    presetSource();
  });
  for (const id of ['dist', 'dist-a', 'dist-b']) {
    $(id).addEventListener('input', () => {
      const p = preset();
      if (p && !(p.dist === $('dist').value && Number($('dist-a').value) === p.a && Number($('dist-b').value) === p.b)) sel.value = '';
      distFields();
      presetSource();
    });
  }
  for (const r of document.querySelectorAll('input[name=contender]')) r.addEventListener('change', () => ($('rate').disabled = !$('poisson').checked));
  $('prob-form').addEventListener('submit', (e) => {
    e.preventDefault();
    runEstimate();
  });
  $('p-cancel').addEventListener('click', cancelEstimate);
}

/** The form's words that depend on its state, in the reader's language: presets, labels, the source. */
export function renderForm() {
  const x = st.d.x;
  for (const o of $('preset').options) o.textContent = o.value ? x.presets[o.value] || o.value : x.custom;
  distFields();
  presetSource();
}

/** What depends on the distribution: its parameters' names, and the shape's or sigma's bounds. */
function distFields() {
  const x = st.d.x;
  const dist = $('dist').value;
  const pareto = dist === 'pareto';
  $('a-label').textContent = pareto ? x.scaleMs : x.medianMs;
  $('b-label').textContent = pareto ? x.shape : x.sigma;
  if (prob.form) bound('dist-b', prob.form.limits[dist]);
}

function presetSource() {
  const id = $('preset').value;
  $('preset-source').textContent = id ? st.d.x.sources[id] || '' : st.d.x.customSource;
}

function worker() {
  prob.worker ??= estimateWorker(onWorker, (e) => finish('error', e.message || 'worker failed'));
  return prob.worker;
}

function runEstimate() {
  const form = $('prob-form');
  if (!form.reportValidity()) return;
  const always = $('always').checked;
  const spec = {
    policy: $('p-policy').value,
    ttl: Number($('p-ttl').value),
    retry: Number($('p-retry').value),
    work: Number($('p-work').value),
    dist: $('dist').value,
    a: Number($('dist-a').value),
    b: Number($('dist-b').value),
    rate: always ? 0 : Number($('rate').value),
    seed: Number($('p-seed').value),
    ops: Number($('p-ops').value),
    perDay: Number($('p-day').value),
  };
  prob.spec = spec;
  prob.total = spec.ops;
  prob.last = null;
  prob.id += 1;
  prob.state = 'running';
  writeUrl({ seed: spec.seed });
  $('p-run').disabled = true;
  $('p-cancel').disabled = false;
  $('p-progress').max = spec.ops;
  $('p-progress').value = 0;
  $('p-progress-text').textContent = st.d.x.running;
  $('p-result').textContent = '';
  document.body.dataset.estimate = 'running';
  worker().postMessage({ type: 'run', id: prob.id, ops: spec.ops, args: [spec.policy, spec.ttl, spec.retry, spec.work, spec.dist, spec.a, spec.b, spec.rate, spec.seed] });
}

function cancelEstimate() {
  if (prob.state !== 'running') return;
  prob.worker.postMessage({ type: 'cancel', id: prob.id });
  $('p-cancel').disabled = true;
}

function onWorker(e) {
  const m = e.data;
  if (m.id !== prob.id || prob.state !== 'running') return;
  if (m.type === 'error') return finish('error', m.message);
  prob.last = m.result;
  $('p-progress').value = m.result[0];
  $('p-progress-text').textContent = fmt(st.d.x.progress, { done: group(m.result[0]), total: group(prob.total) });
  if (m.type === 'done' || m.type === 'cancelled') finish(m.type);
}

function finish(state, message = '') {
  prob.state = state;
  prob.message = message;
  $('p-run').disabled = false;
  $('p-cancel').disabled = true;
  document.body.dataset.estimate = state;
  renderResult();
}

const group = (n) => Math.round(n).toLocaleString(st.lang === 'bn' ? 'bn-u-nu-latn' : 'en');
/** 2.80 × 10⁻⁶ for small numbers, plain for moderate ones. */
function sci(v) {
  if (!Number.isFinite(v)) return '—';
  if (v === 0) return '0';
  if (v >= 0.01 && v < 1e5) return String(Number(v.toPrecision(3)));
  const [m, ex] = v.toExponential(2).split('e');
  const sup = String(Number(ex)).replace(/[-0-9]/g, (c) => '⁻⁰¹²³⁴⁵⁶⁷⁸⁹'['-0123456789'.indexOf(c)]);
  return `${m} × 10${sup}`;
}

/** The last estimate's result (or its error, or what a cancel left), in the reader's language. */
export function renderResult() {
  const out = $('p-result');
  const x = st.d.x;
  if (prob.state === 'idle' || prob.state === 'running') return;
  if (prob.state === 'error') {
    out.textContent = fmt(x.badInput, { msg: prob.message });
    $('p-progress-text').textContent = '';
    return;
  }
  const r = prob.last;
  if (!r) {
    out.textContent = fmt(x.cancelled, { done: 0, total: group(prob.total) });
    return;
  }
  const [ops, lost, simulated, over, p, low, high, analytic] = r;
  const sp = prob.spec;
  Object.assign(out.dataset, { ops, lost, simulated, overRange: over, p, low, high, analytic, state: prob.state });
  const lines = [];
  if (prob.state === 'cancelled') lines.push(fmt(x.cancelled, { done: group(ops), total: group(prob.total) }));
  lines.push(fmt(x.resP, { p: sci(p), lo: sci(low), hi: sci(high), lost: group(lost), ops: group(ops) }));
  lines.push(fmt(x.resDay, { day: group(sp.perDay), e: sci(p * sp.perDay), lo: sci(low * sp.perDay), hi: sci(high * sp.perDay) }));
  if (lost === 0) lines.push(fmt(x.zeroNote, { ops: group(ops) }));
  lines.push(fmt(x.resDerived, { a: sci(analytic) }));
  const dist = fmt(sp.dist === 'pareto' ? x.distPareto : x.distLognormal, { a: sp.a, b: sp.b });
  const who = sp.rate === 0 ? x.whoAlways : fmt(x.whoRate, { r: sp.rate });
  lines.push(fmt(x.resSettings, { dist, who, ttl: sp.ttl, policy: st.d.policies[sp.policy] || sp.policy, seed: sp.seed, sim: group(simulated), over: group(over) }));
  out.textContent = '';
  lines.forEach((t, i) => {
    const para = document.createElement('p');
    para.textContent = t;
    if (i === lines.length - 2) para.className = 'derived';
    if (i === lines.length - 1) para.className = 'note';
    out.append(para);
  });
  $('p-progress-text').textContent = fmt(x.progress, { done: group(ops), total: group(prob.total) });
}
