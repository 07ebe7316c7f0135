// End-to-end tests of a <lease-lab> with a scenario of its own (www/user-scenario.js): inline text and
// src="URL", their verdicts equal to the CLI's (`leaselab run --file … --json`) for the same text; a
// text that does not parse shown by line and column while another lab on the page works; fetch
// failures (404, CORS) and a run past the event limit shown plainly, tried in a worker so the page's
// main thread is never held (the Long Tasks API; the no-Worker fallback as the control); scenario text
// shown as text, never markup; axe. Against dist/ in headless Chromium, like embed.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup, openPage, cliVerdict, axeViolations, MY_JOB } from './helpers.mjs';
import { serve } from '../../tools/serve.mjs';


/** Seven clients retrying every microsecond against an hour's lease: past the event limit (cli_file.rs). */
const FOREVER =
  'id: forever\ntitle: Forever\nsummary: Never ends\nservice: redlock ttl=3600s nodes=1\nclient A: acquire; read; write 1\n' +
  [...'BCDEFGH'].map((c) => `client ${c}: acquire every 1us; read; write 1\n`).join('');

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const hostPage = (body) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>' +
  `<script type="module" src="/lease-lab.js"></script></head><body><main><h1>Host</h1>${body}</main></body></html>`;
const inline = (text, attrs = '') => `<lease-lab ${attrs}><script type="text/x-leaselab">${text}</script></lease-lab>`;

/**
 * Serves `html` at /host.html (and `files`, path → text, on the same origin), opens it, runs `fn`; then
 * no page errors, no console errors but the `expected` ones (a failed fetch logs one), no request
 * leaving the origin but those `allowed`. `init` (script text) runs in the page before its own scripts.
 */
async function withHost(html, fn, { files = {}, expected = [], allowed = [], init = null, ...opts } = {}) {
  const { context, page, watch } = await openPage(env.browser, opts);
  try {
    if (init) await page.addInitScript(init);
    await page.route(`${env.url}host.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    for (const [path, body] of Object.entries(files)) await page.route(env.url + path, (r) => r.fulfill({ contentType: 'text/plain; charset=utf-8', body }));
    await page.goto(`${env.url}host.html`);
    await fn(page, watch);
    const problems = watch.problems().filter((p) => !expected.some((re) => re.test(p)));
    assert.deepEqual(problems, [], 'no unexpected console errors, page errors or CSP reports');
    const origin = new URL(env.url).origin;
    const away = watch.requests.filter((u) => new URL(u).origin !== origin && !allowed.some((a) => u.startsWith(a)));
    assert.deepEqual(away, [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
}

const lab = (page, i = 0) => page.locator('lease-lab').nth(i);
async function verdictOf(scope) {
  const box = scope.locator('[data-testid="outcome"][data-outcome]').first();
  await box.waitFor();
  return box.evaluate((e) => ({ outcome: e.dataset.outcome, final: Number(e.dataset.final), expected: Number(e.dataset.expected) }));
}
const errorOf = async (scope) => {
  const box = scope.locator('[data-testid="scenario-error"]');
  await box.waitFor();
  return box.textContent();
};

test('inline and src scenarios run, attributes by name apply, and the verdicts equal the CLI’s', () =>
  withHost(
    hostPage(inline(MY_JOB) + inline(MY_JOB, 'fencing="token"') + '<lease-lab src="/s/my-job.txt" hold="500"></lease-lab><lease-lab src="/s/my-job.txt" ttl="12000"></lease-lab>'),
    async (page, watch) => {
      const want = [[], ['--fencing', 'token'], ['--set', 'hold=500ms'], ['--ttl', '12s']];
      for (const [i, args] of want.entries()) assert.deepEqual(await verdictOf(lab(page, i)), await cliVerdict(MY_JOB, args), `lab ${i}: ${args.join(' ')}`);
      // The scenario's own words, not a catalogue's.
      assert.equal(await lab(page).locator('#scn-title').textContent(), 'Our job runner');
      // Only the user build: no core or full wasm on this page.
      const wasm = watch.requests.filter((u) => u.endsWith('.wasm')).map((u) => new URL(u).pathname);
      assert.deepEqual([...new Set(wasm)], ['/pkg/leaselab_user_bg.wasm']);
      // A slider moves it like a catalogue scenario's; the CLI agrees at the new value.
      await lab(page, 1).locator('#fencing').selectOption('none');
      assert.deepEqual(await verdictOf(lab(page, 1)), await cliVerdict(MY_JOB, []));
    },
    { files: { 's/my-job.txt': MY_JOB } },
  ));

test('a text that does not parse shows its errors by line and column; the lab beside it works', () =>
  withHost(hostPage(inline('id: broken\ntitle: Broken\nclient A: acquire; fly away\nexpect sideways: final=1\n') + '<lease-lab fencing="token"></lease-lab>'), async (page) => {
    const text = await errorOf(lab(page, 0));
    assert.match(text, /line 3, column \d+: /, text);
    assert.match(text, /line 4, column \d+: /, text);
    assert.equal(await lab(page, 0).locator('[data-testid="outcome"]').count(), 0, 'no verdict for a broken text');
    assert.deepEqual(await verdictOf(lab(page, 1)), { outcome: 'safe', final: 450, expected: 450 });
    // The error box is an alert, so a screen reader hears it.
    assert.equal(await lab(page, 0).locator('[data-testid="scenario-error"]').getAttribute('role'), 'alert');
  }));

test('src: a 404 and a server that does not allow CORS are said plainly', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'leaselab-other-'));
  await writeFile(join(dir, 'job.txt'), MY_JOB);
  const other = await serve({ dir, port: 0 }); // another origin (port), no CORS headers
  try {
    await withHost(
      hostPage(`<lease-lab src="/s/missing.txt"></lease-lab><lease-lab src="${other.url}job.txt"></lease-lab><lease-lab></lease-lab>`),
      async (page) => {
        assert.match(await errorOf(lab(page, 0)), /\/s\/missing\.txt could not be fetched: HTTP 404/);
        assert.match(await errorOf(lab(page, 1)), /job\.txt could not be fetched .*CORS/);
        assert.deepEqual(await verdictOf(lab(page, 2)), { outcome: 'lost-update', final: 440, expected: 450 });
      },
      { expected: [/404/, /CORS|Failed to fetch|blocked|ERR_FAILED/i], allowed: [other.url] },
    );
  } finally {
    await other.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('scenario text is shown as text, never markup', () => {
  const evil = MY_JOB.replace('title: Our job runner', 'title: <img src=x onerror="window.pwned=1"><b>bold</b>').replace(
    'Queue delay',
    '<i>Queue</i> delay',
  );
  // (A <script> element's content is raw text: the markup reaches the element as characters.)
  return withHost(hostPage(inline(evil)), async (page) => {
    await verdictOf(lab(page));
    assert.equal(await lab(page).locator('#scn-title').textContent(), '<img src=x onerror="window.pwned=1"><b>bold</b>');
    assert.equal(await lab(page).locator('img, b, i').count(), 0, 'no element made from scenario text');
    assert.equal(await page.evaluate(() => window.pwned), undefined);
  });
});

test('a scenario past the event limit says so, and the page keeps working', () =>
  withHost(hostPage(inline(FOREVER) + '<lease-lab></lease-lab>'), async (page) => {
    const text = await errorOf(lab(page, 0));
    assert.match(text, /does not run/);
    assert.match(text, /more than 1000000 events/);
    assert.deepEqual(await verdictOf(lab(page, 1)), { outcome: 'lost-update', final: 440, expected: 450 });
    await lab(page, 1).locator('#fencing').selectOption('token');
    assert.deepEqual(await verdictOf(lab(page, 1)), { outcome: 'safe', final: 450, expected: 450 });
  }));

/**
 * `noWorker`: the page has no Worker, so the element tries the text on the main thread (its
 * fallback): the control showing that the check below sees the main thread enter the engine when it
 * does. The long tasks' lengths are kept only as a figure to print.
 */
const watchMainThread = (noWorker) => {
  if (noWorker) delete window.Worker;
  window.longestTaskMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.longestTaskMs = Math.max(window.longestTaskMs, e.duration);
  }).observe({ type: 'longtask', buffered: true });
};

/**
 * How often the page's main thread tried the text itself (user-scenario.js marks each time, with
 * performance.mark), whether the page loaded the worker's script, and the error shown, for an element whose text
 * runs past the event limit.
 */
async function limitCheck(noWorker) {
  let result;
  await withHost(
    hostPage(inline(FOREVER)),
    async (page, watch) => {
      const text = await errorOf(lab(page));
      const workers = watch.requests.filter((u) => u.endsWith('user-scenario-worker.js'));
      const [onMain, taskMs] = await page.evaluate(() => [
        performance.getEntriesByName('leaselab:scenario-on-main-thread').length,
        window.longestTaskMs,
      ]);
      result = { text, onMain, taskMs, workers };
    },
    { init: `(${watchMainThread})(${noWorker});` },
  );
  return result;
}

test('a scenario past the event limit is tried in a worker: the page’s main thread never runs it', async (t) => {
  const inWorker = await limitCheck(false);
  assert.match(inWorker.text, /does not run/);
  assert.match(inWorker.text, /more than 1000000 events/);
  assert.equal(inWorker.onMain, 0, 'the main thread never tried the text');
  assert.equal(inWorker.workers.length, 1, 'the page started the worker');
  // The control: the same text with no Worker on the page is tried on the main thread, and seen to be.
  const onMain = await limitCheck(true);
  assert.match(onMain.text, /more than 1000000 events/, 'the fallback shows the same error');
  assert.equal(onMain.onMain, 1, 'without a worker the main thread tries it, once');
  t.diagnostic(`longest main-thread task (a figure, not a verdict): ${inWorker.taskMs.toFixed(0)} ms with the worker, ${onMain.taskMs.toFixed(0)} ms without`);
});

test('lang="bn": the errors in Bengali, line and column included', () =>
  withHost(hostPage(inline('id: x\nclient A: fly\n', 'lang="bn"')), async (page) => {
    assert.match(await errorOf(lab(page)), /লাইন 2, কলাম \d+/);
  }));

test('axe-core: a custom scenario and an error box, no serious or critical violations', () =>
  withHost(hostPage(inline(MY_JOB) + inline('id: x\nclient A: fly\n')), async (page) => {
    await verdictOf(lab(page, 0));
    await errorOf(lab(page, 1));
    const { bad, all } = await axeViolations(page);
    assert.deepEqual(bad, [], JSON.stringify(all, null, 1));
  }));
