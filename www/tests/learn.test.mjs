// The lessons (learn.html, lesson.js, lessons.js, <lease-lab lesson="N">), against dist/ in headless
// Chromium. First, every beat of every chapter is run through the wasm (and natively through
// `leaselab run --json`): its claims must hold, exactly one choice of its question must hold, every
// placeholder must be known and no text may state a number outside a placeholder. Then the pages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setup, openPage, RESULTS, CLI, axeViolations } from './helpers.mjs';

let env;
let strict;
before(async () => {
  env = await setup();
  strict = await setup({ csp: true });
});
after(async () => {
  await env?.close();
  await strict?.close();
});

/** Opens `path` on a server, runs `fn`, then checks nothing went wrong and nothing left the origin. */
async function withPage(path, fn, opts = {}) {
  const server = opts.csp ? strict : env;
  const { context, page, watch } = await openPage(server.browser, opts);
  try {
    if (opts.noStorage)
      await page.addInitScript(() =>
        Object.defineProperty(window, 'localStorage', {
          get() {
            throw new DOMException('The document is sandboxed', 'SecurityError');
          },
        }),
      );
    if (opts.html) await page.route(server.url + path, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: opts.html }));
    await page.goto(server.url + path);
    await fn(page, watch);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
    const origin = new URL(server.url).origin;
    assert.deepEqual(watch.requests.filter((u) => new URL(u).origin !== origin), [], 'no request leaves the origin');
  } finally {
    await context.close();
  }
}

const question = (scope) => scope.locator('[data-testid="question"]');

test('every beat: claims hold, exactly one choice holds, placeholders known, no typed-in numbers (wasm)', () =>
  withPage('learn.html', async (page) => {
    await question(page).waitFor({ state: 'attached' });
    const beats = await page.evaluate(async () => {
      const { chapters, runOf, scanOf, searchOf, tableRowOf, loadMatrix, holds, varsOf, placeholders } = await import('./lesson.js');
      const matrix = await loadMatrix(); // a beat about the safety table reads the table the build shipped
      // Every chapter at once: both builds (a reader's page fetches each at the first beat that needs it).
      const engine = await import('./engine.js');
      for (const s of (await engine.loadStart()).list) await engine.loadEngine(s);
      const out = [];
      chapters.forEach((ch, c) =>
        ch.beats.forEach((b, i) => {
          const run = runOf(b.set);
          const scan = b.scan ? scanOf(b.set, b.scan) : null;
          const search = b.search ? searchOf(b.set, b.search) : null;
          const table = b.table ? tableRowOf(b.table, matrix) : null;
          const vars = varsOf(b, run, scan, search, table);
          const texts = [];
          for (const lang of ['en', 'bn']) {
            const pick = (o, where) => {
              if (!o || !o[lang]) texts.push({ lang, where, missing: true });
              else texts.push({ lang, where, text: o[lang], unknown: placeholders(o[lang]).filter((p) => !Object.hasOwn(vars, p)) });
            };
            pick(ch.title, 'title');
            pick(b.say, 'say');
            pick(b.why, 'why');
            if (b.ask) {
              pick(b.ask.q, 'question');
              b.ask.choices.forEach((x, k) => pick(x.say, `choice ${k + 1}`));
            }
          }
          out.push({
            where: `chapter ${c + 1}, beat ${i + 1}`,
            set: b.set,
            summary: { final: run.final, expected: run.expected, verdict: run.verdict, lost: run.lost ?? null },
            claims: b.claims ? holds(b.claims, run, scan, search, table) : true,
            hasClaims: Boolean(b.claims),
            claimsScan: b.claimsScan ? holds(b.claimsScan, run, scan, search, table) : true,
            choices: b.ask ? b.ask.choices.map((x) => holds(x.when, run, scan, search, table)) : null,
            search: b.search ? { grid: b.search, found: search } : null,
            texts,
          });
        }),
      );
      return out;
    });
    assert.ok(beats.length >= 20, `${beats.length} beats`);
    for (const b of beats) {
      assert.ok(b.hasClaims, `${b.where}: states its claims`);
      assert.equal(b.claims, true, `${b.where}: a claim disagrees with the run ${JSON.stringify(b.summary)}`);
      assert.equal(b.claimsScan, true, `${b.where}: a scan claim disagrees with the runs`);
      if (b.choices) assert.equal(b.choices.filter(Boolean).length, 1, `${b.where}: exactly one choice holds (${b.choices})`);
      for (const t of b.texts) {
        assert.ok(!t.missing, `${b.where}: ${t.where} has ${t.lang} text`);
        assert.deepEqual(t.unknown, [], `${b.where}: ${t.where} (${t.lang}) uses unknown placeholders`);
        // Numbers only through placeholders: outside them, no digit (Latin or Bengali) at all.
        // A product's name that contains a digit (S3) is a name, not a number.
        const bare = t.text.replace(/\{[\w.-]+\}/g, '').replace(/\bS3\b/g, '');
        assert.doesNotMatch(bare, /[0-9০-৯]/, `${b.where}: ${t.where} (${t.lang}) types a number in: ${t.text}`);
      }
    }
    // The wasm agrees with the native CLI on every beat's outcome.
    if (existsSync(CLI)) {
      for (const b of beats) {
        const args = ['run', '--scenario', b.set.scenario, '--fencing', b.set.fencing || 'none', '--json'];
        for (const [k, v] of Object.entries(b.set)) if (!['scenario', 'fencing', 'retries', 'naive'].includes(k)) args.push('--set', `${k}=${v}ms`);
        if (b.set.retries) args.push('--retries', String(b.set.retries));
        if (b.set.naive) args.push('--naive');
        let out;
        try {
          out = execFileSync(CLI, args, { encoding: 'utf8' });
        } catch (e) {
          out = e.stdout; // exit status 1 is a lost update
        }
        const r = JSON.parse(out);
        assert.deepEqual({ final: r.final, expected: r.expected, verdict: r.verdict, lost: r.lost ?? null }, b.summary, `${b.where}: native and wasm agree`);
        // A beat's search, done point by point in the page, is `leaselab search`'s answer.
        for (const p of b.search ? b.search.grid.policies : []) {
          const vary = b.search.grid.vary.flatMap(([n, from, to, step]) => ['--vary', `${n}=${from}ms..${to}ms:${step}ms`]);
          let found;
          try {
            found = JSON.parse(execFileSync(CLI, ['search', '--scenario', b.set.scenario, '--fencing', p, ...vary, '--json'], { encoding: 'utf8' }));
          } catch (e) {
            found = JSON.parse(e.stdout); // exit status 1: a failure found
          }
          assert.equal(found.combinations, b.search.found.n, `${b.where}: ${p}: combinations`);
          assert.deepEqual(found.counterexample ? found.counterexample.params : null, b.search.found[p], `${b.where}: ${p}: the CLI's search agrees`);
        }
      }
    }
  }));

/** Waits for the lesson to show step `i` of chapter `ch` (1-based) in `scope`. */
async function atBeat(scope, ch, i, lang = 'en') {
  const kicker = lang === 'en' ? `Chapter ${ch}` : null;
  if (kicker) await scope.locator('#ls-kicker', { hasText: kicker }).waitFor();
  await scope.locator('#ls-progress', { hasText: lang === 'en' ? `Step ${i} of` : new Intl.NumberFormat('bn').format(i) }).waitFor();
}

test('a beat on a service beyond the core: its run in that service’s words, fetched with its engine (en, bn)', async () => {
  for (const [lang, lane, lease] of [['en', 'etcd server', /etcd grants A a lease/], ['bn', 'etcd সার্ভার', /etcd A-কে একটি লিজ দেয়/]]) {
    await withPage(`learn.html${lang === 'en' ? '' : `?lang=${lang}`}#chapter-3`, async (page, watch) => {
      await atBeat(page, 3, 1, lang);
      await page.locator('#ls-next').click();
      await atBeat(page, 3, 2, lang);
      await page.locator('.ls-choice').first().click();
      await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
      assert.equal(await page.locator('#svg text.lane-name').first().textContent(), lane);
      const rows = await page.locator('#events tr').allTextContents();
      assert.ok(rows.some((t) => lease.test(t)), `${lang}: etcd's own words`);
      assert.deepEqual(rows.filter((t) => /[A-Z]: [a-z]+(-[a-z]+)*$/.test(t)), [], `${lang}: no event told by its key`);
      assert.equal(watch.requests.filter((u) => u.endsWith('/i18n/services/etcd.js')).length, 1, 'its words, once');
    });
  }
});

test('walk chapter 2 by keyboard: predict, reveal, ←/→ between steps, replay (English)', () =>
  withPage('learn.html#chapter-2', async (page) => {
    await atBeat(page, 2, 1);
    const q = question(page);
    await q.waitFor();
    assert.equal(await q.getAttribute('data-revealed'), null);
    // Before the answer nothing of the run is shown: the lab is hidden.
    assert.equal(await page.locator('#lab').isHidden(), true, 'the run stays hidden until the reader predicts');
    // Keyboard only: Tab to the first choice ("both debits applied": wrong here), Enter.
    await page.locator('#lesson').focus();
    let guard = 0;
    while (!(await page.evaluate(() => document.activeElement?.classList.contains('ls-choice'))) && guard++ < 20) await page.keyboard.press('Tab');
    const focusVisible = await page.evaluate(() => {
      const cs = getComputedStyle(document.activeElement);
      return cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0;
    });
    assert.ok(focusVisible, 'the focused choice shows focus');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
    assert.equal(await q.getAttribute('data-correct'), 'false');
    // The right answer is marked, and the reveal (a live region) quotes the run's numbers.
    assert.match(await page.locator('.ls-choice.right').textContent(), /B’s update is lost/);
    const reveal = page.locator('#ls-reveal');
    assert.equal(await reveal.getAttribute('aria-live'), 'polite');
    assert.match(await reveal.textContent(), /Final 440, expected 450/);
    assert.match(await reveal.textContent(), /wrote 450/);
    const v = page.locator('[data-testid="outcome"]');
    assert.equal(await v.getAttribute('data-final'), '440');
    assert.equal(await page.locator('#lab').isVisible(), true);
    await page.screenshot({ path: join(RESULTS, 'learn-1280-revealed.png') });
    // Replay this beat: reduced motion, so the whole run is shown again at once.
    await page.locator('#ls-replay').click();
    assert.equal(await v.getAttribute('data-outcome'), 'lost-update');
    // → to the next beat (the focus is on a button inside the lesson), then ←.
    await page.locator('#ls-replay').focus();
    await page.keyboard.press('ArrowRight');
    await atBeat(page, 2, 2);
    assert.equal(await q.getAttribute('data-revealed'), null, 'a new beat asks afresh');
    await page.locator('.ls-choice', { hasText: 'Nobody' }).click();
    await page.locator('[data-testid="question"][data-revealed="true"][data-correct="true"]').waitFor();
    assert.match(await page.locator('#ls-reveal').textContent(), /Right\./);
    // The focus was on a choice, which the move redraws: it stays in the lesson, so ← works twice.
    await page.keyboard.press('ArrowRight');
    await atBeat(page, 2, 3);
    await page.keyboard.press('ArrowLeft');
    await atBeat(page, 2, 2);
    await page.keyboard.press('ArrowLeft');
    await atBeat(page, 2, 1);
    // The address keeps the chapter; progress is kept in localStorage.
    assert.match(page.url(), /#chapter-2$/);
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('leaselab-lessons')));
    assert.equal(saved['2'], 2, 'the furthest step seen');
    // The index marks the current chapter and shows the progress.
    assert.equal(await page.locator('#learn-index a[aria-current=page]').textContent(), 'The pause');
    await page.screenshot({ path: join(RESULTS, 'learn-1280.png'), fullPage: true });
  }));

test('walk a chapter in Bengali: the question, the reveal and Bengali digits', () =>
  withPage('learn.html?lang=bn#chapter-3', async (page) => {
    const q = question(page);
    await q.waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'bn');
    assert.match(await page.locator('#ls-title').textContent(), /ফেন্সিং টোকেন/);
    assert.match(await page.locator('#ls-say').textContent(), /A পেয়েছে ১, B পাবে ২/);
    await page.locator('.ls-choice', { hasText: 'স্টোরেজ' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="question"][data-revealed="true"][data-correct="true"]').waitFor();
    assert.match(await page.locator('#ls-reveal').textContent(), /চূড়ান্ত ৪৫০, প্রত্যাশিত ৪৫০/);
    await page.keyboard.press('ArrowRight');
    await page.locator('#ls-progress', { hasText: 'ধাপ ২' }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'learn-bn-1280.png'), fullPage: true });
    // Bengali renders with a system font (none is shipped): the page asks for no font files.
  }));

// Chapter 7, step by step with the keyboard only: Tab to a choice, Enter, the reveal, → to the next.
for (const lang of ['en', 'bn']) {
  test(`chapter 7, the lock you actually run: every step walked by keyboard (${lang})`, () =>
    withPage(`learn.html?lang=${lang}#chapter-7`, async (page) => {
      const title = lang === 'en' ? 'The lock you actually run' : 'যে লক আপনি সত্যিই চালান';
      await page.locator('#ls-title', { hasText: title }).waitFor();
      const steps = await page.evaluate(async () => (await import('./lessons.js')).chapters[6].beats.length);
      for (let i = 1; i <= steps; i++) {
        await atBeat(page, 7, i, lang);
        const q = question(page);
        if (await q.isVisible()) {
          await page.locator('#lesson').focus();
          let guard = 0;
          while (!(await page.evaluate(() => document.activeElement?.classList.contains('ls-choice'))) && guard++ < 20) await page.keyboard.press('Tab');
          assert.ok(guard < 20, `step ${i}: a choice is reachable by Tab`);
          await page.keyboard.press('Enter');
          await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
        }
        const digits = lang === 'en' ? /\d/ : /[০-৯]/;
        assert.match(await page.locator('#ls-reveal').textContent(), digits, `step ${i}: the reveal quotes the run`);
        await page.locator('[data-testid="outcome"][data-outcome]').waitFor();
        if (i < steps) {
          await page.locator('#ls-replay').focus();
          await page.keyboard.press('ArrowRight');
        }
      }
      assert.match(page.url(), /#chapter-7$/);
      await page.screenshot({ path: join(RESULTS, `learn-chapter-7-${lang}.png`), fullPage: true });
    }));
}

test('learn.html#chapter-3 opens chapter three; a bad chapter says so; the index links every chapter', () =>
  withPage('learn.html#chapter-3', async (page) => {
    await atBeat(page, 3, 1);
    assert.equal(await page.locator('#ls-title').textContent(), 'Fencing tokens');
    assert.equal(await page.locator('#learn-index a').count(), 8);
    assert.equal(await page.locator('#learn-index a').nth(4).getAttribute('href'), '#chapter-5');
    // Following an index link moves the lesson.
    await page.locator('#learn-index a').nth(4).click();
    await atBeat(page, 5, 1);
    assert.equal(await page.locator('#ls-title').textContent(), 'The Redlock debate');
    await page.goto(page.url().replace(/#.*$/, '#chapter-99'));
    await page.reload();
    await page.locator('#learn-notice').waitFor();
    await atBeat(page, 1, 1);
  }));

test('a wrong and a right answer: data-correct follows the run, not the text', () =>
  withPage('learn.html#chapter-4', async (page) => {
    await question(page).waitFor();
    // Chapter 4, beat 1: token fencing, the write-only gap: A's update is lost.
    await page.locator('.ls-choice', { hasText: 'token fencing catches it' }).click();
    await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
    assert.equal(await question(page).getAttribute('data-correct'), 'false');
    assert.match(await page.locator('.ls-choice.right').textContent(), /A’s update is lost/);
    assert.equal(await page.locator('[data-testid="outcome"]').getAttribute('data-outcome'), 'lost-update');
  }));

test('a free beat leaves the sliders to the reader, and the verdict follows them', () =>
  withPage('learn.html#chapter-2', async (page) => {
    await question(page).waitFor();
    for (let i = 0; i < 3; i++) {
      if (await page.locator('.ls-choice').first().isVisible()) await page.locator('.ls-choice').first().click();
      await page.locator('#ls-next').click();
    }
    await atBeat(page, 2, 4);
    assert.equal(await question(page).isHidden(), true);
    const pause = page.locator('#pause');
    await pause.waitFor();
    await pause.fill('100');
    await page.locator('[data-testid="outcome"][data-outcome="safe"]').waitFor();
    assert.match(await page.locator('#ls-reveal').textContent(), /sliders are yours/);
  }));

test('<lease-lab lesson="3">: one chapter in an element; keys act only on the lesson with focus', () =>
  withPage(
    'lesson-host.html',
    async (page) => {
      const el = page.locator('lease-lab');
      await el.nth(0).locator('[data-testid="question"]').waitFor();
      await el.nth(1).locator('[data-testid="question"]').waitFor();
      assert.equal(await el.nth(0).locator('#ls-title').textContent(), 'Fencing tokens');
      assert.equal(await el.nth(1).locator('#ls-title').textContent(), 'বিরতি');
      // Keys on the page (body) move nothing.
      await page.locator('h1').click();
      await page.keyboard.press('ArrowRight');
      assert.match(await el.nth(0).locator('#ls-progress').textContent(), /Step 1 of/);
      // Answer in the first element, then → there: only it moves.
      await el.nth(0).locator('.ls-choice', { hasText: 'The storage' }).click();
      await el.nth(0).locator('[data-testid="question"][data-revealed="true"][data-correct="true"]').waitFor();
      await el.nth(0).locator('#ls-next').focus();
      await page.keyboard.press('ArrowRight');
      await el.nth(0).locator('#ls-progress', { hasText: 'Step 2 of' }).waitFor();
      assert.match(await el.nth(1).locator('#ls-progress').textContent(), /ধাপ ১ /);
      // The Bengali one (lang from the page around it).
      assert.match(await el.nth(1).locator('#ls-q').textContent(), /^অনুমান করুন/);
      await page.screenshot({ path: join(RESULTS, 'learn-embed-1280.png'), fullPage: true });
    },
    {
      csp: true,
      html:
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>' +
        '<script type="module" src="/lease-lab.js"></script></head><body><main><h1>Docs</h1>' +
        '<lease-lab lesson="3"></lease-lab><div lang="bn"><lease-lab lesson="2"></lease-lab></div></main></body></html>',
    },
  ));

test('under the strict CSP, at 390 px, in both languages: no errors, screenshots', async () => {
  for (const lang of ['en', 'bn']) {
    await withPage(
      `learn.html?lang=${lang}#chapter-5`,
      async (page) => {
        await question(page).waitFor();
        await page.locator('.ls-choice').first().click();
        await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 1, `no horizontal scroll at 390 px (${overflow})`);
        await page.screenshot({ path: join(RESULTS, `learn-${lang}-390.png`), fullPage: true });
      },
      { csp: true, width: 390, height: 800 },
    );
  }
});

test('works without localStorage (a sandboxed frame refuses it)', () =>
  withPage('learn.html#chapter-1', async (page) => {
    await question(page).waitFor();
    await page.locator('.ls-choice').first().click();
    await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
    await page.locator('#ls-next').click();
    await atBeat(page, 1, 2);
  }, { noStorage: true }));

for (const [path, opts] of [
  ['learn.html#chapter-2', {}],
  ['learn.html?lang=bn#chapter-5', { width: 390, height: 800, colorScheme: 'dark' }],
]) {
  test(`axe-core on ${path}: no serious or critical violations, before and after the reveal`, () =>
    withPage(path, async (page) => {
      await question(page).waitFor();
      const check = async () => {
        const { bad, all } = await axeViolations(page);
        assert.deepEqual(bad, [], JSON.stringify(all, null, 1));
      };
      await check();
      await page.locator('.ls-choice').first().click();
      await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
      await check();
    }, opts));
}

test('the lab links to the lessons (in its language); the lessons’ language menu switches everything', () =>
  withPage('?lang=bn', async (page) => {
    await page.locator('[data-testid="outcome"][data-outcome]').waitFor();
    const link = page.locator('#learn-link');
    assert.match(await link.getAttribute('href'), /learn\.html/);
    await link.click();
    await question(page).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'bn');
    await page.locator('#learn-lang').selectOption('en');
    await page.locator('#ls-kicker', { hasText: 'Chapter' }).waitFor();
    assert.equal(await page.locator('#learn-h1').textContent(), 'leaselab lessons');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.doesNotMatch(page.url(), /lang=bn/);
  }));

test('chapter 6: the scan’s counts come from the runs; screenshot of the reveal', () =>
  withPage('learn.html#chapter-6', async (page) => {
    await question(page).waitFor();
    await page.locator('.ls-choice').first().click();
    await page.locator('#ls-next').click();
    await page.locator('#ls-progress', { hasText: 'Step 2 of' }).waitFor();
    const say = await page.locator('#ls-say').textContent();
    assert.match(say, /from 0 to 3000 ms in steps of 10 ms \(301 runs\)/);
    await page.locator('.ls-choice', { hasText: 'None of them' }).click();
    await page.locator('[data-testid="question"][data-revealed="true"][data-correct="true"]').waitFor();
    assert.match(await page.locator('#ls-reveal').textContent(), /With first-touch: 0; with token: 0\./);
    await page.screenshot({ path: join(RESULTS, 'learn-ch6-1280.png') });
  }));

test('chapter 6: the reader asks the lab to find the failure — the panel, set to the beat’s grid, gives the lesson’s answer', () =>
  withPage('learn.html#chapter-6', async (page) => {
    await question(page).waitFor();
    // Step 3: the search beat (steps 1 and 2 answered on the way).
    for (let i = 1; i <= 2; i++) {
      await atBeat(page, 6, i);
      await page.locator('.ls-choice').first().click();
      await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
      await page.locator('#ls-next').click();
    }
    await atBeat(page, 6, 3);
    const want = await page.evaluate(async () => {
      const { chapters, searchOf } = await import('./lesson.js');
      const b = chapters[5].beats[2];
      return searchOf(b.set, b.search);
    });
    assert.equal(want['first-touch'], null, 'first-touch: no failure in the grid');
    await page.locator('.ls-choice', { hasText: 'No: no combination loses an update' }).click();
    await page.locator('[data-testid="question"][data-revealed="true"][data-correct="true"]').waitFor();
    assert.match(await page.locator('#ls-reveal').textContent(), new RegExp(`TTL of ${want.none.ttl} ms with a pause of ${want.none.pause} ms`));
    // The panel is there, its rows set to the beat's grid; the search agrees with the lesson.
    await page.locator('#search-box > summary').click();
    // The panel's module loads on the first opening: its rows (built with the beat's grid) come after.
    await page.locator('#search-dims .search-dim').first().waitFor();
    const ticked = await page.locator('#search-dims .search-dim').evaluateAll((rows) =>
      rows.filter((r) => r.querySelector('[data-f=vary]').checked).map((r) => [r.dataset.param, ...['from', 'to', 'step'].map((f) => Number(r.querySelector(`[data-f=${f}]`).value))]),
    );
    assert.deepEqual(ticked, [['ttl', 100, 1000, 50], ['pause', 0, 2000, 50]]);
    const result = page.locator('[data-testid="search-result"][data-safe]');
    await page.locator('[data-testid="search"]').click();
    await result.waitFor();
    assert.deepEqual([await result.getAttribute('data-safe'), Number(await result.getAttribute('data-combinations'))], ['true', want.n]);
    // Fencing to none (a free step), search again: the lesson's smallest failure, opened in the lab.
    await page.locator('#fencing').selectOption('none');
    await page.locator('[data-testid="search"]').click();
    await page.locator('[data-testid="search-result"][data-safe="false"]').waitFor();
    const marks = await page.locator('[data-testid="search-result"] mark').evaluateAll((ms) => Object.fromEntries(ms.map((m) => [m.dataset.param, Number(m.dataset.ms)])));
    assert.deepEqual(marks, want.none);
    assert.equal(await page.locator('[data-testid="outcome"]').getAttribute('data-outcome'), 'lost-update');
    const link = await page.locator('[data-testid="search-link"]').getAttribute('href');
    assert.match(link, /index\.html\?/);
    assert.match(link, new RegExp(`ttl=${want.none.ttl}`));
    await page.screenshot({ path: join(RESULTS, 'learn-ch6-search-1280.png'), fullPage: true });
  }));

test('chapter 7: the reader predicts a row of the safety table; the reveal shows that row from the shipped table', () =>
  withPage('learn.html#chapter-7', async (page) => {
    const { chapters } = await page.evaluate(async () => ({ chapters: (await import('./lessons.js')).chapters.map((c) => c.beats.map((b) => b.table || null)) }));
    const i = chapters[6].findIndex(Boolean);
    assert.ok(i >= 0, 'chapter 7 has a beat about the table');
    const spec = chapters[6][i];
    for (let k = 0; k < i; k++) {
      await atBeat(page, 7, k + 1);
      await page.locator('#ls-next').click();
    }
    await atBeat(page, 7, i + 1);
    assert.equal(await page.locator('#ls-table lease-lab-matrix').count(), 0, 'nothing of the row before the answer');
    await question(page).locator('.ls-choice').first().click();
    await page.locator('[data-testid="question"][data-revealed="true"]').waitFor();
    const table = page.locator('#ls-table lease-lab-matrix');
    await table.locator('td[data-verdict]').first().waitFor();
    const shown = await table.evaluate((e) => [...e.shadowRoot.querySelectorAll('td[data-verdict]')].map((td) => [td.dataset.service, td.dataset.fault, td.dataset.fencing, td.dataset.verdict]));
    const matrix = await page.evaluate(() => fetch('pkg/matrix.json').then((r) => r.json()));
    const want = matrix.cells.filter((c) => c.service === spec.service && c.fencing === spec.fencing).map((c) => [c.service, c.fault, c.fencing, c.verdict]);
    assert.deepEqual(shown, want);
    // The right answer is the one the table gives.
    const right = await page.locator('.ls-choice.right').textContent();
    assert.match(right, /slow enough link/);
  }));
