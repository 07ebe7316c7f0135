// End-to-end tests of explore.html in dist/ (headless Chromium), served with the strict CSP:
// the phase diagram, a cell opened in the lab, probability mode's worker against the CLI, cancel,
// accessibility and screenshots. Needs `bash tools/build-web.sh` and `cargo build --release` (the test
// runs the release CLI, helpers.mjs's `CLI`, for its numbers).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setup, openPage, verdict, RESULTS, CLI, axeViolations } from './helpers.mjs';

let env; // strict CSP
let plain; // no CSP, so the test can inject axe-core
before(async () => {
  env = await setup({ csp: true });
  plain = await setup();
});
after(async () => {
  await env?.close();
  await plain?.close();
});

/** Opens explore.html`query` on a fresh page, waits for the phase diagram, runs `fn(page)`, then checks
 *  nothing went wrong: no console or page errors, no CSP violation, no request off the origin. */
async function withExplore(query, fn, { server = () => env, ...opts } = {}) {
  const srv = server();
  const { context, page, watch } = await openPage(srv.browser, opts);
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective}`)),
  );
  try {
    await page.goto(`${srv.url}explore.html${query}`);
    await page.locator('body[data-phase=ready]').waitFor();
    await fn(page, srv);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
    const origin = new URL(srv.url).origin;
    assert.deepEqual(watch.requests.filter((u) => new URL(u).origin !== origin), [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
}

const outcomeOf = (code) => (code >= 2 ? 'lost-update' : 'safe');

/** The cells a map's runs cover: how many, in how many rows, and whether each row is covered once. */
const cellsOf = (page, id) =>
  page.locator(`#${id} svg`).evaluate((svg) => {
    const nx = Number(svg.dataset.nx);
    const rows = new Map();
    for (const r of svg.querySelectorAll('rect.run')) {
      const row = rows.get(r.dataset.yi) || [];
      row.push([Number(r.dataset.x0), Number(r.dataset.len)]);
      rows.set(r.dataset.yi, row);
    }
    let n = 0;
    let covered = true;
    for (const row of rows.values()) {
      row.sort((a, b) => a[0] - b[0]);
      let next = 0;
      for (const [x0, len] of row) {
        covered &&= x0 === next;
        next = x0 + len;
        n += len;
      }
      covered &&= next === nx;
    }
    return { n, rows: rows.size, covered };
  });

test('explore: two heat maps with one cell per run, axes, legend and the current setting marked', () =>
  withExplore('?scenario=seed-gc-pause&ttl=300&pause=600', async (page) => {
    for (const id of ['map-a', 'map-b']) {
      const svg = page.locator(`#${id} svg`);
      const [nx, ny] = await svg.evaluate((e) => [Number(e.dataset.nx), Number(e.dataset.ny)]);
      assert.equal(nx, 64);
      assert.equal(ny, 64);
      // One rect per run of equal outcomes along a row; together they cover every cell once.
      assert.deepEqual(await cellsOf(page, id), { n: nx * ny, rows: ny, covered: true });
      assert.equal(await page.locator(`#${id} .current`).count(), 1);
      assert.match(await page.locator(`#${id} .axis-label`).first().textContent(), /\(ms\)$/);
    }
    assert.equal(await page.locator('#map-a svg').getAttribute('data-policy'), 'none');
    assert.equal(await page.locator('#map-b svg').getAttribute('data-policy'), 'token');
    // Unfenced, the seed's setting loses B's update (code 3); fenced, the stale write is rejected (1).
    const codes = await page.locator('#map-a rect.run').evaluateAll((rs) => rs.map((r) => Number(r.dataset.code)));
    assert.ok(codes.includes(0) && codes.includes(3), 'unfenced: safe and B-lost cells');
    const fenced = await page.locator('#map-b rect.run').evaluateAll((rs) => rs.map((r) => Number(r.dataset.code)));
    assert.ok(fenced.includes(1), 'fenced: stale writes rejected');
    assert.match(await page.locator('#legend').textContent(), /B’s update lost/);
    assert.match(await page.locator('#current').textContent(), /300 ms.*600 ms/);
    // More cells on request: 256 × 256, every cell still one run's verdict.
    await page.locator('#steps').selectOption('256');
    await page.waitForFunction(() => document.querySelector('#map-a svg').dataset.nx === '256');
    assert.deepEqual(await cellsOf(page, 'map-a'), { n: 256 * 256, rows: 256, covered: true });
  }));

test('explore: a click loads the cell into the lab with the verdict the cell shows', async () => {
  for (const [map, code, steps] of [['map-a', 3], ['map-a', 0], ['map-b', 1], ['map-a', 3, '256'], ['map-b', 1, '256']]) {
    await withExplore('', async (page) => {
      if (steps) {
        await page.locator('#steps').selectOption(steps);
        await page.waitForFunction((n) => document.querySelector('#map-b svg').dataset.nx === n, steps);
      }
      const runs = page.locator(`#${map} rect.run[data-code="${code}"]`);
      const n = await runs.count();
      assert.ok(n > 0, `${map} has cells of code ${code}`);
      const cell = runs.nth(Math.floor(n / 2));
      const [xi, yi] = await cell.evaluate((e) => [e.dataset.x0, e.dataset.yi]);
      await cell.hover();
      assert.match(await page.locator('#detail').textContent(), /ms/);
      assert.equal(await page.locator('#open-cell').getAttribute('data-code'), String(code));
      await cell.click();
      await page.waitForURL(/index\.html\?/);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('scenario'), 'seed-gc-pause');
      assert.equal(url.searchParams.get('fencing'), map === 'map-a' ? 'none' : 'token');
      const v = await verdict(page);
      assert.equal(v.outcome, outcomeOf(code), `cell (${xi}, ${yi}) ${url.search}`);
    });
  }
});

test('explore: keyboard — arrows move between cells, Enter opens the cell in the lab', () =>
  withExplore('?scenario=seed-gc-pause&ttl=300&pause=600&fencing=token', async (page) => {
    await page.locator('#map-a svg').focus();
    const before = await page.locator('#open-cell').getAttribute('href');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    const after = await page.locator('#open-cell').getAttribute('href');
    assert.notEqual(after, before);
    assert.match(await page.locator('#detail').textContent(), /token/);
    const outline = await page.locator('#map-a svg').evaluate((e) => getComputedStyle(e).outlineStyle);
    assert.notEqual(outline, 'none', 'a focused map shows focus');
    const code = Number(await page.locator('#open-cell').getAttribute('data-code'));
    await page.keyboard.press('Enter');
    await page.waitForURL(/index\.html\?/);
    assert.equal((await verdict(page)).outcome, outcomeOf(code));
  }));

// The CLI's numbers for the same settings: `leaselab estimate --json` (helpers.mjs's CLI).
function cli(args) {
  return JSON.parse(execFileSync(CLI, ['estimate', '--json', ...args], { encoding: 'utf8' }));
}

/** Whether `leaselab estimate` takes these settings (exit 0) or refuses them (exit 2). */
function cliAccepts(args) {
  try {
    execFileSync(CLI, ['estimate', '--ops', '1', ...args], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** The crate's preset ids in its order, as the CLI (clap) lists them when asked for one it does not know. */
function cliPresetIds() {
  try {
    execFileSync(CLI, ['estimate', '--preset', '?'], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    return /possible values: ([^\]]*)\]/.exec(e.stderr)[1].split(', ');
  }
  throw new Error('--preset ? was accepted');
}

/** A pause distribution as [name, a, b]: from the CLI's JSON, or from the page's form. */
const distOf = (j) => (j.dist === 'pareto' ? [j.dist, j.scale_ms, j.shape] : [j.dist, j.median_ms, j.sigma]);
const formDist = (page) => page.evaluate(() => ['dist', 'dist-a', 'dist-b'].map((id, i) => (i ? Number(document.getElementById(id).value) : document.getElementById(id).value)));

test('probability mode: the presets, where the form starts and its bounds are the crate’s (the wasm’s, as the CLI’s)', { skip: !existsSync(CLI) && 'cargo build --release first' }, () =>
  withExplore('', async (page) => {
    // Where the form starts: where `leaselab estimate` starts without flags.
    const def = cli(['--ops', '1']);
    assert.deepEqual(await formDist(page), distOf(def));
    for (const [id, key] of [['p-ttl', 'ttl_ms'], ['p-retry', 'retry_ms'], ['p-work', 'work_ms'], ['p-seed', 'seed']]) {
      assert.equal(Number(await page.locator(`#${id}`).inputValue()), def[key], id);
    }
    assert.equal(await page.locator('#always').isChecked(), def.rate_per_s === 0);
    // The list: exactly the crate's presets in its order (none kept by the page), the default's selected;
    // choosing one fills in the crate's numbers for it, and its name and source.
    const ids = cliPresetIds();
    const values = await page.locator('#preset option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(values, ['', ...ids]);
    const numbers = Object.fromEntries(ids.map((id) => [id, distOf(cli(['--preset', id, '--ops', '1']))]));
    assert.deepEqual(numbers[await page.locator('#preset').inputValue()], distOf(def), 'the default preset');
    for (const id of ids) {
      await page.locator('#preset').selectOption(id);
      assert.deepEqual(await formDist(page), numbers[id], id);
      const name = await page.locator(`#preset option[value="${id}"]`).textContent();
      assert.ok(name && name !== id, `${id}: named (${name})`);
      assert.ok((await page.locator('#preset-source').textContent()).length > 20, `${id}: its source`);
    }
    // The bounds: each field allows its ends and refuses a little beyond, where the CLI does the same.
    await page.locator('#poisson').check();
    const fields = [
      ['p-ttl', 'pareto', (v) => ['--ttl', `${v}ms`]],
      ['p-retry', 'pareto', (v) => ['--retry', `${v}ms`]],
      ['p-work', 'pareto', (v) => ['--work', `${v}ms`]],
      ['dist-a', 'pareto', (v) => ['--pareto', `${v}ms:2`]],
      ['dist-b', 'pareto', (v) => ['--pareto', `50ms:${v}`]],
      ['dist-b', 'lognormal', (v) => ['--lognormal', `50ms:${v}`]],
      ['rate', 'pareto', (v) => ['--rate', String(v)], 'max only: 0 is the other button'],
    ];
    for (const [id, dist, args, maxOnly] of fields) {
      await page.locator('#dist').selectOption(dist);
      const [min, max] = await page.locator(`#${id}`).evaluate((e) => [Number(e.min), Number(e.max)]);
      const near = (v) => Math.max(Math.abs(v) * 1e-4, 0.001);
      const tries = [[max, true], [max + near(max), false]];
      if (!maxOnly) tries.push([min, true], [min - near(min), false]);
      for (const [v, ok] of tries) {
        await page.locator(`#${id}`).fill(String(v));
        const inRange = await page.locator(`#${id}`).evaluate((e) => !e.validity.rangeOverflow && !e.validity.rangeUnderflow);
        assert.equal(inRange, ok, `${id} (${dist}) = ${v}: the page ${ok ? 'allows' : 'refuses'} it`);
        assert.equal(cliAccepts(args(v)), ok, `${id} (${dist}) = ${v}: so does the CLI`);
      }
    }
  }));

test('probability mode: the worker runs to completion and gives the CLI’s numbers', { skip: !existsSync(CLI) && 'cargo build --release first' }, async () => {
  const cases = [
    { preset: 'cms-full', ttl: '30000', always: true, ops: '100000', seed: '7', policy: 'none', args: ['--preset', 'cms-full', '--ttl', '30000ms', '--rate', 'always', '--ops', '100000', '--seed', '7'] },
    { preset: 'g1', ttl: '150', rate: '2', ops: '1000000', seed: '124510', policy: 'token', args: ['--preset', 'g1', '--ttl', '150ms', '--rate', '2', '--ops', '1000000', '--seed', '124510', '--fencing', 'token'] },
  ];
  for (const c of cases) {
    await withExplore('', async (page) => {
      await page.locator('#preset').selectOption(c.preset);
      await page.locator('#p-ttl').fill(c.ttl);
      if (c.rate) {
        await page.locator('#poisson').check();
        await page.locator('#rate').fill(c.rate);
      }
      await page.locator('#p-policy').selectOption(c.policy);
      await page.locator('#p-ops').selectOption(c.ops);
      await page.locator('#p-seed').fill(c.seed);
      await page.locator('#p-run').click();
      await page.locator('body[data-estimate=done]').waitFor({ timeout: 120000 });
      const got = await page.locator('#p-result').evaluate((e) => ({ ...e.dataset }));
      const want = cli(c.args);
      for (const k of ['ops', 'lost', 'simulated', 'p', 'low', 'high', 'analytic']) assert.equal(Number(got[k]), want[k], `${c.preset}: ${k}`);
      assert.equal(Number(got.overRange), want.over_range);
      assert.equal(Number(await page.locator('#p-progress').evaluate((e) => e.value)), Number(c.ops));
      const text = await page.locator('#p-result').textContent();
      assert.match(text, /P\(lost update\) per operation/);
      assert.match(text, /95% interval/);
      assert.match(text, /per day/);
      assert.match(text, /derived/);
      assert.match(text, new RegExp(`seed ${c.seed}`));
    });
  }
});

test('probability mode: Cancel stops the worker; progress stops and the page says so', () =>
  withExplore('', async (page) => {
    await page.locator('#p-ops').selectOption('100000000');
    await page.locator('#p-run').click();
    await page.waitForFunction(() => document.querySelector('#p-progress').value > 0);
    await page.locator('#p-cancel').click();
    await page.locator('body[data-estimate=cancelled]').waitFor();
    const at = await page.locator('#p-progress').evaluate((e) => e.value);
    await page.waitForTimeout(600);
    assert.equal(await page.locator('#p-progress').evaluate((e) => e.value), at, 'progress stopped');
    assert.ok(at > 0 && at < 100000000);
    assert.match(await page.locator('#p-result').textContent(), /Cancelled after/);
    assert.ok(Number(await page.locator('#p-result').getAttribute('data-ops')) > 0, 'the partial figures are shown');
    assert.equal(await page.locator('#p-run').isDisabled(), false);
    assert.equal(await page.locator('#p-cancel').isDisabled(), true);
  }));

/**
 * In the page: counts the tasks the main thread handles besides the page's own (a ping-pong of
 * messages, each a task of its own, run whenever the thread is free) and, through performance.mark,
 * how many had run when each slice of a sweep ended. Returns `stop()`: `{pings, atSlice, long}`, the
 * long tasks' lengths only as a figure to print.
 */
const watchTasks = () => {
  const ch = new MessageChannel();
  const w = { pings: 0, atSlice: [], long: [], on: true };
  ch.port1.onmessage = () => {
    w.pings += 1;
    if (w.on) ch.port2.postMessage(0);
  };
  ch.port2.postMessage(0);
  const mark = performance.mark.bind(performance);
  performance.mark = (name, ...rest) => {
    if (name === 'leaselab:sweep-slice') w.atSlice.push(w.pings);
    return mark(name, ...rest);
  };
  const obs = new PerformanceObserver((l) => w.long.push(...l.getEntries().map((e) => Math.round(e.duration))));
  obs.observe({ type: 'longtask' });
  window.__tasks = () => {
    w.on = false;
    performance.mark = mark;
    obs.disconnect();
    return w;
  };
};

test('the page stays responsive while it works: other events run between every two slices of a 256 × 256 re-sweep', (t) =>
  withExplore('', async (page) => {
    await page.evaluate(watchTasks);
    await page.evaluate(() => {
      const steps = document.querySelector('#steps');
      steps.value = '256';
      steps.dispatchEvent(new Event('change'));
    });
    await page.locator('#detail', { hasText: /cells in/ }).waitFor();
    const { pings, atSlice, long } = await page.evaluate(() => window.__tasks());
    t.diagnostic(`${atSlice.length} slices, ${pings} other tasks run meanwhile; long tasks (ms, a figure, not a verdict): ${JSON.stringify(long)}`);
    // Each map's 256 rows: slices at most double (1, 2, 4, … 128 rows), so at least 9 a map.
    assert.ok(atSlice.length >= 18, `the sweep ran in slices: ${atSlice.length}`);
    const held = atSlice.findIndex((n, i) => i > 0 && n === atSlice[i - 1]);
    assert.equal(held, -1, `slices ${held - 1} and ${held} ran with no other task between them: ${JSON.stringify(atSlice)}`);
  }));

test('a 10 M-operation estimate runs in its worker; the page shows its progress as it goes', () =>
  withExplore('', async (page) => {
    const texts = page.evaluate(
      () =>
        new Promise((done) => {
          const seen = [];
          const text = document.querySelector('#p-progress-text');
          new MutationObserver(() => {
            if (document.body.dataset.estimate === 'running') seen.push(text.textContent);
            else done(seen);
          }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-estimate'] });
        }),
    );
    await page.locator('#p-ops').selectOption('10000000');
    await page.locator('#p-run').click();
    await page.locator('body[data-estimate=done]').waitFor({ timeout: 120000 });
    const progress = [...new Set(await texts)].filter((x) => /\d/.test(x));
    // The worker posts after each chunk, and a chunk grows at most fourfold from 10,000 operations:
    // at least six posts for 10 M, whatever the machine's speed.
    assert.ok(progress.length >= 2, `progress shown while it ran: ${JSON.stringify(progress)}`);
  }));

test('explore: Bengali strings and exports (SVG, PNG)', () =>
  withExplore('?lang=bn', async (page) => {
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'bn');
    assert.match(await page.locator('#phase-h').textContent(), /ফেজ ডায়াগ্রাম/);
    assert.match(await page.locator('#prob-h').textContent(), /সম্ভাবনা/);
    // Every preset from the wasm has its name and source in Bengali.
    for (const id of await page.locator('#preset option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean))) {
      await page.locator('#preset').selectOption(id);
      assert.match(await page.locator(`#preset option[value="${id}"]`).textContent(), /[\u0980-\u09ff]/, id);
      assert.match(await page.locator('#preset-source').textContent(), /[\u0980-\u09ff]/, id);
    }
    const dl = page.waitForEvent('download');
    await page.locator('#map-a .exports button[data-kind=svg]').click();
    const file = await dl;
    assert.match(file.suggestedFilename(), /^leaselab-seed-gc-pause-ttl-pause-none\.svg$/);
    const { readFile } = await import('node:fs/promises');
    const svg = await readFile(await file.path(), 'utf8');
    assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const lens = [...svg.matchAll(/class="run"[^>]*? data-len="(\d+)"/g)].reduce((a, m) => a + Number(m[1]), 0);
    assert.equal(lens, 64 * 64);
    const dlPng = page.waitForEvent('download');
    await page.locator('#map-b .exports button[data-kind=png]').click();
    const png = await readFile(await (await dlPng).path());
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
  }, { server: () => plain }));

// axe-core (helpers.mjs's axeViolations): no serious or critical findings.
for (const [query, opts] of [['', {}], ['?lang=bn', { width: 390, height: 800, colorScheme: 'dark' }]]) {
  test(`explore: axe-core, no serious or critical violations (${query || 'default'})`, () =>
    withExplore(query, async (page) => {
      await page.locator('#p-ops').selectOption('100000');
      await page.locator('#p-run').click();
      await page.locator('body[data-estimate=done]').waitFor();
      const { bad, all } = await axeViolations(page);
      assert.deepEqual(bad, [], JSON.stringify(all, null, 1));
    }, { server: () => plain, ...opts }));
}

test('explore: no horizontal scroll at 390 px; screenshots at 1280 and 390 px', async () => {
  for (const [width, query, name] of [
    [1280, '?scenario=seed-gc-pause&ttl=300&pause=600', 'explore-1280'],
    [390, '', 'explore-390'],
    [390, '?lang=bn', 'explore-390-bn'],
  ]) {
    await withExplore(query, async (page) => {
      await page.locator('#p-ops').selectOption('100000');
      await page.locator('#p-run').click();
      await page.locator('body[data-estimate=done]').waitFor();
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(sw <= width, `${name}: scrollWidth ${sw} > ${width}`);
      await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });
    }, { width, height: 900 });
  }
});

test('the lab links to explore.html with its current setting', async () => {
  const { context, page } = await openPage(env.browser);
  try {
    await page.goto(`${env.url}?ttl=250&pause=700&fencing=token`);
    await verdict(page);
    await page.locator('#explore-link').click();
    await page.locator('body[data-phase=ready]').waitFor();
    assert.match(await page.locator('#current').textContent(), /250 ms.*700 ms/);
    assert.equal(await page.locator('#map-a svg').getAttribute('data-policy'), 'token');
  } finally {
    await context.close();
  }
});
