// What the engine smoke suite (smoke.test.mjs) opens and what it reads there. Each probe is a function
// sent as source to the page (playwright's evaluate or WebDriver's execute), so it may use only the page's
// own globals and `until(probe, what)`, which polls. Probes return plain data: the verdicts, the diagram's
// words, the phase diagram's cells and the estimate's figures, to be compared across engines.

/** A verdict box's data and words (whitespace collapsed), once the run is decided. */
function verdictIn(root) {
  const box = root.querySelector('[data-testid="outcome"][data-outcome]');
  if (!box) return null;
  return { outcome: box.dataset.outcome, final: Number(box.dataset.final), expected: Number(box.dataset.expected), text: box.textContent.replace(/\s+/g, ' ').trim() };
}

/** index.html with the seed at one policy: the select shows it and the verdict is decided. */
const indexProbe = (policy) => `async (until) => {
  const verdictIn = ${verdictIn};
  return until(() => document.getElementById('fencing')?.value === ${JSON.stringify(policy)} && verdictIn(document), 'the verdict');
}`;

/** The docs example's two labs, then a third <lease-lab> made by script with attributes; each one's
 *  verdict and the words of its diagram (no autoplay: the whole run is drawn at once). */
async function docsProbe(until) {
  const labOf = (el) => {
    const root = el.shadowRoot;
    const v = root && verdictIn(root);
    const words = root ? [...root.querySelectorAll('svg#svg text')].map((t) => t.textContent) : [];
    return v && words.length > 0 && { ...v, diagram: words.join(' | ') };
  };
  const labs = [...document.querySelectorAll('lease-lab')];
  if (labs.length !== 2) throw new Error(`the docs page has ${labs.length} labs, not 2`);
  const made = document.createElement('lease-lab');
  made.setAttribute('scenario', 'write-only-gap');
  made.setAttribute('fencing', 'first-touch');
  document.querySelector('main').append(made);
  const out = [];
  for (const [i, el] of [...labs, made].entries()) {
    const state = () => `shadow root ${Boolean(el.shadowRoot)}, verdict ${JSON.stringify(el.shadowRoot && verdictIn(el.shadowRoot))}, svg ${Boolean(el.shadowRoot?.querySelector('svg#svg'))}`;
    out.push(await until(() => labOf(el), () => `lab ${i + 1}’s verdict and diagram (${state()})`));
  }
  labs[0].scrollIntoView(); // for the screenshot
  return out;
}

/** The Monte Carlo the suite asks of explore.html: a preset whose runs do lose updates, so the figures
 *  compared are not all zero (explore.test.mjs checks the same settings against the CLI in Chromium). */
export const ESTIMATE_FORM = { preset: 'cms-full', 'p-ttl': '30000', 'p-policy': 'none', 'p-ops': '100000', 'p-seed': '7' };

/** explore.html: both phase diagrams (every run of equal outcomes, in order), then a Monte Carlo
 *  estimate with the fields of `form` (by id, in order: the preset first, as it resets the others),
 *  with its figures and its words. */
async function exploreProbe(until, form) {
  await until(() => document.body.dataset.phase === 'ready', 'the phase diagram');
  const maps = {};
  for (const id of ['map-a', 'map-b']) {
    const svg = document.querySelector(`#${id} svg`);
    const runs = [...svg.querySelectorAll('rect.run')].map((r) => `${r.dataset.yi}:${r.dataset.x0}+${r.dataset.len}:${r.getAttribute('class')}`);
    const cells = runs.reduce((n, r) => n + Number(r.split('+')[1].split(':')[0]), 0);
    maps[id] = { nx: Number(svg.dataset.nx), ny: Number(svg.dataset.ny), cells, runs: runs.join(' ') };
  }
  for (const [id, value] of Object.entries(form)) {
    const field = document.getElementById(id);
    field.value = value;
    if (field.value !== value) throw new Error(`#${id} has no value ${value}`);
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new Event('change', { bubbles: true }));
  }
  document.getElementById('p-run').click();
  await until(() => document.body.dataset.estimate === 'done', 'the estimate');
  const result = document.getElementById('p-result');
  return { maps, estimate: { ...result.dataset }, text: result.textContent.replace(/\s+/g, ' ').trim() };
}

/** learn.html, chapter 2's first step: answer with the first choice; the reveal and the lab's verdict. */
async function learnProbe(until) {
  const q = await until(() => document.querySelector('[data-testid="question"]'), 'the question');
  const first = await until(() => q.querySelector('.ls-choice') || document.querySelector('.ls-choice'), 'a choice');
  first.click();
  await until(() => q.dataset.revealed === 'true', 'the reveal');
  const lab = await until(() => verdictIn(document), 'the lesson’s verdict');
  return {
    correct: q.dataset.correct,
    right: document.querySelector('.ls-choice.right').textContent.trim(),
    reveal: document.getElementById('ls-reveal').textContent.replace(/\s+/g, ' ').trim(),
    ...lab,
  };
}

/** The grid the cross-origin page's search panel is given: [name, from ms, to ms, step ms]. */
export const CROSS_ORIGIN_GRID = [
  ['ttl', 100, 900, 10],
  ['pause', 100, 1000, 10],
];

/**
 * The host page on another origin than dist/ (smoke.test.mjs writes it: lease-lab.js from the lab's
 * origin, a search lab and a lab with the reader's own scenario inline, `Worker` counted by the page):
 * both verdicts, then the search panel given `grid` (only its parameters varied) and its answer.
 */
async function crossOriginProbe(until, grid) {
  const [searchLab, ownLab] = document.querySelectorAll('lease-lab');
  const verdictOf = (el, what) => until(() => el.shadowRoot && verdictIn(el.shadowRoot), what);
  const seed = await verdictOf(searchLab, 'the search lab’s verdict');
  const own = await verdictOf(ownLab, 'the own scenario’s verdict');
  const root = searchLab.shadowRoot;
  root.querySelector('#search-box > summary').click();
  await until(() => root.querySelector('#search-dims .search-dim'), 'the search panel’s rows');
  const fire = (el) => ['input', 'change'].forEach((type) => el.dispatchEvent(new Event(type, { bubbles: true })));
  for (const row of root.querySelectorAll('#search-dims .search-dim')) {
    const dim = grid.find((g) => g[0] === row.dataset.param);
    const vary = row.querySelector('[data-f=vary]');
    if (vary.checked !== Boolean(dim)) vary.click();
    if (!dim) continue;
    ['from', 'to', 'step'].forEach((f, k) => {
      const input = row.querySelector(`[data-f=${f}]`);
      input.value = String(dim[k + 1]);
      fire(input);
    });
  }
  root.querySelector('[data-testid="search"]').click();
  const shown = () => root.querySelector('[data-testid="search-result"][data-safe], #search-status.problem');
  const answer = await until(shown, 'the search’s answer', 120000);
  if (answer.matches('.problem')) throw new Error(`the search panel said: ${answer.textContent}`);
  const values = Object.fromEntries([...answer.querySelectorAll('mark')].map((m) => [m.dataset.param, Number(m.dataset.ms)]));
  const search = { safe: answer.dataset.safe === 'true', combinations: Number(answer.dataset.combinations), values };
  return { seed, own, search, inWorkers: window.workersMade.length > 0 };
}

const withVerdict = (fn) => `async (until) => { const verdictIn = ${verdictIn}; return (${fn})(until); }`;

/** The pages, in order: the seed at each policy its scenario file expects something of, then the rest;
 *  those marked `host` are on the host's origin, the others on dist/'s. */
export function PAGES(seedExpectations) {
  const seed = Object.keys(seedExpectations).map((policy) => ({
    name: 'index',
    key: policy,
    path: `index.html?scenario=seed-gc-pause&ttl=300&pause=600&fencing=${policy}`,
    probe: indexProbe(policy),
  }));
  return [
    ...seed,
    { name: 'docs', path: 'examples/docs-page.html', probe: withVerdict(docsProbe), shot: true },
    { name: 'explore', shot: true, path: 'explore.html?scenario=seed-gc-pause&ttl=300&pause=600', probe: `(until) => (${exploreProbe})(until, ${JSON.stringify(ESTIMATE_FORM)})` },
    { name: 'learn', path: 'learn.html#chapter-2', probe: withVerdict(learnProbe) },
    { name: 'crossOrigin', host: true, path: 'host.html', probe: `async (until) => { const verdictIn = ${verdictIn}; return (${crossOriginProbe})(until, ${JSON.stringify(CROSS_ORIGIN_GRID)}); }`, shot: true },
  ];
}
