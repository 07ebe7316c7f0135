// How the pages load: the preload links and hoisted imports that tools/preload.mjs derives from the
// module graph (unit tests on a made-up graph, then the built pages in headless Chromium: one round of
// requests after the HTML, not a waterfall), the lab page's weight as transferred, against its budget
// in wasm-pack.toml, and explore.html loading its own wasm only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, readFile, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup, openPage, ROOT, DIST } from './helpers.mjs';
import { staticImports, fetchedAssets, moduleGraph, flatten } from '../../tools/preload.mjs';
import { load } from './phone-bench.mjs';

test('staticImports finds static imports and re-exports, readable or minified, not import()', () => {
  const code = `import a, { b as c } from './x.js';\nimport"./y.js";export{q}from"../z.js";const r=import("./share.js");export default"k";`;
  assert.deepEqual(staticImports(code), ['./x.js', './y.js', '../z.js']);
  assert.deepEqual(staticImports('const s = "important from"; f(import.meta.url);'), []);
});

test('fetchedAssets finds literal wasm, JSON and CSS URLs relative to the module, not templates', () => {
  const code = 'a=new URL("x_bg.wasm",import.meta.url);b=new URL(`pkg/t.${l}.json`,import.meta.url);c=new URL(\'s.css\', import.meta.url);d=new URL("w.js",import.meta.url)';
  assert.deepEqual(fetchedAssets(code), [
    { path: 'x_bg.wasm', kind: 'wasm' },
    { path: 's.css', kind: 'css' },
  ]);
});

test('flatten: every page preloads its whole graph and what it fetches; entries import their graph', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'preload-'));
  try {
    await mkdir(join(dir, 'pkg'));
    await mkdir(join(dir, 'sub'));
    const files = {
      'index.html': '<html><head><script type="module" src="app.js"></script></head><body></body></html>',
      'sub/host.html': '<html><head></head><body><script type="module" src="../el.js"></script></body></html>',
      'app.js': 'import{L}from"./lab.js";L();',
      'el.js': 'import{L}from"./lab.js";import"./extra.js";',
      'extra.js': '',
      'lab.js': 'import i from"./pkg/core.js";import("./later.js");export const L=()=>i();',
      'later.js': '',
      'pkg/core.js': 'export default()=>fetch(new URL("core_bg.wasm",import.meta.url));',
      'pkg/core_bg.wasm': '',
    };
    for (const [f, s] of Object.entries(files)) await writeFile(join(dir, f), s);
    assert.deepEqual(await moduleGraph(dir, ['app.js']), { modules: ['app.js', 'lab.js', 'pkg/core.js'], assets: [{ path: 'pkg/core_bg.wasm', kind: 'wasm' }] });
    await flatten(dir);
    const index = await readFile(join(dir, 'index.html'), 'utf8');
    assert.match(index, /<link rel="preload" href="pkg\/core_bg.wasm" as="fetch" type="application\/wasm" crossorigin>\n<link rel="modulepreload" href="lab.js">\n<link rel="modulepreload" href="pkg\/core.js">\n<\/head>/);
    assert.doesNotMatch(index, /later\.js|modulepreload" href="app\.js/, 'on-demand modules and the entry itself are not preloaded');
    const host = await readFile(join(dir, 'sub/host.html'), 'utf8');
    assert.match(host, /href="\.\.\/pkg\/core_bg.wasm"[^\n]*\n<link rel="modulepreload" href="\.\.\/lab.js">/, 'links relative to the page');
    // The entry keeps its own imports first (evaluation order) and learns of the deeper modules at once.
    assert.equal(await readFile(join(dir, 'el.js'), 'utf8'), 'import{L}from"./lab.js";import"./extra.js";\nimport"./pkg/core.js";\n');
    await flatten(dir);
    assert.equal(await readFile(join(dir, 'index.html'), 'utf8'), index, 'a second run changes nothing');
    await writeFile(join(dir, 'lab.js'), 'import"./gone.js";');
    await assert.rejects(flatten(dir), /gone\.js is imported but missing/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** The requests a page makes until `ready` shows, with what started each: { path: initiator type }. */
async function initiators(path, ready) {
  const { context, page, watch } = await openPage(env.browser);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const sent = new Map();
    const cached = new Set(); // answered from the memory cache (a second <link> to the same stylesheet): no round trip
    cdp.on('Network.requestWillBeSent', (e) => sent.set(e.requestId, [e.request.url.slice(env.url.length), e.initiator.type]));
    cdp.on('Network.requestServedFromCache', (e) => cached.add(e.requestId));
    await page.goto(env.url + path);
    await page.locator(ready).first().waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    assert.deepEqual(watch.problems(), []);
    // The first request for each URL says how it was found (a later one is the shadow root's <link> to a
    // stylesheet the page has already, revalidated under the server's no-cache).
    const first = {};
    for (const [id, [url, how]] of sent) if (!cached.has(id)) first[url] ??= how;
    return first;
  } finally {
    await context.close();
  }
}

// The lab's pages are ready at their first verdict; explore.html at its first phase diagram (its modules
// split by job: the preloads must name them all).
const LAB_READY = '[data-testid=outcome][data-outcome]';
// A lab starts from the runs the build wrote (pkg/start.json, no wasm); the lessons' first beat and
// explore's first map run the engine at once.
const START = /(^|\/)pkg\/start\.json$/;
const WASM = /\.wasm$/;
for (const [path, ready, needs] of [['', LAB_READY, START], ['learn.html', LAB_READY, WASM], ['embed.html', LAB_READY, START], ['examples/docs-page.html', LAB_READY, START], ['explore.html', 'body[data-phase=ready]', WASM]]) {
  test(`${path || 'index.html'}: everything it needs at start is found in the HTML (one round trip, no waterfall)`, async () => {
    const seen = await initiators(path, ready);
    assert.ok(Object.keys(seen).some((u) => needs.test(u)), `${needs} is requested`);
    // "parser": found in the HTML (scripts, links, preloads); the favicon is the browser's own ("other").
    const late = Object.entries(seen).filter(([u, how]) => how !== 'parser' && !(how === 'other' && /^(|.*\.html|favicon\.svg)$/.test(u.replace(/\?.*/, ''))));
    assert.deepEqual(late, [], 'requests discovered only by running or importing scripts');
  });
}

test('a host page without preloads: lease-lab.js names every module of its graph itself', async () => {
  const code = await readFile(join(DIST, 'lease-lab.js'), 'utf8');
  const graph = await moduleGraph(DIST, ['lease-lab.js']);
  const direct = new Set(staticImports(code).map((s) => s.replace(/^\.\//, '')));
  assert.deepEqual(graph.modules.slice(1).filter((m) => !direct.has(m)), []);
});

test('explore.html loads its own wasm (leaselab_mc), not the lab page\'s', async () => {
  const { context, page, watch } = await openPage(env.browser);
  try {
    await page.goto(`${env.url}explore.html`);
    await page.locator('body[data-phase=ready]').waitFor();
    await page.waitForLoadState('networkidle');
    const paths = watch.requests.map((u) => u.slice(env.url.length));
    assert.ok(paths.includes('pkg/leaselab_mc_bg.wasm'), paths.join(' '));
    assert.deepEqual(paths.filter((p) => /^pkg\/leaselab(_bg\.wasm|\.js)$|^lab\.js$/.test(p)), []);
  } finally {
    await context.close();
  }
});

test('the lab page, as Chromium transfers it (gzipped, headers included), stays within its budget', async () => {
  const budget = Number(execFileSync('bash', [join(ROOT, 'tools', 'webcfg.sh'), 'page_gzip_budget'], { encoding: 'utf8' }));
  const r = await load(env.browser, env.url);
  assert.ok(r.kib * 1024 <= budget, `${r.kib.toFixed(1)} KiB in ${r.requests} requests > ${budget / 1024} KiB:\n${r.urls.join('\n')}`);
});

test('the About section\'s sources are not on the first load: they arrive when it comes near the screen', async () => {
  const { context, page, watch } = await openPage(env.browser);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(env.url);
    await page.locator(LAB_READY).waitFor();
    await page.waitForLoadState('networkidle');
    const sources = () => watch.requests.filter((u) => u.endsWith('/pkg/sources.en.json'));
    assert.deepEqual(sources(), [], 'fetched on the first load');
    assert.equal(await page.locator('#about-source').textContent(), '');
    await page.locator('#about-source').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('#about-source').textContent.length > 0);
    assert.match(await page.locator('#about-source').textContent(), /Kleppmann/);
    assert.equal(sources().length, 1);
    // Another scenario's, from the same file: no request more.
    await page.locator('#scenario').selectOption('write-only-gap');
    await page.waitForFunction(() => /analysis/.test(document.querySelector('#about-derived-text').textContent));
    assert.equal(await page.locator('#about-derived').isHidden(), false);
    assert.equal(sources().length, 1);
    assert.deepEqual(watch.problems(), []);
  } finally {
    await context.close();
  }
});

test('a service beyond the core: its words (i18n/services/) come with its runs, not after them; the seed loads none', async () => {
  const { context, page, watch } = await openPage(env.browser);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const sent = {};
    const answered = {};
    const path = (u) => u.slice(env.url.length);
    cdp.on('Network.requestWillBeSent', (e) => (sent[path(e.request.url)] ??= e.timestamp));
    cdp.on('Network.responseReceived', (e) => (answered[path(e.response.url)] ??= e.timestamp));
    await page.goto(`${env.url}?scenario=etcd-lease-pause`);
    await page.locator(LAB_READY).waitFor();
    assert.deepEqual(watch.problems(), []);
    const words = sent['i18n/services/etcd.js'];
    const runs = Object.keys(answered).filter((u) => u.startsWith('pkg/runs/etcd-lease-pause/'));
    assert.ok(words && runs.length, Object.keys(sent).join(' '));
    for (const u of runs) assert.ok(words <= answered[u], `the words were asked for after ${u} came back`);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'etcd server');
    // The language switched to has them too, with no request for them.
    const asked = watch.requests.length;
    await page.locator('#lang').selectOption('bn');
    await page.locator('#svg text.lane-name', { hasText: 'etcd সার্ভার' }).waitFor();
    assert.deepEqual(watch.requests.slice(asked).filter((u) => /\/i18n\/services\//.test(u)), []);
    await page.locator('#lang').selectOption('en');
    // Another scenario on another service: its words, with the full engine.
    await page.locator('#scenario').selectOption('zk-session-expiry');
    await page.locator('#svg text.lane-name', { hasText: 'ZooKeeper ensemble' }).waitFor();
    assert.ok(watch.requests.some((u) => u.endsWith('/i18n/services/zookeeper.js')));
    const mark = watch.requests.length;
    await page.goto(env.url);
    await page.locator(LAB_READY).waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(watch.requests.slice(mark).filter((u) => /\/i18n\/services\//.test(u)), [], 'the seed’s page');
  } finally {
    await context.close();
  }
});

test('a service whose words cannot be had: said on the console, the run drawn with their keys, nothing thrown', async () => {
  const { context, page, watch } = await openPage(env.browser);
  try {
    const warned = [];
    page.on('console', (m) => m.type() === 'warning' && warned.push(m.text()));
    await page.route('**/i18n/services/etcd.js', (r) => r.fulfill({ status: 404, body: 'gone' }));
    await page.goto(`${env.url}?scenario=etcd-lease-pause&ttl=1000`);
    await page.locator(LAB_READY).waitFor();
    assert.deepEqual(watch.problems().filter((p) => !/404/.test(p)), []);
    assert.ok(warned.some((t) => /etcd.*did not load/.test(t)), warned.join('\n'));
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'Lock service', 'the lane by the generic name');
    const rows = await page.locator('#events tr').allTextContents();
    assert.ok(rows.some((t) => /A: lease-granted/.test(t)), 'an event by its key');
    assert.ok(rows.some((t) => /A starts\./.test(t)), 'the core’s words as ever');
    assert.doesNotMatch(await page.locator('#svg').textContent(), /undefined/);
  } finally {
    await context.close();
  }
});

test('the minified stylesheets (tools/minify.mjs) parse to the same rules as their source', async () => {
  const { context, page } = await openPage(env.browser);
  try {
    await page.goto(`${env.url}favicon.svg`);
    for (const css of ['style.css', 'explore.css', 'examples/docs-page.css']) {
      const [src, min] = await Promise.all([readFile(join(ROOT, 'www', css), 'utf8'), readFile(join(DIST, css), 'utf8')]);
      assert.ok(min.length < src.length * 0.9, `${css} is minified`);
      const rules = (text) => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(text);
        // Custom properties keep their raw text: the spaces after a comma survive there (meaningless in a
        // font list or var() fallback once substituted), so compare without them.
        return [...sheet.cssRules].map((r) => r.cssText.replace(/\s*,\s*/g, ','));
      };
      const [a, b] = await Promise.all([page.evaluate(rules, src), page.evaluate(rules, min)]);
      assert.deepEqual(b, a, css);
    }
  } finally {
    await context.close();
  }
});
