// End-to-end tests of the safety table in dist/ (headless Chromium; issue 39): matrix.html from the
// shipped pkg/matrix.json — every cell's data attributes and verdict word, the address's restriction and
// its notices, a cell's details against the JSON, the keyboard — then the whole table computed live in
// Web Workers under the strict CSP and compared with the shipped one field by field; accessibility,
// a phone's width, one landscape sheet on paper; and <lease-lab-matrix> on a host page. Needs
// `bash tools/build-web.sh`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setup, openPage, axeViolations, DIST, RESULTS } from './helpers.mjs';

const TABLE = JSON.parse(readFileSync(join(DIST, 'pkg', 'matrix.json'), 'utf8'));
const SERVICES = Object.keys(TABLE.bounds);
const FAULTS = [...new Set(TABLE.cells.map((c) => c.fault))];
const cellOf = (s, f, p) => TABLE.cells.find((c) => c.service === s && c.fault === f && c.fencing === p);

let env; // strict CSP
let plain; // no CSP, so that axe-core can be injected
before(async () => {
  env = await setup({ csp: true });
  plain = await setup();
});
after(async () => {
  await env?.close();
  await plain?.close();
});

/**
 * Opens `path` (or serves `html` there) on a fresh page, waits for `ready`, runs fn, then checks: no
 * error, no CSP report, no request off the origin.
 */
async function withPage(path, fn, { server = () => env, ready = 'body[data-ready]', html = null, ...opts } = {}) {
  const srv = server();
  const { context, page, watch } = await openPage(srv.browser, opts);
  // A host page of the test's own, served at `path` (as host.test.mjs does).
  if (html) await page.route(`${srv.url}${path}`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await page.addInitScript(() => document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective}`)));
  try {
    await page.goto(`${srv.url}${path}`);
    await page.locator(ready).first().waitFor();
    await fn(page, srv);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
    const origin = new URL(srv.url).origin;
    assert.deepEqual(watch.requests.filter((u) => !u.startsWith('blob:') && new URL(u).origin !== origin), [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
}

/** Every cell's element on the page: its data attributes and text. */
const cellsOn = (page, root = 'body') =>
  page.locator(root).evaluate((r) =>
    [...(r.shadowRoot || r).querySelectorAll('td[data-fault]')].map((td) => ({ ...td.dataset, text: td.textContent })),
  );

test('matrix.html: the shipped table under none — every cell with its data attributes, word and mark', () =>
  withPage('matrix.html', async (page) => {
    const cells = await cellsOn(page);
    assert.equal(cells.length, SERVICES.length * FAULTS.length, 'services × faults, taken from the JSON');
    const words = { unsafe: 'UNSAFE', safe: 'safe', 'n/a': 'n/a' };
    for (const c of cells) {
      const want = cellOf(c.service, c.fault, 'none');
      assert.equal(c.fencing, 'none');
      assert.equal(c.verdict, want.verdict, `${c.service} × ${c.fault}`);
      assert.ok(c.text.startsWith(words[c.verdict]), `${c.service} × ${c.fault}: the verdict as a word, not colour alone`);
      assert.equal(c.text.includes('checked against a real server'), want.real.length > 0, `${c.service} × ${c.fault}: the real-server mark`);
    }
    assert.deepEqual(await page.locator('table.mx thead th[scope=col]').allTextContents().then((t) => t.length), FAULTS.length + 1);
    assert.equal(await page.locator('table.mx tbody th[scope=row]').count(), SERVICES.length);
    assert.match(await page.locator('table.mx caption').textContent(), /^Fencing none, services × faults \(11 × \d\): \d+ unsafe/);
    assert.equal(await page.locator('.mx-caption').textContent(), await page.locator('table.mx caption').textContent(), 'the caption shown above the box');
    // The legend: the bounds of every row, from the JSON.
    const bounds = await page.locator('#service-bounds li').allTextContents();
    assert.equal(bounds.length, SERVICES.length);
    assert.ok(bounds.some((b) => b.startsWith('etcd: T = ttl 60000 ms, step 600 ms')));
    assert.match(await page.locator('#fault-bounds').textContent(), /pause: up to 4 T/);
    // The way back, and the lab's verdict as the shipped JSON says: n/a cells say why.
    assert.equal(await page.locator('#back').getAttribute('href'), 'index.html');
  }));

test('matrix.html: the address keeps rows, columns and policy; the controls write it back', () =>
  withPage('matrix.html?services=etcd,consul&faults=pause,partition&fencing=token', async (page) => {
    const cells = await cellsOn(page);
    assert.deepEqual(cells.map((c) => [c.service, c.fault, c.fencing]), [
      ['etcd', 'pause', 'token'], ['etcd', 'partition', 'token'], ['consul', 'pause', 'token'], ['consul', 'partition', 'token'],
    ]);
    for (const c of cells) assert.equal(c.verdict, cellOf(c.service, c.fault, 'token').verdict);
    assert.equal(await page.locator('#notice').isHidden(), true);
    await page.locator('#pick summary').click();
    await page.locator('#faults-set input[value=lock-delay]').check();
    await page.locator('#fencing').selectOption('first-touch');
    assert.equal(new URL(page.url()).search, '?services=etcd,consul&faults=pause,lock-delay,partition&fencing=first-touch');
    assert.equal((await cellsOn(page)).length, 6);
    assert.equal(await page.locator('td[data-service=etcd][data-fault=lock-delay]').getAttribute('data-verdict'), cellOf('etcd', 'lock-delay', 'first-touch').verdict);
    await page.locator('#fencing').selectOption('all');
    assert.equal(await page.locator('table.mx').count(), new Set(TABLE.cells.map((c) => c.fencing)).size, 'one table per policy');
  }));

test('matrix.html: bad values give a notice and a fallback, never a blank page', () =>
  withPage('matrix.html?services=etcd,memcached&faults=meteor&fencing=fenced&lang=xx', async (page) => {
    const notice = await page.locator('#notice').textContent();
    assert.match(notice, /services: “memcached” is not one of lease, session/);
    assert.match(notice, /faults: nothing usable, so every one is shown/);
    assert.match(notice, /fencing: “fenced” is not one of none, token/);
    const cells = await cellsOn(page);
    assert.equal(cells.length, FAULTS.length, 'etcd’s row, every fault');
    assert.ok(cells.every((c) => c.service === 'etcd' && c.fencing === 'none'));
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  }));

test('matrix.html: a cell’s details match the JSON; keys move between cells; row and column light up', () =>
  withPage('matrix.html', async (page) => {
    const want = cellOf('etcd', 'pause', 'none');
    await page.locator('td[data-service=etcd][data-fault=pause] button').click();
    const detail = page.locator('#detail');
    assert.equal(await detail.getAttribute('data-verdict'), 'unsafe');
    assert.equal(await detail.locator('pre code').textContent(), `leaselab run ${want.run_args.join(' ')}`);
    assert.equal(await detail.locator('a.mx-lab').getAttribute('href'), want.link);
    assert.match(await detail.textContent(), new RegExp(`cost ${want.cost} steps`));
    assert.deepEqual(await detail.locator('.mx-real-list li').allTextContents(), want.real);
    assert.match(await detail.textContent(), new RegExp(`${want.combinations} points decided with ${want.runs} engine runs`));
    // The highlight follows the pointer and the focus.
    const lit = () => page.evaluate(() => [document.querySelector('tr.hl-row')?.dataset.service, [...document.querySelectorAll('td.hl-col')].map((t) => t.dataset.fault)[0]]);
    assert.deepEqual(await lit(), ['etcd', 'pause']);
    // Keys: right, down, End; Enter opens; one Tab stop for the whole table.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await lit(), ['zookeeper', 'store-delay']);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    assert.equal(await detail.getAttribute('data-fault'), FAULTS.at(-1));
    assert.equal(await detail.getAttribute('data-service'), 'zookeeper');
    assert.equal(await page.locator('table.mx button[tabindex="0"]').count(), 1);
    // An n/a cell says why, in the reader's words.
    await page.locator('td[data-service=session][data-fault=server-clock] button').click();
    assert.match(await detail.textContent(), /Not applicable: PostgreSQL session lock’s lock has no TTL/);
  }));

test('matrix.html: the whole table computed live in workers equals pkg/matrix.json, cell by cell', () =>
  withPage('matrix.html', async (page) => {
    await page.locator('#compute').click();
    await page.locator('body[data-live=done]').waitFor({ timeout: 120_000 });
    assert.match(await page.locator('#live-status').textContent(), new RegExp(`^Computed in this browser: ${TABLE.cells.length} cells in \\d+ ms on \\d workers\\.$`));
    assert.equal(await page.locator('td[data-source=live]').count(), SERVICES.length * FAULTS.length, 'the shown cells are the live ones');
    const dl = page.waitForEvent('download');
    await page.locator('#download').click();
    const live = JSON.parse(await readFile(await (await dl).path(), 'utf8'));
    assert.deepEqual(live.bounds, TABLE.bounds);
    assert.equal(live.cells.length, TABLE.cells.length);
    for (const [i, c] of TABLE.cells.entries()) assert.deepEqual(live.cells[i], c, `${c.service} × ${c.fault} × ${c.fencing}`);
  }));

test('matrix.html: Cancel stops the workers; the computed cells stay, the rest are the build’s', () =>
  withPage('matrix.html', async (page) => {
    await page.locator('#compute').click();
    await page.locator('#cancel').click();
    await page.locator('body[data-live=cancelled]').waitFor();
    assert.match(await page.locator('#live-status').textContent(), new RegExp(`^Cancelled after \\d+ of ${TABLE.cells.length} cells`));
    assert.equal(await page.locator('#compute').isEnabled(), true);
    assert.equal((await cellsOn(page)).length, SERVICES.length * FAULTS.length);
  }));

for (const [query, opts] of [['', {}], ['?lang=bn&fencing=all', { width: 390, height: 800, colorScheme: 'dark' }]]) {
  test(`matrix.html: axe-core, no serious or critical violations (${query || 'default'})`, () =>
    withPage(`matrix.html${query}`, async (page) => {
      await page.locator('td[data-service=etcd][data-fault=pause] button').first().click();
      const { bad, all } = await axeViolations(page);
      assert.deepEqual(bad, [], JSON.stringify(all, null, 1));
    }, { server: () => plain, ...opts }));
}

test('matrix.html at 390 px: the table scrolls in its own box, the service column stays; the page does not', () =>
  withPage('matrix.html?lang=bn', async (page) => {
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
    const box = await page.locator('.mx-box').evaluate((b) => [b.scrollWidth > b.clientWidth, getComputedStyle(b.querySelector('.mx-service')).position]);
    assert.deepEqual(box, [true, 'sticky']);
    assert.equal(await page.locator('td[data-verdict=unsafe]').first().textContent().then((t) => t.startsWith('অনিরাপদ')), true);
    assert.equal(await page.locator('#back').getAttribute('href'), 'index.html?lang=bn');
  }, { width: 390, height: 800 }));

test('matrix.html prints on one landscape sheet: the table, no controls', () =>
  withPage('matrix.html', async (page) => {
    const pdf = join(RESULTS, 'print-matrix.pdf');
    await page.pdf({ path: pdf, preferCSSPageSize: true, printBackground: false });
    const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
    assert.match(info, /^Pages:\s+1$/m, 'one sheet');
    const [, w, h] = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(info);
    assert.ok(Number(w) > Number(h), `landscape: ${w} × ${h}`);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    assert.ok(text.includes('UNSAFE') && text.includes('DynamoDB lock client') && text.includes('partition'));
    assert.ok(!text.includes('Compute in this browser') && !text.includes('Rows and columns'), 'no controls on paper');
  }));

test('the lab, explore and learn pages link to matrix.html; it opens in the reader’s language', async () => {
  for (const [path, ready] of [['?lang=bn', '[data-testid=outcome][data-outcome]'], ['explore.html?lang=bn', 'body[data-phase=ready]'], ['learn.html?lang=bn', '#learn-host *']]) {
    await withPage(path, async (page) => {
      const a = page.locator('a[href*="matrix.html"]');
      assert.equal(await a.count(), 1, `${path}: one link`);
      const href = new URL(await a.evaluate((x) => x.href));
      assert.equal(href.pathname.endsWith('/matrix.html') && href.searchParams.get('lang'), 'bn', `${path}: the link keeps the language`);
      assert.match(await a.textContent(), /নিরাপত্তা-সারণি/, `${path}: in Bengali`);
    }, { ready });
  }
});

const HOST = (body, attrs = '') =>
  `<!doctype html><html lang="en" ${attrs}><head><meta charset="utf-8"><title>host</title>` +
  `<script type="module" src="/lease-lab-matrix.js"></script></head><body><main><h1>Docs</h1>${body}</main></body></html>`;

test('<lease-lab-matrix> on a host page: its cells, links into the lab, the host’s theme, notices for bad attributes', () =>
  withPage('host.html', async (page, srv) => {
    const [a, b] = [page.locator('lease-lab-matrix').nth(0), page.locator('lease-lab-matrix').nth(1)];
    await b.locator('table').waitFor();
    const cells = await cellsOn(page, 'lease-lab-matrix >> nth=0');
    assert.deepEqual(cells.map((c) => [c.service, c.fault, c.fencing, c.verdict]), [
      ['etcd', 'pause', 'token', cellOf('etcd', 'pause', 'token').verdict], ['etcd', 'partition', 'token', cellOf('etcd', 'partition', 'token').verdict],
      ['consul', 'pause', 'token', cellOf('consul', 'pause', 'token').verdict], ['consul', 'partition', 'token', cellOf('consul', 'partition', 'token').verdict],
    ]);
    assert.equal(await a.locator('.notice').count(), 0);
    // The second: a bad service and policy — a notice, the rest shown under none; unsafe cells link to the lab.
    assert.match(await b.locator('.notice').textContent(), /“nosuch” is not one of[\s\S]*“fenced” is not one of/);
    const link = await b.locator('td[data-service=redis][data-fault=pause] a').getAttribute('href');
    assert.equal(link, new URL(cellOf('redis', 'pause', 'none').link, srv.url).href);
    assert.equal(await b.locator('a.mx-whole').getAttribute('href'), `${srv.url}matrix.html?services=redis`);
    assert.equal(await b.locator('td[data-fault=pause][data-verdict=safe] span, td[data-verdict=safe] span').first().getAttribute('title'), 'safe within the bounds');
    // The host's dark mode, followed live.
    const bg = () => a.evaluate((e) => getComputedStyle(e.shadowRoot.querySelector('.embed')).backgroundColor);
    assert.equal(await bg(), 'rgb(13, 17, 23)');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    assert.equal(await bg(), 'rgb(255, 255, 255)');
  }, {
    ready: 'lease-lab-matrix table',
    html: HOST('<lease-lab-matrix services="etcd,consul" faults="pause,partition" fencing="token"></lease-lab-matrix>' +
      '<lease-lab-matrix services="redis,nosuch" fencing="fenced"></lease-lab-matrix>', 'data-theme="dark"'),
  }));
