// End-to-end tests of the compact docs layout of <lease-lab> (docs/embedding.md, issue 19): in a docs
// column of 600–760 px the diagram's top is within 400 px of the element's top and the element is at
// most 900 px tall with the default controls, at 390 px at most 1,300 px; the safety margin, the
// transcript, share and the events are disclosures a keyboard opens; the page keeps its full layout.
// Against dist/ in headless Chromium; each measure is printed, so a change in height shows in the log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** A host page whose only content is one element as wide as the viewport (a docs column). */
const hostPage = (lang, attrs = '') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>host</title><script type="module" src="/lease-lab.js"></script></head>` +
  `<body><lease-lab ${attrs}></lease-lab></body></html>`;

/** Opens a host page with the element `width` px wide and runs fn(page, el) once the element has drawn its run. */
async function withLab({ width, lang = 'en', attrs = '', colorScheme = 'light' }, fn) {
  // The body's default 8 px margins: the element itself is `width` px wide.
  const { context, page, watch } = await openPage(env.browser, { width: width + 16, height: 900, colorScheme });
  try {
    await page.route(`${env.url}host.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: hostPage(lang, attrs) }));
    await page.goto(`${env.url}host.html`);
    const el = page.locator('lease-lab');
    await el.locator('[data-testid="outcome"][data-outcome]').waitFor();
    await el.locator('#svg .lane-line').first().waitFor({ state: 'attached' });
    await page.evaluate(() => document.fonts.ready);
    await fn(page, el);
    assert.deepEqual(watch.problems(), []);
  } finally {
    await context.close();
  }
}

/** The element's height and where its diagram and verdict start, in px from its top. */
const measure = (el) =>
  el.evaluate((host) => {
    const top = host.getBoundingClientRect().top;
    const at = (id) => Math.round(host.shadowRoot.getElementById(id).getBoundingClientRect().top - top);
    const chart = host.shadowRoot.getElementById('chart').getBoundingClientRect();
    return { height: Math.round(host.getBoundingClientRect().height), diagram: at('chart'), verdict: at('outcome'), diagramBottom: Math.round(chart.bottom - top) };
  });

const TARGETS = [
  { width: 390, height: 1300 },
  { width: 600, height: 900, diagram: 400 },
  { width: 690, height: 900, diagram: 400 },
  { width: 760, height: 900, diagram: 400 },
];

for (const lang of ['en', 'bn']) {
  test(`compact layout (${lang}): height and the diagram's top at 390, 600, 690 and 760 px, default controls`, async (t) => {
    for (const target of TARGETS) {
      await withLab({ width: target.width, lang }, async (page, el) => {
        const m = await measure(el);
        t.diagnostic(`${lang} ${target.width} px: element ${m.height} px tall, diagram's top at ${m.diagram} px, verdict's at ${m.verdict} px`);
        console.log(`compact ${lang} ${target.width} px: height ${m.height}, diagram top ${m.diagram}`);
        assert.ok(m.height <= target.height, `${lang} ${target.width} px: ${m.height} px tall, at most ${target.height}`);
        if (target.diagram) {
          assert.ok(m.diagram <= target.diagram, `${lang} ${target.width} px: the diagram starts at ${m.diagram} px, within ${target.diagram}`);
          assert.ok(m.verdict < m.diagram, 'the verdict comes before the diagram');
          assert.ok(m.diagramBottom <= 900, `${lang} ${target.width} px: the whole diagram on a 900 px screen (ends at ${m.diagramBottom})`);
        }
      });
    }
  });
}

// The Fencing menu once took half of a wide row (549 px at 1280): now it stops at the page's settings
// column width, 24rem, and the sliders share the rest.
test('compact layout at 1280 px: the Fencing menu is at most 24rem wide, the sliders wider than it left them', async (t) => {
  for (const lang of ['en', 'bn']) {
    await withLab({ width: 1280, lang }, async (page, el) => {
      const widths = await el.evaluate((host) => {
        const w = (sel) => Math.round(host.shadowRoot.querySelector(sel).getBoundingClientRect().width);
        return { fencing: w('#fencing'), ttl: w('#ttl') };
      });
      t.diagnostic(`${lang}: Fencing menu ${widths.fencing} px, TTL slider ${widths.ttl} px`);
      assert.ok(widths.fencing <= 384, `${lang}: the Fencing menu is ${widths.fencing} px wide`);
      assert.ok(widths.fencing >= 224, `${lang}: the Fencing menu is at least its 14rem basis (${widths.fencing} px)`);
      assert.ok(widths.ttl > 240, `${lang}: the TTL slider takes the room (${widths.ttl} px)`);
    });
  }
});

test('compact layout: the safety margin, transcript, share and events are closed disclosures that a keyboard opens', () =>
  withLab({ width: 690 }, async (page, el) => {
    const kinds = ['margin', 'transcript', 'share-box', 'events'];
    for (const k of kinds) {
      const d = el.locator(`.more > details.${k}`);
      assert.equal(await d.count(), 1, `${k} is a disclosure`);
      assert.equal(await d.evaluate((e) => e.open), false, `${k} starts closed`);
    }
    assert.equal(await el.locator('#margin li').first().isVisible(), false, 'the margin is behind its disclosure');
    assert.equal(await el.locator('#copy-embed').isVisible(), false, 'so are the share buttons');
    // Open each from the keyboard: focus its summary, press Enter (Space for the last).
    for (const [i, k] of kinds.entries()) {
      await el.locator(`details.${k} > summary`).focus();
      await page.keyboard.press(i === kinds.length - 1 ? 'Space' : 'Enter');
      assert.equal(await el.locator(`details.${k}`).evaluate((e) => e.open), true, `${k} opens from the keyboard`);
    }
    assert.ok(await el.locator('#margin li').first().isVisible());
    assert.match(await el.locator('#margin').textContent(), /600/);
    assert.match(await el.locator('#verdict-expected').textContent(), /perfect guard/, 'what "expected" means is with the margin');
    assert.match(await el.locator('#transcript').textContent(), /LOST UPDATE/);
    assert.ok(await el.locator('#events tr').first().isVisible());
    // A summary's name is its text (screen readers announce it with its state).
    // (A fence's Source disclosure is there only for a fence: hidden here, fence.test.mjs shows it.)
    const names = await el.locator('.more > details:not([hidden]) > summary').allTextContents();
    assert.deepEqual(names, ['Safety margin', 'Transcript', 'Share and export', 'Events, as text']);
    await el.locator('#copy-embed').click();
    await el.locator('#share-text').waitFor();
    await page.waitForFunction(() => document.querySelector('lease-lab').shadowRoot.getElementById('share-text').value.includes('<lease-lab '));
  }));

test('compact layout: the "now" line shows from the first step on; before, the verdict says it', (t) =>
  withLab({ width: 690 }, async (page, el) => {
    assert.equal(await el.locator('#now').isVisible(), false, 'over the whole run, no "now" line');
    await el.locator('#back').click();
    await el.locator('#now').waitFor();
    assert.match(await el.locator('#now').textContent(), /^At \d+ ms:/);
    const m = await measure(el);
    t.diagnostic(`690 px with the "now" line shown: ${m.height} px`);
    assert.ok(m.height <= 900, `still at most 900 px with the "now" line (${m.height})`);
  }));

test('compact layout: controls="none" leaves no share disclosure; the page keeps its full layout', async () => {
  await withLab({ width: 690, attrs: 'controls="none"' }, async (page, el) => {
    assert.equal(await el.locator('details.share-box').isVisible(), false);
    assert.equal(await el.locator('details.margin').isVisible(), true, 'the margin is always there, behind its disclosure');
  });
  const { context, page, watch } = await openPage(env.browser, { width: 690 });
  try {
    await page.goto(env.url);
    await page.locator('[data-testid="outcome"][data-outcome]').waitFor();
    assert.equal(await page.locator('.more').count(), 0, 'no compact parts on the page');
    assert.ok(await page.locator('#margin li').first().isVisible(), 'the page shows its safety margin');
    assert.ok(await page.locator('#copy-embed').isVisible(), 'and its share buttons');
    assert.ok(await page.locator('#now').isVisible(), 'and its "now" line');
    assert.deepEqual(watch.problems(), []);
  } finally {
    await context.close();
  }
});
