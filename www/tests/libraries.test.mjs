// End-to-end tests of what the page shows of a client's lock library (issue 44), against dist/ in
// headless Chromium: a library scenario's lab draws the library's notices beside the truth, in English
// and Bengali, and its verdict is the CLI's; its runs come from the fifth wasm (pkg/leaselab_clients),
// which no other scenario loads; the lessons' chapter eight walked by keyboard; a reader's own scenario
// with `library=` told where it runs; axe at a phone's width.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup, openPage, cliVerdict, axeViolations, verdict, ROOT, RESULTS } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Opens `path` on a fresh page, runs `fn(page, watch)`, then checks nothing went wrong on the way. */
async function withPage(path, fn, opts = {}) {
  const { context, page, watch } = await openPage(env.browser, opts);
  try {
    if (opts.html) await page.route(env.url + path, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: opts.html }));
    await page.goto(env.url + path);
    await fn(page, watch);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
    assert.deepEqual(watch.requests.filter((u) => new URL(u).origin !== new URL(env.url).origin), [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
}

const scenarioText = (id) => readFileSync(join(ROOT, 'crate', 'scenarios', `${id}.txt`), 'utf8');
/** The wasm builds a page fetched, by file name, in order. */
const wasmOf = (watch) => watch.requests.filter((u) => u.endsWith('.wasm')).map((u) => u.split('/').pop());
/** Waits for a verdict other than `was` (a change was made), then returns it. */
async function verdictAfter(page, was) {
  await page.waitForFunction((w) => {
    const b = document.querySelector('[data-testid="outcome"][data-outcome]');
    return b && `${b.dataset.outcome}/${b.dataset.final}/${b.dataset.expected}` !== w && !b.hasAttribute('aria-busy');
  }, was);
  return verdict(page);
}

test('kazoo-is-acquired: the notices on A’s lane beside the truth, and the verdict the CLI gives, under two policies', () =>
  withPage('?scenario=kazoo-is-acquired', async (page, watch) => {
    const want = await cliVerdict(scenarioText('kazoo-is-acquired'));
    const v = await verdict(page);
    assert.deepEqual({ outcome: v.outcome, final: v.final, expected: v.expected }, want);
    // A's lane names its library; the notice is a hollow red diamond with its note; the legend says what it is.
    assert.ok((await page.locator('#svg text.lane-name').allTextContents()).some((t) => t.endsWith('· kazoo 2.11.0')));
    assert.ok((await page.locator('#svg path.notice').count()) >= 1, 'a notice drawn');
    assert.ok((await page.locator('#svg path.notice.bad').count()) >= 1, 'the is_acquired answer drawn as misleading');
    assert.ok((await page.locator('#svg text.ann').allTextContents()).some((t) => t.startsWith('lock.is_acquired → True')));
    assert.equal(await page.locator('#legend li[data-kind="notice"]').isVisible(), true);
    // Its prose came with the libraries' words (pkg/clients.en.json), not with every page's texts.
    assert.match(await page.locator('#about-summary').textContent(), /lock\.is_acquired/);
    assert.match(await page.locator('#about-source').textContent(), /kazoo\/recipe\/lock\.py/);
    assert.equal(watch.requests.filter((u) => u.endsWith('/pkg/clients.en.json')).length, 1);
    // The text alternative: the diagram's description and the events table.
    assert.match(await page.locator('#svg desc').textContent(), /A: kazoo 2\.11\.0/);
    const rows = await page.locator('#events tr').allTextContents();
    assert.ok(rows.some((t) => /lock\.is_acquired answers True — but the lock service has given the lock away/.test(t)), 'the events say what the code saw');
    assert.ok(rows.some((t) => /kazoo calls A’s connection listener with (SUSPENDED|LOST)/.test(t)), 'the listener’s states in kazoo’s name');
    assert.deepEqual(rows.filter((t) => /[A-Z]: [a-z]+(-[a-z]+)*( [a-z-]+)?$/.test(t)), [], 'no event told by its key');
    // Another policy at the defaults is a written run; a pause of another length runs the engine: the
    // clients build, and no other.
    await page.locator('#fencing').selectOption('token');
    const fenced = await verdictAfter(page, `${v.outcome}/${v.final}/${v.expected}`);
    assert.deepEqual({ outcome: fenced.outcome, final: fenced.final, expected: fenced.expected }, await cliVerdict(scenarioText('kazoo-is-acquired'), ['--fencing', 'token']));
    assert.deepEqual(wasmOf(watch), [], 'a written run: no wasm yet');
    await page.locator('input[type=range]#pause').fill('1000');
    const short = await verdictAfter(page, `${fenced.outcome}/${fenced.final}/${fenced.expected}`);
    assert.deepEqual({ outcome: short.outcome, final: short.final, expected: short.expected }, await cliVerdict(scenarioText('kazoo-is-acquired'), ['--fencing', 'token', '--pause', '1000ms']));
    assert.deepEqual(wasmOf(watch), ['leaselab_clients_bg.wasm']);
    assert.equal(watch.requests.filter((u) => u.endsWith('/i18n/libraries.js')).length, 1, 'the libraries’ words, once');
    await page.screenshot({ path: join(RESULTS, 'libraries-kazoo-1280.png'), fullPage: true });
  }));

test('in Bengali at 390 px: the libraries’ words in Bengali, code as code, and axe finds nothing serious', () =>
  withPage(
    '?scenario=kazoo-is-acquired&lang=bn',
    async (page) => {
      await verdict(page);
      const legend = await page.locator('#legend li[data-kind="notice"]').textContent();
      assert.match(legend, /লাইব্রেরি/, legend);
      const rows = await page.locator('#events tr').allTextContents();
      assert.ok(rows.some((t) => t.includes('lock.is_acquired') && t.includes('জিজ্ঞেস')), 'the event in Bengali, the call as code');
      assert.ok((await page.locator('#svg text.lane-name').allTextContents()).some((t) => t.endsWith('· kazoo ২.১১.০') || t.endsWith('· kazoo 2.11.0')));
      const { bad } = await axeViolations(page);
      assert.deepEqual(bad, [], JSON.stringify(bad, null, 1));
    },
    { width: 390, height: 844 },
  ));

test('redis-py: owned() asked before the pause, and release() raising after the write, on A’s lane', () =>
  withPage('?scenario=redis-py-owned-before-pause', async (page) => {
    const v = await verdict(page);
    assert.deepEqual({ outcome: v.outcome, final: v.final, expected: v.expected }, await cliVerdict(scenarioText('redis-py-owned-before-pause')));
    const notes = await page.locator('#svg text.ann').allTextContents();
    assert.ok(notes.some((t) => t === 'lock.owned() → True'), notes.join(' | '));
    assert.ok(notes.some((t) => t.includes('LockNotOwnedError')), notes.join(' | '));
  }));

/**
 * Each notice's diamond and its note as the browser drew them, in the SVG's units (getBBox: the real
 * glyphs' width, narrower than the layout's estimate): [{ event, cx (the diamond's centre), left,
 * right (the note's ends), leader (its x, or null) }], tied by their `data-event`.
 */
const noticeTies = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#svg path.notice')].map((p) => {
      const event = p.dataset.event;
      const d = p.getBBox();
      const note = document.querySelector(`#svg text.ann[data-event="${event}"]`).getBBox();
      const leader = document.querySelector(`#svg line.leader[data-event="${event}"]`);
      return { event, cx: d.x + d.width / 2, left: note.x, right: note.x + note.width, leader: leader && Number(leader.getAttribute('x1')) };
    }),
  );

// A notice's note reads as its diamond's (issue 44): it starts or ends at the diamond — a note near the
// right edge, flipped to its left, used to end short of it by the estimate's overshoot (kazoo's
// is_acquired at 4.4 s for a diamond at 5 s) — or a leader runs down to it. Screenshots of the
// diagram in test-results/.
for (const id of ['kazoo-is-acquired', 'curator-listener-window', 'redis-py-owned-before-pause', 'python-redis-lock-renewal-died']) {
  test(`${id}: each notice's note touches its diamond on screen, at 1280 and 390 px, in English and Bengali`, async () => {
    for (const [width, height] of [[1280, 900], [390, 844]]) {
      for (const lang of ['en', 'bn']) {
        await withPage(
          `?scenario=${id}&lang=${lang}`,
          async (page) => {
            await verdict(page);
            await page.locator('#svg path.notice').first().waitFor();
            const ties = await noticeTies(page);
            assert.ok(ties.length >= 1, 'a notice drawn');
            for (const t of ties) {
              const at = `${width} ${lang}: the note of event ${t.event} (${t.left.toFixed(1)}–${t.right.toFixed(1)}) and its diamond at ${t.cx.toFixed(1)}`;
              if (t.leader !== null) assert.ok(Math.abs(t.leader - t.cx) < 0.5 && t.left - 3 <= t.cx && t.cx <= t.right, at);
              else assert.ok(t.right >= t.cx - 6 && t.left <= t.cx + 6, at);
            }
            await page.locator('#svg').screenshot({ path: join(RESULTS, `notice-${id}-${width}-${lang}.png`) });
          },
          { width, height },
        );
      }
    }
  });
}

test('a core scenario never loads the clients wasm; a library scenario loads it alone', () =>
  withPage('', async (page, watch) => {
    const v = await verdict(page);
    await page.locator('input[type=range]#pause').fill('200');
    await verdictAfter(page, `${v.outcome}/${v.final}/${v.expected}`);
    await page.locator('#scenario').selectOption('zk-session-expiry');
    await page.locator('#fencing').selectOption('token');
    await page.locator('[data-testid="outcome"][data-outcome="safe"]').waitFor();
    assert.deepEqual(wasmOf(watch), ['leaselab_bg.wasm', 'leaselab_full_bg.wasm'], 'no clients wasm for the seed or ZooKeeper');
    await page.locator('#scenario').selectOption('kazoo-is-acquired');
    await page.locator('#fencing').selectOption('none');
    await page.locator('input[type=range]#pause').fill('1000');
    await page.locator('[data-testid="outcome"][data-outcome="safe"][data-final="390"]').waitFor();
    await page.locator('#svg path.notice').first().waitFor();
    assert.deepEqual(wasmOf(watch), ['leaselab_bg.wasm', 'leaselab_full_bg.wasm', 'leaselab_clients_bg.wasm']);
  }));

// Chapter 8, step by step with the keyboard only: Tab to a choice, Enter, the reveal, → to the next.
for (const lang of ['en', 'bn']) {
  test(`chapter 8, the client you call: every step walked by keyboard (${lang})`, () =>
    withPage(`learn.html?lang=${lang}#chapter-8`, async (page) => {
      const title = lang === 'en' ? 'The client you call' : 'যে ক্লায়েন্ট লাইব্রেরি আপনি ডাকেন';
      await page.locator('#ls-title', { hasText: title }).waitFor();
      const steps = await page.evaluate(async () => (await import('./lessons.js')).chapters[7].beats.length);
      assert.ok(steps >= 3, `${steps} steps`);
      for (let i = 1; i <= steps; i++) {
        await page.locator('#ls-progress', { hasText: lang === 'en' ? `Step ${i} of` : new Intl.NumberFormat('bn').format(i) }).waitFor();
        await page.locator('#lesson').focus();
        let guard = 0;
        while (!(await page.evaluate(() => document.activeElement?.classList.contains('ls-choice'))) && guard++ < 20) await page.keyboard.press('Tab');
        assert.ok(guard < 20, `step ${i}: a choice is reachable by Tab`);
        await page.keyboard.press('Enter');
        await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
        await page.locator('[data-testid="outcome"][data-outcome]').waitFor();
        // The lab beside the reveal shows what the library told the code.
        assert.ok((await page.locator('#svg path.notice').count()) >= 1, `step ${i}: the notices drawn`);
        const reveal = await page.locator('#ls-reveal').textContent();
        assert.match(reveal, lang === 'en' ? /\d/ : /[০-৯]/, `step ${i}: the reveal quotes the run`);
        if (i === 1) assert.match(reveal, /is_acquired/);
        if (i < steps) {
          await page.locator('#ls-replay').focus();
          await page.keyboard.press('ArrowRight');
        }
      }
      assert.match(page.url(), /#chapter-8$/);
    }));
}

test('a reader’s own scenario with library= says it runs on the command line, in its language', () => {
  const text = scenarioText('kazoo-is-acquired');
  const html = (lang) =>
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>host</title><script type="module" src="/lease-lab.js"></script></head>` +
    `<body><main><h1>Host</h1><lease-lab lang="${lang}"><script type="text/x-leaselab">${text}</script></lease-lab></main></body></html>`;
  return Promise.all(
    [
      ['en', /library=kazoo[\s\S]*leaselab run --file/],
      ['bn', /library=kazoo[\s\S]*কমান্ড লাইনে/],
    ].map(([lang, said]) =>
      withPage(
        `host-${lang}.html`,
        async (page, watch) => {
          const box = page.locator('lease-lab [data-testid="scenario-error"]');
          await box.waitFor();
          assert.match(await box.textContent(), said);
          assert.deepEqual(wasmOf(watch), [], 'no wasm fetched for a text the page cannot run');
        },
        { html: html(lang) },
      ),
    ),
  );
});
