// End-to-end test of the iframe form sizing itself (issue 19): embed.html posts its height, and
// lease-lab-frame.js on the host page sizes the frame to it, across origins. Two servers on two
// loopback ports (two origins): the host site (a folder with its pages and a copy of
// lease-lab-frame.js) on one, dist/ with embed.html on the other. Both pages come from real servers:
// Chromium refuses a loopback frame inside a page it did not get from a loopback address.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { openPage, DIST, RESULTS, until } from './helpers.mjs';
import { serve } from '../../tools/serve.mjs';
import { inPidNamespaceExecutable } from './pid-namespace.mjs';

let site;
let host;
let lab;
let browser;
before(async () => {
  mkdirSync(RESULTS, { recursive: true });
  // Under the strict CSP (the host's in its pages, below): no inline script or style anywhere.
  lab = await serve({ dir: DIST, port: 0, csp: true });
  site = mkdtempSync(join(tmpdir(), 'leaselab-host-'));
  copyFileSync(join(DIST, 'lease-lab-frame.js'), join(site, 'lease-lab-frame.js'));
  writeFileSync(join(site, 'docs.html'), hostPage(`${lab.url}embed.html?fencing=token&amp;controls=sliders%20fencing%20play%20compare`));
  writeFileSync(join(site, 'phone.html'), hostPage(`${lab.url}embed.html?lang=bn`));
  writeFileSync(join(site, 'other.html'), otherPage);
  writeFileSync(join(site, 'other.js'), otherJs);
  copyFileSync(join(DIST, 'favicon.svg'), join(site, 'favicon.ico')); // the browser asks for one
  host = await serve({ dir: site, port: 0 });
  browser = await chromium.launch({ executablePath: inPidNamespaceExecutable(process.env.CHROMIUM || '/usr/bin/chromium'), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});
after(async () => {
  await browser?.close();
  await host?.close();
  await lab?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

/** The host page: an article column with a leaselab frame from the other origin, and another frame. */
// Its CSP is the lab's strict one, plus the frame's origin (a host allows what it frames).
const hostPage = (src) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>' +
  `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-src 'self' ${new URL(src).origin}">` +
  '<script src="/lease-lab-frame.js" async></script></head><body><main id="col">' +
  '<h1>Docs</h1>' +
  `<iframe id="lab" src="${src}" title="leaselab" width="100%" height="760"></iframe>` +
  '<iframe id="other" src="/other.html" title="other" height="150"></iframe>' +
  '</main></body></html>';
// Another frame of the page that asks for a height in leaselab's words: it must be ignored.
const otherPage = '<!doctype html><title>other</title><script src="/other.js"></script>';
const otherJs = "setInterval(() => parent.postMessage({ type: 'leaselab:height', height: 5000 }, '*'), 50);";

/** The frame's height on the host, and how tall the page in it is and how much it shows. */
const measure = (page) =>
  page.evaluate(() => Math.round(document.getElementById('lab').getBoundingClientRect().height));
async function inner(page) {
  const frame = page.frame({ url: /embed\.html/ });
  return frame.evaluate(() => ({ scroll: document.documentElement.scrollHeight, view: innerHeight }));
}
/** Waits until the frame's height settles at the page inside it: no inner scrollbar, no gap (the same
 *  height twice in a row, not the initial 760). */
async function settled(page, what) {
  let last = -1;
  const seen = await until(
    async () => {
      const h = await measure(page);
      const { scroll, view } = await inner(page);
      const steady = h === last && h !== 760 && scroll <= view;
      last = h;
      return { h, scroll, view, steady };
    },
    (m) => m.steady,
    `${what}: the frame did not settle`,
  );
  return seen.h;
}

test('the iframe form sizes itself across origins: to the lab, as it grows and shrinks; other frames cannot', async () => {
  const { context, page, watch } = await openPage(browser, { width: 1280, height: 900 });
  try {
    const hostUrl = `${host.url}docs.html`;
    assert.notEqual(new URL(hostUrl).origin, new URL(lab.url).origin, 'two origins');
    await page.goto(hostUrl);
    const frame = page.frameLocator('#lab');
    await frame.locator('lease-lab [data-testid="outcome"][data-outcome="safe"]').waitFor();

    const wide = await settled(page, 'at 1280');
    // A narrow column: the lab wraps and grows; the frame follows.
    await page.evaluate(() => (document.getElementById('col').style.width = '390px'));
    const narrow = await settled(page, 'at 390');
    assert.ok(narrow > wide + 100, `taller when narrow: ${wide} → ${narrow}`);
    // The reader opens the side-by-side view: taller still; closes it: back.
    await frame.locator('lease-lab #compare > summary').click();
    await frame.locator('lease-lab #compare-verdict').filter({ hasText: /\d/ }).waitFor();
    const open = await settled(page, 'side by side');
    assert.ok(open > narrow, `taller with the comparison: ${narrow} → ${open}`);
    await frame.locator('lease-lab #compare > summary').click();
    assert.equal(await settled(page, 'closed again'), narrow);
    await page.evaluate(() => (document.getElementById('col').style.width = ''));
    assert.equal(await settled(page, 'wide again'), wide, 'and shrinks back');
    // The other frame asked for 5000 px all along and got nothing.
    assert.equal(await page.evaluate(() => document.getElementById('other').style.height), '');
    await page.screenshot({ path: join(RESULTS, 'frame-1280.png'), fullPage: true });
    assert.deepEqual(watch.problems(), []);
  } finally {
    await context.close();
  }
});

test('the iframe form at 390 px: the frame fits the lab (screenshot in test-results/)', async () => {
  const { context, page, watch } = await openPage(browser, { width: 390, height: 800 });
  try {
    const hostUrl = `${host.url}phone.html`;
    await page.goto(hostUrl);
    await page.frameLocator('#lab').locator('lease-lab [data-testid="outcome"][data-outcome]').waitFor();
    const h = await settled(page, 'phone');
    assert.ok(h > 760, `taller than the snippet's 760 at 390 px: ${h}`);
    await page.screenshot({ path: join(RESULTS, 'frame-390.png'), fullPage: true });
    assert.deepEqual(watch.problems(), []);
  } finally {
    await context.close();
  }
});
