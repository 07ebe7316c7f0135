// explore.html: (1) the phase diagram — a grid of complete runs over two parameters, computed by
// Simulation.sweep of the wasm built with the `estimate` feature (pkg/leaselab_mc.js: the lab page's wasm
// leaves sweeps out for size) a few rows at a time so the page never blocks, drawn as two heat maps
// (one per policy), each cell linking to the lab; (2) probability mode — the Monte Carlo estimator of
// that same wasm, run in a module Web Worker (explore-worker.js). No simulation logic here: JS draws
// and drives. This module starts the page and owns its language; the rest, one job each:
//   explore-state.js     the address, the language's dictionary, the catalogue, the lab's links
//   explore-wasm.js      this page's wasm and the estimate's worker
//   explore-phase.js     the phase diagram's controls, sweeps, cursor and exports
//   explore-map.js       one heat map drawn as SVG, and its geometry
//   explore-estimate.js  probability mode: the form, the worker's runs, the result
import { languages, fmt } from './i18n.js';
import { en as enX } from './explore-i18n.js';
import { $, st, dict, labUrl, scenarioTitle, writeUrl } from './explore-state.js';
import { loadCore } from './explore-wasm.js';
import { fillAxisOptions, initPhase, renderMaps, sweepAll } from './explore-phase.js';
import { initProb, renderForm, renderResult } from './explore-estimate.js';

async function start() {
  $('status').hidden = false;
  const [core, d] = await Promise.all([loadCore(), dict(st.lang)]);
  st.core = core;
  st.d = d;
  const langSel = $('lang');
  for (const [code, name] of Object.entries(languages)) langSel.add(new Option(name, code, false, code === st.lang));
  langSel.addEventListener('change', async () => {
    st.lang = langSel.value;
    st.d = await dict(st.lang);
    writeUrl({ lang: st.lang === 'en' ? null : st.lang });
    renderStatic();
    renderMaps();
    renderResult();
  });
  initPhase();
  initProb();
  renderStatic();
  $('status').hidden = true;
  $('lang-field').hidden = false;
  $('phase').hidden = false;
  $('prob').hidden = false;
  await sweepAll();
}

/** Every fixed word on the page in the reader's language (data-x elements, scenario and policy names). */
function renderStatic() {
  const { d } = st;
  const x = d.x;
  document.documentElement.lang = st.lang;
  document.title = x.docTitle;
  for (const el of document.querySelectorAll('[data-x]')) {
    const v = x[el.dataset.x];
    if (typeof v === 'string') el.textContent = v;
  }
  $('back').href = labUrl({});
  $('matrix-link').href = st.lang === 'en' ? 'matrix.html' : `matrix.html?lang=${st.lang}`;
  // Scenario titles and policy names in the reader's language.
  for (const o of $('scenario').options) o.textContent = scenarioTitle(st.core.byId[o.value]);
  for (const sel of document.querySelectorAll('select.policy')) for (const o of sel.options) o.textContent = d.policies[o.value] || o.value;
  fillAxisOptions();
  renderForm();
}

start().catch((e) => {
  const el = $('status');
  el.hidden = false;
  el.className = 'status error';
  el.textContent = fmt((st.d && st.d.x.loadError) || enX.loadError, { msg: e && e.message ? e.message : String(e) });
});
