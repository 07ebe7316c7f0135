// End-to-end tests of the first screen of the lessons and of explore (issue 38), against dist/ in
// headless Chromium. learn.html at a phone's 390 × 844 (touch), English and Bengali, every step of
// every chapter: the step's question, with its choices, on the screen as the step opens; once
// answered, the question, the verdict line and the top of the diagram in one view, the reader having
// scrolled nothing. explore.html at 390 × 844 and 1280 × 800: a phase map whole and its readout in one
// view. Each measure is printed: a change in layout shows in the log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setup, RESULTS } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const PHONE = { width: 390, height: 844, touch: true };
const LAPTOP = { width: 1280, height: 800 };
/** How much of the diagram, from its top, must show (first-screen.test.mjs's measure): its first lane. */
const DIAGRAM_SHOWN_PX = 100;

async function withView(view, path, fn) {
  const context = await env.browser.newContext({
    viewport: { width: view.width, height: view.height },
    hasTouch: Boolean(view.touch),
    isMobile: Boolean(view.touch),
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(env.url + path);
    await fn(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
}

/** Where the lesson's parts are in the viewport, in px (null: not shown). */
const lessonBoxes = (page) =>
  page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const box = (id) => {
      const e = document.getElementById(id);
      if (!e || !e.checkVisibility()) return null;
      const b = e.getBoundingClientRect();
      return { top: Math.round(b.top), bottom: Math.round(b.bottom) };
    };
    return {
      question: box('ls-question'),
      verdict: box('verdict-numbers'),
      chart: box('chart'),
      H: innerHeight,
      sw: document.documentElement.scrollWidth,
    };
  });

const inView = (b, H) => b && b.top >= 0 && b.bottom <= H;

for (const lang of ['en', 'bn']) {
  test(`learn.html at 390 × 844 (${lang}): each step's question, then its verdict and diagram beside it, without the reader scrolling`, async (t) => {
    const chapters = await withCount(lang);
    for (let n = 1; n <= chapters; n++) {
      await withView(PHONE, `learn.html?lang=${lang}#chapter-${n}`, async (page) => {
        await page.locator('#ls-progress:not(:empty)').waitFor();
        for (let step = 0; ; step++) {
          const name = `${lang} chapter ${n} step ${step + 1}`;
          const asked = await page.locator('#ls-question').isVisible();
          if (asked) {
            const before = await lessonBoxes(page);
            t.diagnostic(`${name}: question ${before.question.top}–${before.question.bottom} px`);
            assert.ok(inView(before.question, before.H), `${name}: the question (${JSON.stringify(before.question)}) is not on the screen (${before.H})`);
            // The reader taps a choice where it is: no scrolling of theirs.
            await page.locator('.ls-choice').first().click();
            await page.locator('#ls-question[data-revealed="true"]').waitFor();
          }
          await page.locator('#ls-reveal p').first().waitFor();
          await page.locator('#outcome[data-outcome]').waitFor();
          const m = await lessonBoxes(page);
          t.diagnostic(`${name}: ${asked ? `question ${m.question.top}–${m.question.bottom}, ` : ''}verdict ends ${m.verdict?.bottom}, diagram ${m.chart?.top}–${m.chart?.bottom} px`);
          if (asked) assert.ok(inView(m.question, m.H), `${name}: the question left the screen once answered (${JSON.stringify(m.question)})`);
          assert.ok(inView(m.verdict, m.H), `${name}: the verdict line is off the screen (${JSON.stringify(m.verdict)})`);
          assert.ok(m.chart && m.chart.top >= 0 && m.chart.top + DIAGRAM_SHOWN_PX <= m.H, `${name}: the diagram's top is off the screen (${JSON.stringify(m.chart)})`);
          assert.ok(m.sw <= PHONE.width, `${name}: the page scrolls sideways (${m.sw} px)`);
          if (step === 0) await page.screenshot({ path: join(RESULTS, `learn-first-screen-390-${lang}-chapter-${n}.png`) });
          if (await page.locator('#ls-next').isDisabled()) break;
          // The next step; past the chapter's last, Next opens the next chapter: its own round.
          const [was, chapter] = await page.evaluate(() => ['ls-progress', 'ls-kicker'].map((id) => document.getElementById(id).textContent));
          await page.locator('#ls-next').click();
          await page.waitForFunction((was) => document.getElementById('ls-progress').textContent !== was, was);
          if ((await page.locator('#ls-kicker').textContent()) !== chapter) break;
        }
      });
    }
  });
}

/** The number of chapters, as the page's index lists them. */
async function withCount(lang) {
  let n = 0;
  await withView(PHONE, `learn.html?lang=${lang}`, async (page) => {
    await page.locator('#learn-index a').first().waitFor();
    n = await page.locator('#learn-index a').count();
  });
  assert.ok(n >= 7, `${n} chapters`);
  return n;
}

/** Where explore's maps and readout are in the viewport, in px. */
const exploreBoxes = (page) =>
  page.evaluate(() => {
    const box = (sel) => {
      const b = document.querySelector(sel).getBoundingClientRect();
      return { top: Math.round(b.top), bottom: Math.round(b.bottom) };
    };
    return { a: box('#map-a .heat'), b: box('#map-b .heat'), readout: box('#detail'), text: document.getElementById('detail').textContent, H: innerHeight, sw: document.documentElement.scrollWidth };
  });

// A reader looks at a map and moves over it (here: by the keys): the map whole and the readout, which
// says what the cell is, on the screen together, apart. Wide, both maps side by side; on a phone the
// maps stack and the readout stays at the screen's foot.
for (const view of [PHONE, LAPTOP]) {
  test(`explore.html at ${view.width} × ${view.height}: a phase map and its readout fit one screen, en and bn`, async (t) => {
    for (const lang of ['en', 'bn']) {
      await withView(view, `explore.html?lang=${lang}`, async (page) => {
        await page.locator('#map-a .heat .run').first().waitFor({ state: 'attached' });
        const first = await exploreBoxes(page);
        const name = `${view.width} × ${view.height} ${lang}`;
        t.diagnostic(`${name}, as it opens: maps ${first.a.top}–${first.a.bottom} and ${first.b.top}–${first.b.bottom}, readout ${first.readout.top}–${first.readout.bottom} px`);
        await page.locator('#map-a .heat').focus();
        await page.keyboard.press('ArrowRight');
        await page.evaluate(() => document.getElementById('map-a').scrollIntoView({ block: 'start' }));
        const m = await exploreBoxes(page);
        t.diagnostic(`${name}, the first map at the top: maps ${m.a.top}–${m.a.bottom} and ${m.b.top}–${m.b.bottom}, readout ${m.readout.top}–${m.readout.bottom} px: ${m.text}`);
        const maps = view.width >= 1000 ? [m.a, m.b] : [m.a];
        for (const map of maps) assert.ok(map.top >= 0 && map.bottom <= m.H, `${name}: a map (${map.top}–${map.bottom}) is not whole on the screen (${m.H})`);
        assert.ok(m.readout.top >= Math.max(...maps.map((x) => x.bottom)) && m.readout.bottom <= m.H, `${name}: the readout (${m.readout.top}–${m.readout.bottom}) is not on the screen under the map`);
        assert.match(m.text, /ms —/, `${name}: the readout tells the cell`);
        assert.ok(m.sw <= view.width, `${name}: the page scrolls sideways (${m.sw} px)`);
        await page.screenshot({ path: join(RESULTS, `explore-first-screen-${view.width}-${lang}.png`) });
      });
    }
  });
}
