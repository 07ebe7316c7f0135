// End-to-end tests of the lab page's first screen (issue 38): at a phone's, a tablet's and a laptop's
// viewport, with the seed, the tallest diagram of five lanes and the catalogue's scenario of most lanes,
// the TTL and Pause sliders, the verdict line and the top of the diagram are on the first screen
// together (at 1280 × 800 the whole diagram, the most lanes too); on a phone so for every scenario;
// moving a slider keeps the verdict and the diagram in view; at every viewport, landscape phones and
// small laptops too, no two of the page's regions overlap (scrolled anywhere) and none is off-screen;
// wide, the sticky diagram column is no taller than the screen; on a touch screen the sliders are a
// thumb's size. Against dist/ in headless Chromium (touch emulated where a phone or
// tablet is). Each measure is printed: a change in layout shows in the log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setup, verdict, RESULTS, axeViolations } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** The catalogue's scenario with the most lanes (Redlock's five nodes, three clients, the storage: nine). */
export const MOST_LANES = 'redlock-split-vote';

/** The viewports of the issue: the first screen must show the sliders, the verdict and the diagram. */
const FIRST = [
  { width: 390, height: 844, touch: true },
  { width: 768, height: 1024, touch: true },
  { width: 1280, height: 800, whole: true },
];
/** Landscape phones and small laptops: nothing hidden, nothing overlapping. */
const OTHERS = [
  { width: 844, height: 390, touch: true },
  { width: 1366, height: 768 },
];
/** How much of the diagram, from its top, must show: its first lane (the lock service, its leases). */
const DIAGRAM_SHOWN_PX = 100;

/** Opens the page at `view` (touch: a phone's or tablet's browser) with `query`, once its diagram is drawn. */
async function withView(view, query, fn, { colorScheme = 'light' } = {}) {
  const context = await env.browser.newContext({
    viewport: { width: view.width, height: view.height },
    hasTouch: Boolean(view.touch),
    isMobile: Boolean(view.touch),
    reducedMotion: 'reduce',
    colorScheme,
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(env.url + query);
    await verdict(page);
    await page.locator('#svg .lane-line').first().waitFor({ state: 'attached' });
    await page.evaluate(() => document.fonts.ready);
    await fn(page);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
}

/** Where the parts a reader drags and watches are, in px from the viewport's top (the page unscrolled). */
const tops = (page) =>
  page.evaluate(() => {
    const box = (sel) => document.querySelector(sel).getBoundingClientRect();
    const r = (x) => Math.round(x);
    return {
      // A slider the scenario switches off: where its label is (narrow, the dead track is left out).
      ttl: r(box('#ttl-label').top),
      ttlBottom: r(box(document.querySelector('#ttl').disabled ? '#ttl-note' : '#ttl').bottom),
      pause: r(box('#pause-label').top),
      pauseBottom: r(box(document.querySelector('#pause').disabled ? '#pause-note' : '#pause').bottom),
      verdict: r(box('#outcome').top),
      verdictLine: r(Math.max(box('#verdict-word').bottom, box('#verdict-numbers').bottom)),
      diagram: r(box('#chart').top),
      // The drawing's bottom, not its box's: wide, a diagram taller than its room scrolls in the box.
      diagramBottom: r(box('#svg').bottom),
      page: document.documentElement.scrollHeight,
      scrollWidth: document.documentElement.scrollWidth,
    };
  });

/** The page's regions: each a box that must neither overlap another nor leave the screen's width. */
const REGIONS = ['.top', '.controls', '#outcome', '#h-timeline', '#chart', '.player', '#now', '.more-set', '.after'];

/** The regions' boxes with the page scrolled to `at` (0–1 of the way down): sticky ones move with it. */
const regionBoxes = (page, at = 0) =>
  page.evaluate(([sels, at]) => {
    scrollTo(0, at * (document.documentElement.scrollHeight - innerHeight));
    return sels.map((sel) => {
      const e = document.querySelector(sel);
      const b = e.getBoundingClientRect();
      return { sel, x: b.left, y: b.top + scrollY, w: b.width, h: b.height, shown: e.checkVisibility() };
    });
  }, [REGIONS, at]);

function overlaps(boxes) {
  const shown = boxes.filter((b) => b.shown && b.w > 0 && b.h > 0);
  const out = [];
  for (let i = 0; i < shown.length; i++) {
    for (let j = i + 1; j < shown.length; j++) {
      const [a, b] = [shown[i], shown[j]];
      const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (w > 1 && h > 1) out.push(`${a.sel} × ${b.sel} (${Math.round(w)} × ${Math.round(h)} px)`);
    }
  }
  return out;
}

const label = (view, query) => `${view.width} × ${view.height}${query ? ` ${query}` : ''}`;

/** The scenarios measured: the seed; the tallest diagram of five lanes; the most lanes. */
const TALLEST_FIVE = 'etcd-waiter-expired-lease';
for (const query of ['', `?scenario=${TALLEST_FIVE}`, `?scenario=${MOST_LANES}`]) {
  test(`first screen${query ? ` (${query})` : ''}: the TTL and Pause sliders, the verdict and the diagram at 390 × 844, 768 × 1024, 1280 × 800`, async (t) => {
    for (const view of FIRST) {
      await withView(view, query, async (page) => {
        const m = await tops(page);
        const name = label(view, query);
        t.diagnostic(`${name}: TTL ${m.ttl}, Pause ${m.pause}, verdict ${m.verdict}, diagram ${m.diagram}–${m.diagramBottom}, page ${m.page} px`);
        const H = view.height;
        assert.ok(m.ttlBottom <= H, `${name}: the TTL slider ends at ${m.ttlBottom} px, below the first screen (${H})`);
        assert.ok(m.pauseBottom <= H, `${name}: the Pause slider ends at ${m.pauseBottom} px, below the first screen (${H})`);
        assert.ok(m.verdictLine <= H, `${name}: the verdict line ends at ${m.verdictLine} px, below the first screen (${H})`);
        assert.ok(m.diagram + DIAGRAM_SHOWN_PX <= H, `${name}: the diagram starts at ${m.diagram} px: less than ${DIAGRAM_SHOWN_PX} px of it on the first screen (${H})`);
        if (view.whole) assert.ok(m.diagramBottom <= H, `${name}: the diagram ends at ${m.diagramBottom} px, below the first screen (${H})`);
        assert.ok(m.scrollWidth <= view.width, `${name}: the page scrolls sideways (${m.scrollWidth} px)`);
      });
    }
  });
}

// Every scenario of the catalogue on a phone: the sliders it has (a scenario may switch TTL or Pause
// off: then its note shows instead), the verdict line and the diagram's first lane.
test('every catalogue scenario at 390 × 844: its sliders, the verdict and the diagram on the first screen', async (t) => {
  const catalogue = JSON.parse(await (await fetch(`${env.url}pkg/start.json`)).text());
  const ids = catalogue.scenarios.map((s) => s.id);
  assert.ok(ids.length >= 30, `${ids.length} scenarios`);
  let worst = { diagram: 0 };
  for (const id of ids) {
    await withView(FIRST[0], `?scenario=${id}`, async (page) => {
      const m = await page.evaluate(() => {
        const b = (sel) => document.querySelector(sel).getBoundingClientRect();
        const sliders = ['#ttl', '#pause'].filter((s) => !document.querySelector(s).disabled).map((s) => b(s).bottom);
        return { sliders, verdict: b('#verdict-numbers').bottom, diagram: b('#chart').top, sw: document.documentElement.scrollWidth };
      });
      const H = FIRST[0].height;
      for (const s of m.sliders) assert.ok(s <= H, `${id}: a slider ends at ${Math.round(s)} px`);
      assert.ok(m.verdict <= H, `${id}: the verdict line ends at ${Math.round(m.verdict)} px`);
      assert.ok(m.diagram + DIAGRAM_SHOWN_PX <= H, `${id}: the diagram starts at ${Math.round(m.diagram)} px`);
      assert.ok(m.sw <= FIRST[0].width, `${id}: the page scrolls sideways (${m.sw} px)`);
      if (m.diagram > worst.diagram) worst = { id, diagram: Math.round(m.diagram) };
    });
  }
  t.diagnostic(`390 × 844: the lowest diagram top is ${worst.diagram} px (${worst.id})`);
});

// TTL and Pause at every viewport; wide, where the diagram stays in view beside the settings column
// (sticky), every slider of the settings, the scenario's own after them too. (On a phone or a tablet
// the scenario's other settings follow the diagram: "more settings follow below".)
test('moving a slider keeps the verdict and the diagram in view', async (t) => {
  for (const view of [...FIRST, OTHERS[1]]) {
    await withView(view, `?scenario=${MOST_LANES}`, async (page) => {
      const wide = view.width >= 1280;
      const ids = await page.evaluate((all) => [...document.querySelectorAll(all ? '.controls input[type=range]' : '#ttl, #pause')]
        .filter((e) => !e.disabled).map((e) => e.id), wide);
      assert.ok(ids.length >= (wide ? 2 : 1), `${view.width}: sliders to move (${ids})`);
      for (const id of ids) {
        await page.locator(`#${id}`).focus();
        await page.keyboard.press('ArrowLeft');
        const at = await page.evaluate(() => {
          const b = (sel) => document.querySelector(sel).getBoundingClientRect();
          const f = document.activeElement.getBoundingClientRect();
          return { slider: [f.top, f.bottom], verdict: b('#verdict-numbers').bottom, diagram: b('#chart').top, H: innerHeight };
        });
        const name = `${view.width} × ${view.height} #${id}`;
        t.diagnostic(`${name}: slider at ${Math.round(at.slider[0])}, verdict line ends ${Math.round(at.verdict)}, diagram at ${Math.round(at.diagram)}`);
        assert.ok(at.slider[0] >= 0 && at.slider[1] <= at.H, `${name}: the slider is in view`);
        assert.ok(at.verdict > 0 && at.verdict <= at.H, `${name}: the verdict is in view`);
        assert.ok(at.diagram >= 0 && at.diagram + DIAGRAM_SHOWN_PX <= at.H, `${name}: the diagram's top is in view`);
      }
    });
  }
});

// Redlock's nodes share one name row and take a line each, every lane 4 px tighter (layout.js): its
// nine lanes 609 px tall at 1280 px (771 before); wide, the player is one row and the comparison left
// the sticky column for the row under it, so the diagram's box has 611 px (549 before). Measured as
// seen: the drawing's bottom inside its box, not under the box's scroll.
test('at 1280 × 800 the whole diagram of the scenario with most lanes, inside its box, en and bn', async () => {
  for (const lang of ['', '&lang=bn']) {
    await withView(FIRST[2], `?scenario=${MOST_LANES}${lang}`, async (page) => {
      const m = await tops(page);
      const box = await page.evaluate(() => Math.round(document.querySelector('#chart').getBoundingClientRect().bottom));
      assert.ok(m.diagramBottom <= Math.min(box, FIRST[2].height), `${lang || 'en'}: the diagram ends at ${m.diagramBottom} px, its box at ${box}`);
    });
  }
});

test('no two regions of the page overlap and none leaves the screen, at every viewport, en and bn', async (t) => {
  for (const view of [...FIRST, ...OTHERS]) {
    for (const query of ['', '?lang=bn', `?scenario=${MOST_LANES}&lang=bn`]) {
      await withView(view, query, async (page) => {
        const name = label(view, query);
        // At the top, and scrolled a third, two thirds and all the way down: a sticky region stays
        // in view over the page, and must pass over nothing.
        for (const at of [1 / 3, 2 / 3, 1]) assert.deepEqual(overlaps(await regionBoxes(page, at)), [], `${name}: regions overlap, scrolled ${Math.round(at * 100)} %`);
        const boxes = await regionBoxes(page);
        assert.deepEqual(overlaps(boxes), [], `${name}: regions overlap`);
        for (const b of boxes.filter((x) => x.shown)) {
          assert.ok(b.x >= 0 && b.x + b.w <= view.width + 0.5, `${name}: ${b.sel} spans ${Math.round(b.x)}–${Math.round(b.x + b.w)} px of ${view.width}`);
        }
        const hidden = await page.evaluate(() => [...document.querySelectorAll('.controls input, .controls select, .controls button, .player input, .player button, .player select')]
          .filter((e) => !e.closest('[hidden]') && !e.disabled && !e.checkVisibility()).map((e) => e.id));
        // (A slider the scenario switches off may leave its track out where room is short: its note says why.)
        assert.deepEqual(hidden, [], `${name}: controls hidden`);
        const sw = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(sw <= view.width, `${name}: the page scrolls sideways (${sw} px)`);
        t.diagnostic(`${name}: ${boxes.filter((b) => b.shown).length} regions apart`);
      });
    }
  }
});

// Wide, the diagram's column stays in view beside the settings (sticky): never taller than the screen,
// so its player and "now" line stay in view too; a diagram with more lanes than the room scrolls in its
// box, which then takes the keyboard's focus (and only then).
test('wide, the sticky diagram column is no taller than the screen; a diagram taller than its room scrolls in its box, by keys too', async (t) => {
  for (const view of [FIRST[2], OTHERS[1]]) {
    for (const query of ['', `?scenario=${MOST_LANES}`, `?scenario=${MOST_LANES}&lang=bn`]) {
      await withView(view, query, async (page) => {
        const name = label(view, query);
        const m = await page.evaluate(() => {
          const tl = document.querySelector('.timeline');
          scrollTo(0, tl.getBoundingClientRect().top + scrollY + 40);
          const b = (e) => e.getBoundingClientRect();
          const chart = document.getElementById('chart');
          return {
            sticky: getComputedStyle(tl).position,
            tl: [b(tl).top, b(tl).bottom].map(Math.round),
            player: Math.round(b(document.querySelector('.player')).bottom),
            scrolls: chart.scrollHeight > chart.clientHeight + 1,
            focusable: chart.tabIndex === 0,
            H: innerHeight,
          };
        });
        t.diagnostic(`${name}: the diagram's column ${m.tl[0]}–${m.tl[1]} px (${m.sticky}), player ends ${m.player}, ${m.scrolls ? 'the diagram scrolls in its box' : 'the diagram whole'}`);
        assert.equal(m.sticky, 'sticky', `${name}: the diagram's column stays in view`);
        assert.ok(m.tl[0] >= 0 && m.tl[1] <= m.H, `${name}: the diagram's column (${m.tl}) is taller than the screen (${m.H})`);
        assert.ok(m.player <= m.H, `${name}: the player ends at ${m.player} px`);
        assert.equal(m.focusable, m.scrolls, `${name}: the diagram's box takes focus only where it scrolls`);
        if (query.includes(MOST_LANES) && view === OTHERS[1]) {
          assert.ok(m.scrolls, `${name}: nine lanes at ${view.height} px scroll in their box`);
          await page.locator('#chart').focus();
          await page.keyboard.press('PageDown');
          await page.waitForFunction(() => document.getElementById('chart').scrollTop > 0);
          const { bad } = await axeViolations(page);
          assert.deepEqual(bad, [], `${name}: axe-core's serious or critical findings with the diagram's box focusable`);
        }
      });
    }
  }
});

test('on a touch screen the sliders (the playhead too) are at least 44 × 44 px, and a double tap does not zoom', async () => {
  for (const view of [FIRST[0], OTHERS[0]]) {
    await withView(view, '', async (page) => {
      const sizes = await page.evaluate(() => [...document.querySelectorAll('input[type=range]')].filter((e) => e.checkVisibility())
        .map((e) => ({ id: e.id, w: e.getBoundingClientRect().width, h: e.getBoundingClientRect().height })));
      for (const s of sizes) assert.ok(s.w >= 44 && s.h >= 44, `${view.width}: #${s.id} is ${Math.round(s.w)} × ${Math.round(s.h)} px`);
      assert.ok(sizes.some((s) => s.id === 'scrub'), 'the playhead is one of them');
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).touchAction), 'manipulation');
    });
  }
});

test('screenshots of the first screen at 390 × 844 and 1280 × 800, en and bn, light and dark', async () => {
  for (const view of [FIRST[0], FIRST[2]]) {
    for (const lang of ['en', 'bn']) {
      for (const colorScheme of ['light', 'dark']) {
        await withView(view, lang === 'en' ? '' : '?lang=bn', async (page) => {
          await page.screenshot({ path: join(RESULTS, `first-screen-${view.width}-${lang}-${colorScheme}.png`) });
        }, { colorScheme });
      }
    }
  }
});
