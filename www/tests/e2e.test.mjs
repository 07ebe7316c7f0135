// End-to-end tests of the page in dist/, in headless Chromium (playwright-core, /usr/bin/chromium).
// Run `bash tools/build-web.sh` first, then `cd www && npm install && npm test`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setup, openPage, verdict, RESULTS, ROOT, axeViolations } from './helpers.mjs';
import { serve } from '../../tools/serve.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Opens `query` on a fresh page, runs `fn(page)`, then checks nothing went wrong on the way. */
async function withPage(query, fn, opts = {}) {
  const { context, page, watch } = await openPage(env.browser, opts);
  try {
    await page.goto(env.url + query);
    await fn(page, watch);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
    const origin = new URL(env.url).origin;
    const foreign = watch.requests.filter((u) => new URL(u).origin !== origin);
    assert.deepEqual(foreign, [], 'no request leaves the page’s origin');
  } finally {
    await context.close();
  }
}

const slider = (page, name) => page.locator(`input[type=range]#${name}`);
/** Waits until the verdict shows `outcome`, then returns it. */
async function expectVerdict(page, outcome, final, expected) {
  await page.locator(`[data-testid="outcome"][data-outcome="${outcome}"][data-final="${final}"][data-expected="${expected}"]`).waitFor();
  const v = await verdict(page);
  assert.equal(v.outcome, outcome);
  return v;
}

test('the default page shows the seed’s lost update, 440 instead of 450', () =>
  withPage('', async (page) => {
    const v = await expectVerdict(page, 'lost-update', 440, 450);
    assert.match(v.text, /LOST UPDATE/);
    assert.match(v.text, /told “ok”/);
    assert.equal(await page.locator('#svg line.arrow').count() > 3, true, 'the diagram has arrows');
    assert.match(await page.locator('#transcript').textContent(), /LOST UPDATE \[unfenced\]/);
    // Accessible names of the contract's controls.
    assert.equal(await page.getByLabel(/TTL/).first().getAttribute('type'), 'range');
    assert.equal(await page.getByLabel(/^Pause/).first().getAttribute('type'), 'range');
    assert.equal(await page.getByLabel(/Fencing/).evaluate((e) => e.tagName), 'SELECT');
  }));

test('fencing=token is safe: the storage rejects A’s stale write', () =>
  withPage('?fencing=token', async (page) => {
    const v = await expectVerdict(page, 'safe', 450, 450);
    assert.match(v.text, /SAFE/);
    assert.match(v.text, /The storage rejected A’s write of 440: token 1 is older than token 2/);
    assert.match(v.text, /from the storage, not the lock service/);
    assert.equal(await page.locator('#fencing').inputValue(), 'token');
  }));

test('a pause shorter than the TTL is safe: 390/390', () =>
  withPage('?pause=200', async (page) => {
    await expectVerdict(page, 'safe', 390, 390);
    assert.equal(await slider(page, 'pause').inputValue(), '200');
  }));

test('URL parameters load the state and survive a reload', () =>
  withPage('?scenario=gc-pause&ttl=700&pause=900&fencing=version&lang=en', async (page) => {
    const check = async () => {
      await expectVerdict(page, 'safe', 450, 450);
      assert.equal(await page.locator('#scenario').inputValue(), 'gc-pause');
      assert.equal(await slider(page, 'ttl').inputValue(), '700');
      assert.equal(await slider(page, 'pause').inputValue(), '900');
      assert.equal(await page.locator('#fencing').inputValue(), 'version');
    };
    await check();
    await page.reload();
    await check();
  }));

test('changing the controls updates the verdict and the URL', () =>
  withPage('', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    await page.locator('#fencing').selectOption('token');
    await expectVerdict(page, 'safe', 450, 450);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('fencing') === 'token');
    await slider(page, 'pause').fill('100');
    await expectVerdict(page, 'safe', 390, 390);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('pause') === '100');
    await page.locator('#scenario').selectOption('delayed-write');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('scenario') === 'delayed-write');
    // Back to the defaults: the parameters leave the URL again.
    await page.locator('#scenario').selectOption('seed-gc-pause');
    await page.locator('#fencing').selectOption('none');
    await page.waitForFunction(() => location.search === '');
    await expectVerdict(page, 'lost-update', 440, 450);
  }));

test('the verdict follows a slider while it is dragged (input events, not only change)', () =>
  withPage('', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    // The first verdict came without the engine; reaching for the slider fetches it.
    await slider(page, 'pause').focus();
    await page.locator('#mount[data-engine=ready]').waitFor({ state: 'attached' });
    const outcome = await slider(page, 'pause').evaluate((el) => {
      el.value = '100';
      el.dispatchEvent(new Event('input', { bubbles: true }));
      return document.querySelector('[data-testid=outcome]').dataset.outcome;
    });
    assert.equal(outcome, 'safe', 'updated synchronously on input');
  }));

test('invalid parameters show a visible notice and the defaults', () =>
  withPage('?ttl=abc&fencing=magic&scenario=nope', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    const notice = page.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    const text = await notice.textContent();
    assert.match(text, /ttl=abc/);
    assert.match(text, /fencing=magic/);
    assert.match(text, /scenario=nope/);
    assert.equal(await page.locator('#scenario').inputValue(), 'seed-gc-pause');
    assert.equal(await slider(page, 'ttl').inputValue(), '300');
    assert.equal(await page.locator('#fencing').inputValue(), 'none');
  }));

test('out-of-range values clamp with a notice; a scenario without a pause disables the slider', () =>
  withPage('?pause=99999&ttl=1', async (page) => {
    await page.locator('#notice').waitFor({ state: 'visible' });
    assert.match(await page.locator('#notice').textContent(), /pause=99999 is outside 0–3000 ms; using 3000 ms/);
    assert.equal(await slider(page, 'pause').inputValue(), '3000');
    assert.equal(await slider(page, 'ttl').inputValue(), '10');
    await page.locator('#scenario').selectOption('happy-path');
    assert.equal(await slider(page, 'pause').isDisabled(), true);
    assert.match(await page.locator('#pause-note').textContent(), /no|Nothing freezes/i);
    await expectVerdict(page, 'safe', 390, 390);
  }));

test('keyboard: the Pause slider moves with ArrowLeft, PageDown and Home, and the verdict follows', () =>
  withPage('', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    const pause = slider(page, 'pause');
    await pause.focus();
    await page.keyboard.press('ArrowLeft');
    assert.equal(await pause.inputValue(), '599');
    await page.keyboard.press('PageDown');
    assert.ok(Number(await pause.inputValue()) < 599);
    await page.keyboard.press('Home');
    assert.equal(await pause.inputValue(), '0');
    await expectVerdict(page, 'safe', 390, 390);
    // The polite live region announces the new verdict once the slider has settled.
    await page.waitForFunction(() => /SAFE: final 390, expected 390/.test(document.querySelector('#live').textContent));
    // Focus is visible on the slider.
    const outline = await pause.evaluate((e) => getComputedStyle(e).outlineStyle);
    assert.notEqual(outline, 'none');
  }));

test('every scenario in the picker renders a verdict and a diagram', () =>
  withPage('', async (page) => {
    await verdict(page); // the picker is filled once the lab has loaded
    const ids = await page.locator('#scenario option').evaluateAll((os) => os.map((o) => o.value));
    assert.ok(ids.length >= 9, `found ${ids.length} scenarios`);
    const groups = await page.locator('#scenario optgroup').evaluateAll((gs) => gs.map((g) => g.label));
    assert.deepEqual(groups, ['The seed', 'Kleppmann’s cases', 'antirez’s replies', 'PostgreSQL', 'Networks', 'Lock services', 'Clocks', 'etcd', 'ZooKeeper', 'Storage that fences', 'Hazelcast', 'Kubernetes', 'Consul', 'DynamoDB', 'MySQL', 'Client libraries']);
    const policies = await page.locator('#fencing option').evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(policies, ['none', 'token', 'first-touch', 'version', 'etag', 'owner', 'equal-token']);
    for (const id of ids) {
      for (const fencing of policies) {
        await page.locator('#scenario').selectOption(id);
        await page.locator('#fencing').selectOption(fencing);
        const v = await verdict(page);
        assert.match(v.outcome, /^(lost-update|safe)$/, `${id}/${fencing}`);
        assert.ok(Number.isInteger(v.final) && Number.isInteger(v.expected), `${id}/${fencing} numbers`);
        assert.ok((await page.locator('#svg rect.lease').count()) >= 1, `${id}: leases drawn`);
        assert.ok((await page.locator('#events tr').count()) >= 5, `${id}: events listed`);
      }
    }
  }));

test('playback: stepping walks the events and the verdict does not depend on the playhead', () =>
  withPage('', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    await page.locator('#scrub').fill('0');
    await expectVerdict(page, 'lost-update', 440, 450);
    await page.getByRole('button', { name: 'Previous event' }).click();
    assert.match(await page.locator('#now').textContent(), /Press Play/);
    await page.getByRole('button', { name: 'Next event' }).click();
    assert.match(await page.locator('#now').textContent(), /^At 0 ms:/);
    await page.getByRole('button', { name: 'Next event' }).click();
    assert.match(await page.locator('#now').textContent(), /^At 50 ms:/);
    await page.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction(() => Number(document.querySelector('#scrub').value) >= 600);
    await page.getByRole('button', { name: 'Play' }).waitFor();
  }, { reducedMotion: 'no-preference' }));

test('lang=bn shows Bengali text and sets <html lang="bn">', () =>
  withPage('?lang=bn', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'bn');
    assert.match(await page.locator('[data-testid=outcome]').textContent(), /হারানো আপডেট/);
    assert.match(await page.locator('h2#h-settings').textContent(), /সেটিং/);
    // Switching language back from the page itself.
    await page.locator('#lang').selectOption('en');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    await page.waitForFunction(() => !location.search.includes('lang='));
  }));

test('no horizontal scroll at 390 px; screenshots at 1280 and 390 px', async () => {
  for (const [width, query, name] of [
    [1280, '', 'page-1280'],
    [390, '', 'page-390'],
    [1280, '?fencing=token', 'page-1280-token'],
    [390, '?lang=bn&fencing=token', 'page-390-bn'],
    [390, '?scenario=delayed-write', 'page-390-delayed'],
  ]) {
    await withPage(query, async (page) => {
      await verdict(page);
      await page.locator('details.events summary').click();
      await page.locator('details.transcript summary').click();
      const sw = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(sw <= width, `${name}: scrollWidth ${sw} > ${width}`);
      await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });
      await page.locator('#chart').screenshot({ path: join(RESULTS, `${name}-chart.png`) });
    }, { width, height: 900 });
  }
});

test('the page works from a sub-path (relative URLs only)', async () => {
  const srv = await serve({ dir: ROOT, port: 0 });
  try {
    const { context, page, watch } = await openPage(env.browser);
    await page.goto(`${srv.url}dist/?fencing=token`);
    await expectVerdict(page, 'safe', 450, 450);
    assert.ok(watch.requests.every((u) => u.startsWith(`${srv.url}dist/`)), 'every request stays under the sub-path');
    assert.deepEqual(watch.problems(), []);
    await context.close();
  } finally {
    await srv.close();
  }
});

test('the page works under the strict CSP, with no violation reports', async () => {
  const strict = await setup({ csp: true });
  try {
    const { context, page, watch } = await openPage(strict.browser);
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective}`)),
    );
    const resp = await page.goto(strict.url + '?fencing=token');
    assert.match(resp.headers()['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval'/);
    await expectVerdict(page, 'safe', 450, 450);
    await slider(page, 'pause').fill('200');
    await expectVerdict(page, 'safe', 390, 390);
    await page.locator('#lang').selectOption('bn');
    await expectVerdict(page, 'safe', 390, 390);
    assert.deepEqual(watch.problems(), []);
    await context.close();
  } finally {
    await strict.close();
  }
});

// Accessibility: axe-core (from node_modules, injected by the test, never shipped) finds no serious or
// critical violations, in English and Bengali, light and dark, desktop and phone.
for (const [query, opts] of [
  ['', {}],
  ['?lang=bn&fencing=token', { width: 390, height: 800 }],
  ['?scenario=postgres-terminate', { colorScheme: 'dark' }],
  ['?scenario=redlock-crash-restart&lang=bn', {}],
  ['?scenario=curator-suspended&lang=bn', { colorScheme: 'dark' }],
]) {
  test(`axe-core: no serious or critical violations (${query || 'default'}${opts.width ? ', 390 px' : ''}${opts.colorScheme ? ', dark' : ''})`, () =>
    withPage(query, async (page) => {
      await page.locator('[data-testid="outcome"][data-outcome]').waitFor();
      const { bad, all } = await axeViolations(page);
      assert.deepEqual(bad, [], JSON.stringify(all, null, 1));
    }, opts));
}

test('keyboard alone: Tab reaches every control in order, and focus is visible', () =>
  withPage('', async (page) => {
    await page.locator('[data-testid="outcome"][data-outcome]').waitFor();
    const seen = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const el = document.activeElement;
        const cs = getComputedStyle(el);
        return { id: el.id, outline: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0, shadow: cs.boxShadow !== 'none' };
      });
      if (info.id) seen.push(info);
    }
    const ids = seen.map((s) => s.id);
    for (const want of ['scenario', 'ttl', 'pause', 'fencing', 'play', 'scrub']) assert.ok(ids.includes(want), `Tab reaches #${want}: ${ids}`);
    for (const s of seen) assert.ok(s.outline || s.shadow, `#${s.id} shows focus`);
  }));

test('a scenario’s own parameters get sliders, drive the run and live in the URL', () =>
  withPage('?scenario=postgres-session', async (page) => {
    // No keepalive timeout: the paused holder keeps the lock, B waits, nothing is lost.
    await expectVerdict(page, 'safe', 390, 390);
    const keepalive = page.getByRole('slider', { name: /Keepalive/ });
    await keepalive.focus();
    await keepalive.fill('300');
    // A frozen 600 ms sends no keepalives: its session ends at 320 ms, B writes 450, A's late write fails.
    await expectVerdict(page, 'safe', 450, 450);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('keepalive') === '300');
    await page.reload();
    await expectVerdict(page, 'safe', 450, 450);
    assert.equal(await keepalive.inputValue(), '300');
    // The seed's step 1 has no TTL and no pause: both sliders are off, its own (kill, retry) are on.
    await page.locator('#scenario').selectOption('seed-advisory-lock');
    assert.ok(await page.locator('#ttl').isDisabled());
    assert.ok(await page.locator('#pause').isDisabled());
    assert.equal(await page.locator('#extra-list input[type=range]').count(), 2);
  }));

test('side by side: the seed unfenced next to fenced, with the divergence marked', () =>
  withPage('', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    await page.locator('#compare summary').click();
    await page.locator('#compare-verdict.safe').waitFor();
    assert.match(await page.locator('#compare-verdict').textContent(), /token.*SAFE, final 450 · expected 450\. runs diverge at 600 ms/);
    assert.ok((await page.locator('#svg2 rect.lease').count()) >= 2, 'second diagram drawn');
    assert.equal(await page.locator('svg .diverge').count(), 2, 'divergence marked on both diagrams');
    // The main verdict is unchanged by the comparison.
    await expectVerdict(page, 'lost-update', 440, 450);
    // Comparing with itself is not offered: switching the main policy to token compares with none.
    await page.locator('#fencing').selectOption('token');
    await page.locator('#compare-verdict.lost-update').waitFor();
    assert.equal(await page.locator('#compare-policy').inputValue(), 'none');
  }));

test('S3’s ETag next to GCS’s generation: compare= opens the side by side; the ETag matches again after A → B → A', () =>
  withPage('?scenario=s3-etag-aba&fencing=etag&compare=version', async (page) => {
    const v = await expectVerdict(page, 'safe', 440, 500);
    assert.match(v.text, /A’s If-Match carried the ETag of 500, and the content was 500 again/);
    assert.match(v.text, /A’s write was accepted after A had lost the lock/);
    await page.locator('#compare[open] #compare-verdict.safe').waitFor();
    assert.equal(await page.locator('#compare-policy').inputValue(), 'version');
    assert.match(await page.locator('#compare-verdict').textContent(), /version.*SAFE, final 500 · expected 500/);
    assert.match(await page.evaluate(() => location.search), /compare=version/);
    // A wakes between B's withdrawal and C's refund: the content differs, and the ETag refuses A.
    await page.goto(env.url + '?scenario=s3-etag-aba&fencing=etag&pause=340');
    const w = await expectVerdict(page, 'safe', 500, 500);
    assert.match(w.text, /A read 500 and sent its ETag with If-Match/);
    assert.equal(await page.locator('#compare[open]').count(), 0, 'closed unless asked');
    await page.goto(env.url + '?scenario=s3-etag-aba&compare=bogus');
    await expectVerdict(page, 'safe', 440, 500);
    assert.match(await page.locator('#notice-list').textContent(), /compare=bogus is not one of/);
    assert.equal(await page.locator('#compare[open]').count(), 0);
  }));

test('safety margin: says how late the stale write was and which assumption broke', () =>
  withPage('', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    const seed = await page.locator('#margin').textContent();
    assert.match(seed, /A’s write landed at 600 ms, 300 ms after its lease ended \(TTL 300 ms, from 0 to 300 ms\)/);
    assert.match(seed, /A frozen for 600 ms \(assumed: pauses are shorter than the TTL\)/);
    await page.locator('#scenario').selectOption('delayed-write');
    await page.locator('#margin', { hasText: /network holding the write for 600 ms/ }).waitFor();
    await page.locator('#scenario').selectOption('slow-clock');
    await page.locator('#margin', { hasText: /A’s own clock, which said 19\.2 ms were left at 312 ms, 12 ms after the lease had ended/ }).waitFor();
    await page.locator('#scenario').selectOption('happy-path');
    await page.locator('#margin', { hasText: /no timing assumption broke/ }).waitFor();
    // The legend names only the marks this service draws: no keepalives or queues for the seed.
    assert.equal(await page.locator('#legend li[data-kind=ka]').isHidden(), true);
    // ZooKeeper has no TTL setting: the margin gives the hold's span, not an empty TTL.
    await page.locator('#scenario').selectOption('zk-session-expiry');
    await page.locator('#margin', { hasText: /A’s write landed at 10000 ms, 2000 ms after its hold ended \(from 0 to 8000 ms\)/ }).waitFor();
    assert.doesNotMatch(await page.locator('#margin').textContent(), /TTL\s+ms/);
    assert.equal(await page.locator('#legend li[data-kind=conn]').isVisible(), true);
  }));

test('retries: a refused client starts over, and the verdict shows the serial result', () =>
  withPage('?fencing=token', async (page) => {
    await expectVerdict(page, 'safe', 450, 450);
    await page.getByRole('checkbox', { name: /starts over/ }).check();
    // A is rejected at 600 ms, re-acquires (token 3), reads 450 and writes 390.
    await expectVerdict(page, 'safe', 390, 390);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('retries') === '3');
    assert.match(await page.locator('#transcript').textContent(), /A: retry 1: acquire, read and work again/);
    await page.reload();
    await expectVerdict(page, 'safe', 390, 390);
    assert.ok(await page.getByRole('checkbox', { name: /starts over/ }).isChecked());
  }));

test('exports: transcript, JSON, a standalone SVG and a PNG; copy link', () =>
  withPage('?fencing=token', async (page) => {
    await expectVerdict(page, 'safe', 450, 450);
    const fetchDownload = async (kind) => {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(`button.export[data-kind=${kind}]`).click()]);
      const { readFile } = await import('node:fs/promises');
      return { name: dl.suggestedFilename(), bytes: await readFile(await dl.path()) };
    };
    const txt = await fetchDownload('txt');
    assert.equal(txt.name, 'leaselab-seed-gc-pause-token.txt');
    assert.match(txt.bytes.toString(), /A: woke, write 440 tok=1 → REJECTED\nfinal = 450 {2}\(expected: 450\)/);
    const json = JSON.parse((await fetchDownload('json')).bytes.toString());
    assert.equal(json.final, 450);
    assert.equal(json.fencing, 'token');
    const svg = (await fetchDownload('svg')).bytes.toString();
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return { error: !!doc.querySelector('parsererror'), root: doc.documentElement.nodeName, leases: doc.querySelectorAll('rect.lease').length, style: !!doc.querySelector('style') };
    }, svg);
    assert.deepEqual(parsed, { error: false, root: 'svg', leases: 2, style: true });
    const png = (await fetchDownload('png')).bytes;
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    const decoded = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      return [bmp.width, bmp.height];
    }, png.toString('base64'));
    assert.ok(decoded[0] > 1000 && decoded[1] > 300, `PNG decodes: ${decoded}`);
    // Copy link: the clipboard if allowed, else the link shown in a field to copy by hand.
    await page.locator('#copy-link').click();
    await page.locator('#share-status').filter({ hasText: /Link copied|Copy the link/ }).waitFor();
    const shown = await page.locator('#share-text').isVisible();
    // (Reading the clipboard back needs a permission headless Chromium does not grant; the copied text is
    // location.href, which is what the field would show.)
    const link = shown ? await page.locator('#share-text').inputValue() : await page.evaluate(() => location.href);
    assert.match(link, /\?fencing=token$/);
  }));

test('redlock: a lane per node with its clock, partitions named, and two holders after the clock jump', () =>
  withPage('?scenario=redlock-clock-jump', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    const names = await page.locator('#svg text.lane-name').allTextContents();
    // The nodes named once above their lanes, with their clocks; each lane by its node beside its line.
    for (let n = 1; n <= 5; n++) assert.ok(names.includes(`n${n}`), `lane n${n}: ${names}`);
    assert.ok(names.includes('Redis nodes n1–n5 · wall clock'), names.join(' | '));
    assert.ok(names.some((t) => /Client A · reaches only n1, n2, n3/.test(t)), names.join(' | '));
    // Three of A's keys and three of B's, each on its own node's lane.
    assert.equal(await page.locator('#svg rect.lease').count(), 6);
    const svg = await page.locator('#svg').textContent();
    assert.match(svg, /server clock \+300/);
    assert.match(svg, /3\/5 OK · validity 285 ms → holds the lock/);
    assert.match(await page.locator('#svg .overlap-label').first().textContent(), /two clients believe they hold the lock/);
    assert.match(await page.locator('#margin').textContent(), /stopped holding live keys on 3 of 5 nodes \(at 50 ms\).*n3’s wall clock jumping/);
    // The same schedule with monotonic expiry on n3: one holder, nothing lost.
    await page.locator('#scenario').selectOption('redlock-clock-jump-monotonic');
    await expectVerdict(page, 'safe', 390, 390);
    assert.ok((await page.locator('#svg text.lane-name').allTextContents()).includes('Redis nodes n1–n5 · wall clock; n3: monotonic clock'));
    assert.equal(await page.locator('#svg .overlap').count(), 0, 'one holder at a time');
  }));

test('etcd and ZooKeeper: the service lane by name, keepalive ticks, the queue, Curator\'s bands, in both languages', () =>
  withPage('?scenario=etcd-lease-pause', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    // The picker's groups hold every etcd and ZooKeeper scenario.
    const group = (label) => page.locator(`#scenario optgroup[label="${label}"] option`).evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(await group('etcd'), ['etcd-lease-pause', 'etcd-waiter-expired-lease', 'etcd-contrib-lock']);
    assert.deepEqual(await group('ZooKeeper'), ['zk-session-expiry', 'curator-suspended']);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'etcd server');
    // B's keepalives while it waits; A's only one, after its freeze, too late.
    assert.ok((await page.locator('#svg path.ka:not(.bad)').count()) >= 2);
    assert.equal(await page.locator('#svg path.ka.bad').count(), 1);
    const svg = await page.locator('#svg').textContent();
    assert.match(svg, /queue: A › B \(rev 3\)/);
    assert.match(svg, /keepalive ✗: lease gone/);
    assert.match(await page.locator('#svg-desc').textContent(), /etcd server\. Triangles/);
    assert.equal(await page.locator('#legend li').count(), 11);
    assert.equal(await page.locator('#legend li[data-kind="notice"]').isVisible(), false, 'no library here: no notices in the legend');
    await page.locator('#scenario').selectOption('curator-suspended');
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'ZooKeeper ensemble');
    assert.equal(await page.locator('#svg rect.conn.suspended').count(), 1);
    assert.equal(await page.locator('#svg rect.conn.lost').count(), 1);
    assert.match(await page.locator('#svg').textContent(), /SUSPENDED: no reply from ZooKeeper/);
    assert.match(await page.locator('#svg').textContent(), /cut off from ZooKeeper ensemble/);
    // Bengali: the same marks, in its words.
    await page.goto(env.url + '?scenario=zk-session-expiry&lang=bn');
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'ZooKeeper এনসেম্বল');
    assert.match(await page.locator('#svg').textContent(), /সারি: A › B \(ক্রম ১\)/);
    assert.equal(await page.locator('#svg rect.conn.lost').count(), 1);
    assert.match(await page.locator('#svg-desc').textContent(), /ZooKeeper এনসেম্বল।/);
  }));

test('Consul: the lock-delay holds B off until A\'s late write lands; past it, only LockIndex saves B (en and bn)', () =>
  withPage('?scenario=consul-lock-delay', async (page) => {
    await expectVerdict(page, 'safe', 390, 390);
    const group = (label) => page.locator(`#scenario optgroup[label="${label}"] option`).evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(await group('Consul'), ['consul-lock-delay', 'consul-lock-delay-exceeded']);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'Consul server');
    assert.equal(await page.locator('#ttl-label').textContent(), 'Session TTL', 'a session\'s TTL, not a lease\'s');
    assert.equal(await page.locator('#svg rect.lockdelay').count(), 1, 'the key closed from 30 to 45 s');
    assert.equal(await page.locator('#svg path.ka.bad').count(), 1, 'A renews once, when it wakes: 404');
    assert.match(await page.locator('#svg').textContent(), /renew ✗: session gone/);
    assert.match(await page.locator('#margin').textContent(), /Consul invalidated its session at 30000 ms.*kept the lock closed to everyone else until 45000 ms/);
    // Past the session's expiry plus the lock-delay: lost unfenced, safe with LockIndex as the token.
    await page.locator('#scenario').selectOption('consul-lock-delay-exceeded');
    await expectVerdict(page, 'lost-update', 440, 450);
    await page.locator('#fencing').selectOption('token');
    await expectVerdict(page, 'safe', 450, 450);
    await page.goto(env.url + '?scenario=consul-lock-delay-exceeded&lang=bn');
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'Consul সার্ভার');
    assert.match(await page.locator('#svg-desc').textContent(), /Consul সার্ভার।/);
  }));

test('hazelcast: the CP group lane, heartbeats, the waiting lock call, the fence refuses A, in both languages', () =>
  withPage('?scenario=hazelcast-fenced-lock', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    const group = (label) => page.locator(`#scenario optgroup[label="${label}"] option`).evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(await group('Hazelcast'), ['hazelcast-fenced-lock']);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'Hazelcast CP group');
    // B heartbeats while it waits; A's one heartbeat, after its freeze, fails.
    assert.ok((await page.locator('#svg path.ka:not(.bad)').count()) >= 2);
    assert.equal(await page.locator('#svg path.ka.bad').count(), 1);
    const svg = await page.locator('#svg').textContent();
    assert.match(svg, /queue: A › B \(commit 4\)/);
    assert.match(svg, /heartbeat ✗: session closed/);
    assert.match(await page.locator('#svg-desc').textContent(), /Hazelcast CP group\. Triangles/);
    assert.match(await page.locator('#margin').textContent(), /after its session ended at 15,?000 ms/);
    // The fence, checked by the storage: A's write with fence 2 is refused after B's 4.
    await page.locator('#fencing').selectOption('token');
    await expectVerdict(page, 'safe', 450, 450);
    // Bengali: the same story in its words.
    await page.goto(env.url + '?scenario=hazelcast-fenced-lock&lang=bn');
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'Hazelcast CP গ্রুপ');
    assert.match(await page.locator('#svg').textContent(), /হার্টবিট ✗: সেশন বন্ধ/);
  }));

test('Kubernetes: client-go 1.11 by default (a lost update), 1.12 with the switch off, in both languages', () =>
  withPage('?scenario=k8s-lease-slow-renew', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    const group = (label) => page.locator(`#scenario optgroup[label="${label}"] option`).evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(await group('Kubernetes'), ['k8s-lease-slow-renew']);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'Kubernetes API server');
    // A's renewals at 2, 4 and 6 s; the one at 8 s never reaches the API server, and fails at 68 s.
    assert.equal(await page.locator('#svg path.ka:not(.bad)').count(), 3);
    assert.match(await page.locator('#svg').textContent(), /renew ✗: no answer/);
    const svg = await page.locator('#svg').textContent();
    assert.match(svg, /last sees A’s Lease change/);
    assert.match(svg, /A’s Lease taken over/);
    assert.match(await page.locator('#margin').textContent(), /kept leading on a renew call that had no answer: no renewal had succeeded since 6000 ms/);
    assert.equal(await page.locator('#naive').isChecked(), true);
    assert.match(await page.locator('#naive-box label span').textContent(), /client-go before Kubernetes 1\.12/);
    // client-go 1.12: A stops leading at the deadline (18 s), its check fails, B's write stands.
    await page.locator('#naive').uncheck();
    await expectVerdict(page, 'safe', 450, 450);
    assert.match(await page.locator('#svg').textContent(), /stops leading/);
    await page.goto(env.url + '?scenario=k8s-lease-slow-renew&lang=bn');
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'Kubernetes API সার্ভার');
    assert.match(await page.locator('#svg').textContent(), /A-র Lease অন্যের দখলে/);
  }));

test('DynamoDB: a frozen holder\'s item taken over; none loses B\'s update, version refuses A, in both languages', () =>
  withPage('?scenario=dynamodb-heartbeat-pause', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    const group = (label) => page.locator(`#scenario optgroup[label="${label}"] option`).evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(await group('DynamoDB'), ['dynamodb-heartbeat-pause']);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'DynamoDB lock table');
    // No server expired A's lock: B took the item over at 22 s, and the margin says so.
    assert.match(await page.locator('#svg').textContent(), /A’s item taken over/);
    assert.match(await page.locator('#margin').textContent(), /another client took its lock item over at 28,?000 ms/);
    // A's one heartbeat, at 5 s, before it freezes; none during the freeze.
    assert.equal(await page.locator('#svg path.ka:not(.bad)').count(), 1);
    // The token policy compares random RVNs (safe here by chance); the data record's version is the fence.
    await page.locator('#fencing').selectOption('token');
    await expectVerdict(page, 'safe', 450, 450);
    assert.match(await page.locator('#verdict-lines').textContent(), /random GUID/);
    await page.locator('#fencing').selectOption('version');
    await expectVerdict(page, 'safe', 450, 450);
    await page.goto(env.url + '?scenario=dynamodb-heartbeat-pause&lang=bn');
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.equal(await page.locator('#svg text.lane-name').first().textContent(), 'DynamoDB লক টেবিল');
    assert.match(await page.locator('#svg').textContent(), /A-র আইটেম বেদখল/);
  }));

test('redlock: the compliant client by default, the naive switch in the URL, bad values noticed', () =>
  withPage('?scenario=redlock-pause-before-check', async (page) => {
    await expectVerdict(page, 'safe', 390, 390);
    assert.equal(await page.locator('#naive').isChecked(), false);
    assert.match(await page.locator('#svg').textContent(), /validity −56 ms → gives up/);
    await page.locator('#naive').check();
    await expectVerdict(page, 'lost-update', 450, 450);
    assert.match(page.url(), /naive=1/);
    assert.match(await page.locator('#svg').textContent(), /trusts it anyway/);
    await page.reload();
    await expectVerdict(page, 'lost-update', 450, 450);
    assert.equal(await page.locator('#naive').isChecked(), true);
    // The side-by-side view works on node lanes too: version rejects B's write instead.
    await page.locator('#compare summary').click();
    await page.locator('#compare-policy').selectOption('version');
    await page.locator('#compare-verdict.safe').waitFor();
    const names2 = await page.locator('#svg2 text.lane-name').allTextContents();
    assert.ok(names2.includes('n5') && names2.includes('Redis nodes n1–n5 · wall clock'), names2.join(' | '));
    // Not a Redlock scenario: the switch is hidden and naive=1 is ignored with a notice.
    await page.goto(env.url + '?naive=1');
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.equal(await page.locator('#naive-box').isHidden(), true);
    assert.match(await page.locator('#notice').textContent(), /has no naive-client switch/);
    await page.goto(env.url + '?scenario=redlock-pause-before-check&naive=maybe');
    await expectVerdict(page, 'safe', 390, 390);
    assert.match(await page.locator('#notice').textContent(), /naive=maybe is not 1 or 0/);
  }));

test('redlock: a crashed node is drawn down until it restarts, and the lost key is named', () =>
  withPage('?scenario=redlock-crash-restart', async (page) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.equal(await page.locator('#svg rect.down').count(), 1, 'n3 is down from 50 to 60 ms');
    assert.equal(await page.locator('#svg rect.lease.lost').count(), 1, 'A’s key on n3, forgotten');
    const svg = await page.locator('#svg').textContent();
    assert.match(svg, /crashes: 1 key\(s\) lost/);
    assert.match(svg, /restarts/);
    // Delay the restart by the TTL: safe.
    const restart = page.locator('#extra-list input[type=range]').first();
    await restart.fill('300');
    await expectVerdict(page, 'safe', 390, 390);
  }));

test('engines: the first verdict needs no wasm; a change fetches the core, an etcd scenario the full build, each once', () =>
  withPage('', async (page, watch) => {
    await expectVerdict(page, 'lost-update', 440, 450);
    const wasm = () => watch.requests.filter((u) => u.endsWith('.wasm')).map((u) => new URL(u).pathname.split('/').pop());
    await page.waitForTimeout(300);
    assert.deepEqual(wasm(), [], 'the seed at its defaults is drawn from the run the build wrote');
    // The run the build wrote is the engine's own: the same JSON when the engine computes it.
    const same = await page.evaluate(async () => {
      const m = await import('./pkg/leaselab.js');
      await m.default();
      const sim = new m.Simulation('seed-gc-pause');
      const run = sim.runJson();
      sim.free();
      const built = await (await fetch('pkg/runs/seed-gc-pause/none.json')).text();
      return run === built;
    });
    assert.ok(same, 'pkg/runs/seed-gc-pause/none.json is the wasm’s run');
    // The core build refuses a scenario whose service it leaves out (never a run on the wrong service).
    const refused = await page.evaluate(async () => {
      const { Simulation } = await import('./pkg/leaselab.js');
      try {
        new Simulation('etcd-lease-pause');
        return null;
      } catch (e) {
        return String(e.message || e);
      }
    });
    assert.match(refused, /needs the etcd service/);
    await slider(page, 'pause').fill('200');
    await expectVerdict(page, 'safe', 390, 390);
    await page.locator('#scenario').selectOption('etcd-lease-pause');
    await expectVerdict(page, 'lost-update', 440, 450);
    await page.locator('#fencing').selectOption('version');
    await expectVerdict(page, 'safe', 450, 450);
    // Back to a core scenario and on to ZooKeeper: the full build is not fetched again.
    await page.locator('#scenario').selectOption('seed-gc-pause');
    await page.locator('#scenario').selectOption('zk-session-expiry');
    await page.locator('#fencing').selectOption('none');
    await expectVerdict(page, 'lost-update', 440, 450);
    assert.deepEqual(wasm(), ['leaselab_bg.wasm', 'leaselab_full_bg.wasm']);
  }));

test('engines: a link with other settings computes its run at once (the full build for ZooKeeper)', () =>
  withPage('?scenario=zk-session-expiry&fencing=token&pause=9000', async (page, watch) => {
    await expectVerdict(page, 'safe', 450, 450);
    assert.ok(watch.requests.some((u) => u.endsWith('/pkg/leaselab_full_bg.wasm')));
  }));
