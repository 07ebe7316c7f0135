// End-to-end tests of ```leaselab fenced blocks (www/fence.js): the markup each docs tool gives a fence
// (tests/fences.mjs, captured from the tools' real output) becomes one lab each, with the CLI's verdict
// (`leaselab run` for a catalogue fence, `run --file` for a scenario of one's own); a fence's first line
// sets attributes, checked as the element checks them, and names it may not set are refused with a
// notice; markup in a fence stays text; blocks added later (client-side navigation) are upgraded once,
// and a block that leaves takes its lab along; a page its framework hydrates gets its labs only once
// hydrated; the fence's text stays in the page (the source
// disclosure, print, reader mode and a page without scripts); a text with errors shows them by the fence's own line
// numbers; axe. Against dist/ in headless Chromium, like embed.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setup, openPage, cliVerdict, axeViolations, until, MY_JOB, CLI, ROOT } from './helpers.mjs';
import { TOOLS, fenceHtml } from './fences.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const SEED = 'scenario=seed-gc-pause fencing=token';
const READABILITY = join(ROOT, 'www', 'node_modules', '@mozilla', 'readability', 'Readability.js');

/** A host page loading the element once, with `body`; `lang` its language. */
const hostPage = (body, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Fences</title>` +
  `<script type="module" src="/lease-lab.js"></script></head><body><main><h1>Fences</h1>${body}</main></body></html>`;

/** Opens `html` as /host.html and runs fn(page, watch); then no page or console errors. */
async function withHost(html, fn, { expected = [], ...opts } = {}) {
  const { context, page, watch } = await openPage(env.browser, opts);
  try {
    await page.route(`${env.url}host.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await page.goto(`${env.url}host.html`);
    await fn(page, watch);
    const problems = watch.problems().filter((p) => !expected.some((re) => re.test(p)));
    assert.deepEqual(problems, [], 'no console errors, page errors or CSP reports');
  } finally {
    await context.close();
  }
}

/** Every lab's verdict, in page order, once all have one. */
async function verdicts(page, count) {
  const read = () =>
    page.$$eval('lease-lab', (els) => els.map((el) => el.shadowRoot?.querySelector('[data-testid="outcome"][data-outcome]')?.dataset ?? null).map((d) => d && { outcome: d.outcome, final: Number(d.final), expected: Number(d.expected) }));
  return until(read, (v) => v.length === count && v.every(Boolean), `${count} labs with verdicts`);
}

/** The CLI's verdict for a catalogue scenario. */
function cliCatalogue(id, args) {
  let out;
  try {
    out = execFileSync(CLI, ['run', '--scenario', id, '--json', ...args], { encoding: 'utf8' });
  } catch (e) {
    out = e.stdout;
  }
  const run = JSON.parse(out);
  return { outcome: run.lost_update ? 'lost-update' : 'safe', final: run.final, expected: run.expected };
}

test('every docs tool’s fence markup becomes one lab each, with the CLI’s verdict', () => {
  const own = `fencing=token\n${MY_JOB}`;
  const body = TOOLS.map((t) => `<h2>${t.name}</h2>${fenceHtml(t, SEED)}${fenceHtml(t, own)}`).join('');
  return withHost(hostPage(body), async (page) => {
    const got = await verdicts(page, TOOLS.length * 2);
    const catalogue = cliCatalogue('seed-gc-pause', ['--fencing', 'token']);
    const mine = await cliVerdict(MY_JOB, ['--fencing', 'token']);
    TOOLS.forEach((t, i) => {
      assert.deepEqual(got[2 * i], catalogue, `${t.name}: the catalogue fence`);
      assert.deepEqual(got[2 * i + 1], mine, `${t.name}: the fence with a scenario of its own`);
    });
    // Each block hidden, each marked once, each lab right before its block.
    const blocks = await page.$$eval('[data-leaselab-fence]', (bs) =>
      bs.map((b) => ({ hidden: getComputedStyle(b).display === 'none', before: b.previousElementSibling?.localName })),
    );
    assert.equal(blocks.length, TOOLS.length * 2);
    assert.ok(blocks.every((b) => b.hidden && b.before === 'lease-lab'), JSON.stringify(blocks));
    // The text each lab read is the fence's, line for line (gutters, buttons and highlighting left out).
    const sources = await page.$$eval('lease-lab > pre[slot="source"]', (ps) => ps.map((p) => p.textContent));
    TOOLS.forEach((t, i) => {
      assert.equal(sources[2 * i], SEED, `${t.name}: catalogue source`);
      assert.equal(sources[2 * i + 1], own.replace(/\n$/, ''), `${t.name}: own source`);
    });
  });
});

test('a fence’s first line sets the element’s attributes as they are checked; others are refused with a notice; markup is text', () => {
  const evil = 'scenario=seed-gc-pause ttl=1000 pause="1500" onclick="alert(1)" style=color:red bogus=1';
  const own = 'id: markup\ntitle: <img src=x onerror="window.__bad=1"> & <b>bold</b>\nsummary: s\nservice: lease ttl=300ms\nclient A: acquire; read; write 60; release\n';
  return withHost(hostPage(fenceHtml(TOOLS[0], evil) + fenceHtml(TOOLS[0], own)), async (page) => {
    await verdicts(page, 2);
    const first = page.locator('lease-lab').first();
    const attrs = await first.evaluate((el) => Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])));
    assert.deepEqual(attrs, { scenario: 'seed-gc-pause', ttl: '1000', pause: '1500', bogus: '1' });
    assert.deepEqual(await verdicts(page, 2).then((v) => v[0]), cliCatalogue('seed-gc-pause', ['--ttl', '1000ms', '--pause', '1500ms']));
    const notices = await first.locator('#notice-list li').allTextContents();
    assert.deepEqual(notices.map((n) => n.split('=')[0]).sort(), ['bogus', 'onclick', 'style']);
    const second = page.locator('lease-lab').nth(1);
    assert.equal(await second.locator('#scn-title').textContent(), '<img src=x onerror="window.__bad=1"> & <b>bold</b>');
    assert.equal(await page.evaluate(() => window.__bad), undefined);
    assert.equal(await page.locator('lease-lab img, lease-lab b').count(), 0, 'nothing in the page parsed from a fence');
  });
});

test('a fence added later is upgraded once; a block that leaves takes its lab; Bengali follows the page', () =>
  withHost(
    hostPage('<div id="content"></div>', 'bn'),
    async (page) => {
      const add = (text) =>
        page.evaluate((t) => {
          const pre = document.createElement('pre');
          const code = pre.appendChild(document.createElement('code'));
          code.className = 'language-leaselab';
          code.textContent = t;
          document.getElementById('content').append(pre);
        }, text);
      await add(SEED);
      await verdicts(page, 1);
      await add('scenario=seed-gc-pause');
      await verdicts(page, 2);
      // Moving an upgraded block (a framework re-rendering) upgrades nothing twice.
      await page.evaluate(() => document.getElementById('content').append(...document.querySelectorAll('#content > *')));
      await page.waitForTimeout(200);
      assert.equal(await page.locator('lease-lab').count(), 2);
      assert.equal(await page.locator('lease-lab').first().locator('#source-box summary').textContent(), 'উৎস (ব্লকের লেখা)');
      // Navigation replaces the content: the old labs go with their blocks, the new fence gets one.
      await page.evaluate(() => (document.getElementById('content').innerHTML = '<pre><code class="language-leaselab">scenario=seed-gc-pause fencing=token</code></pre>'));
      await verdicts(page, 1);
    },
  ));

test('on a page its framework hydrates (Docusaurus, VitePress), a fence is upgraded only once hydrated', async () => {
  const page = (generator, extra = '') =>
    hostPage(fenceHtml(TOOLS[0], SEED)).replace('<head>', `<head><meta name="generator" content="${generator}">`).replace('<main>', `<main id="app"${extra}>`);
  const hydrate = {
    'Docusaurus v3.10.2': (p) => p.evaluate(() => (document.querySelector('pre')['__reactFiber$test'] = {})),
    'VitePress v1.6.4': (p) => p.evaluate(() => (document.getElementById('app').__vue_app__ = {})),
  };
  for (const [generator, done] of Object.entries(hydrate)) {
    await withHost(page(generator), async (p) => {
      await p.waitForTimeout(400);
      assert.equal(await p.locator('lease-lab').count(), 0, `${generator}: nothing put in before hydration`);
      await done(p);
      assert.deepEqual((await verdicts(p, 1))[0], cliCatalogue('seed-gc-pause', ['--fencing', 'token']), generator);
    });
  }
});

test('the fence’s text stays in the page: the source disclosure, print, and no scripts', async () => {
  const html = hostPage(fenceHtml(TOOLS[0], SEED));
  await withHost(html, async (page) => {
    await verdicts(page, 1);
    const box = page.locator('lease-lab #source-box');
    assert.equal(await box.isVisible(), true);
    const source = page.locator('lease-lab > pre[slot="source"]');
    assert.equal(await source.isVisible(), false, 'closed at first');
    await box.locator('summary').click();
    assert.equal(await source.isVisible(), true);
    await page.setViewportSize({ width: 390, height: 900 });
    assert.deepEqual((await axeViolations(page)).bad, [], 'open, on a phone (its lines scroll sideways)');
    await box.locator('summary').click();
    await page.emulateMedia({ media: 'print' });
    assert.equal(await source.isVisible(), true, 'printed open');
    await page.emulateMedia({ media: 'screen' });
    // Reader mode (Firefox's, Mozilla's Readability) reads the page's markup: the fence's text is in it.
    await page.addScriptTag({ path: READABILITY });
    const article = await page.evaluate(() => new window.Readability(document.cloneNode(true)).parse());
    assert.ok(article?.textContent.includes(SEED), `reader mode keeps the fence's text: ${article?.textContent.slice(0, 300)}`);
    assert.deepEqual((await axeViolations(page)).bad, []);
  });
  const context = await env.browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.route(`${env.url}host.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await page.goto(`${env.url}host.html`);
    assert.equal((await page.locator('pre code.language-leaselab').innerText()).trimEnd(), SEED, 'the block as code');
    assert.equal(await page.locator('lease-lab').count(), 0);
  } finally {
    await context.close();
  }
});

test('a fence that does not parse shows its errors by the fence’s line numbers, with its text beside them', () => {
  const bad = 'fencing=token\nid: broken\ntitle: Broken\nsummary: s\nservice: lease ttl=300ms\nclient A: acquire; fly\n';
  return withHost(hostPage(fenceHtml(TOOLS[0], bad) + fenceHtml(TOOLS[0], SEED)), async (page) => {
    const err = page.locator('lease-lab').first().locator('[data-testid="scenario-error"]');
    await err.waitFor();
    assert.match(await err.textContent(), /line 6\b/i);
    assert.equal(await page.locator('lease-lab').first().locator('> pre[slot="source"]').isVisible(), true, 'the text shown under the errors');
    const other = page.locator('lease-lab').nth(1).locator('[data-testid="outcome"][data-outcome]');
    await other.waitFor();
    assert.equal(await other.getAttribute('data-outcome'), 'safe', 'the page’s other lab works');
  });
});

test('the example page written in Markdown (examples/docs-fences.html): its three fences, the CLI’s verdicts, no errors', async () => {
  const { context, page, watch } = await openPage(env.browser);
  try {
    await page.goto(`${env.url}examples/docs-fences.html`);
    const got = await verdicts(page, 3);
    const own = await page.locator('lease-lab').nth(2).locator('> pre[slot="source"]').textContent();
    const ttlPause = ['--ttl', '300ms', '--pause', '600ms'];
    assert.deepEqual(got, [
      cliCatalogue('seed-gc-pause', [...ttlPause, '--fencing', 'none']),
      cliCatalogue('seed-gc-pause', [...ttlPause, '--fencing', 'token']),
      await cliVerdict(own.split('\n').slice(1).join('\n'), ['--fencing', 'none']),
    ]);
    assert.equal(got[2].outcome, 'lost-update', 'the job runner loses B’s update unfenced');
    assert.deepEqual(watch.problems(), []);
  } finally {
    await context.close();
  }
});

test('fences over the limits get the element’s errors, and the page’s other lab still works', () => {
  const big = `id: big\ntitle: Big\n${'# a comment line to pass the size limit\n'.repeat(2000)}`;
  const forever =
    'id: forever\ntitle: Forever\nsummary: Never ends\nservice: redlock ttl=3600s nodes=1\nclient A: acquire; read; write 1\n' +
    [...'BCDEFGH'].map((c) => `client ${c}: acquire every 1us; read; write 1\n`).join('');
  return withHost(hostPage(fenceHtml(TOOLS[0], big) + fenceHtml(TOOLS[0], forever) + fenceHtml(TOOLS[0], SEED)), async (page) => {
    const errorOf = async (i) => {
      const box = page.locator('lease-lab').nth(i).locator('[data-testid="scenario-error"]');
      await box.waitFor();
      return box.textContent();
    };
    assert.match(await errorOf(0), /at most 65536 bytes/);
    assert.match(await errorOf(1), /1,?000,?000 events|event limit/i);
    const other = page.locator('lease-lab').nth(2).locator('[data-testid="outcome"][data-outcome]');
    await other.waitFor();
    assert.equal(await other.getAttribute('data-outcome'), 'safe');
  });
});
