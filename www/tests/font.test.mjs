// The Bengali webfont (www/fonts/, made by tools/bengali-font.sh): it covers every Bengali letter the
// site shows, style.css and lease-lab.js declare the same face, an English reader never downloads it,
// and a reader of lang=bn whose system has no Bengali font gets it (the page and a <lease-lab> on a host
// page), with letters drawn from it rather than boxes. The last part runs a Chromium whose fontconfig
// hides every Bengali font of this machine, and saves screenshots at 390 and 1280 px to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { setup, openPage, ROOT, RESULTS } from './helpers.mjs';
import { inPidNamespaceExecutable } from './pid-namespace.mjs';

const FONT = 'fonts/noto-sans-bengali-400.woff2';
const BENGALI = /[\u0964\u0965\u0980-\u09FF\u200C\u200D]/gu;

/** The files tools/bengali-font.sh reads for the letters the site uses. */
async function siteText() {
  const parts = [];
  for (const [dir, re] of [['www', /\.(js|html)$/], ['www/i18n', /\.js$/], ['www/i18n/services', /\.js$/], ['crate/scenarios', /\.txt$/]]) {
    for (const f of await readdir(join(ROOT, dir))) if (re.test(f)) parts.push(await readFile(join(ROOT, dir, f), 'utf8'));
  }
  return parts.join('\n');
}

test('the subset covers every Bengali character the site uses (else: run tools/bengali-font.sh)', async () => {
  const have = new Set(await readFile(join(ROOT, 'www', 'fonts', 'bengali-chars.txt'), 'utf8'));
  const missing = [...new Set((await siteText()).match(BENGALI))].filter((c) => !have.has(c));
  assert.deepEqual(missing.map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase()}`), []);
});

test('style.css and lease-lab.js declare the same face: local() names, then the file, same unicode-range', async () => {
  const css = await readFile(join(ROOT, 'www', 'style.css'), 'utf8');
  const js = await readFile(join(ROOT, 'www', 'lease-lab.js'), 'utf8');
  const face = /@font-face\s*{[^}]*"leaselab Bengali"[^}]*}/.exec(css)[0];
  const cssLocal = [...face.matchAll(/local\("([^"]+)"\)/g)].map((m) => m[1]);
  const jsLocal = JSON.parse(/const local = (\[[^\]]+\])/.exec(js)[1].replaceAll("'", '"'));
  assert.deepEqual(jsLocal, cssLocal);
  assert.ok(face.indexOf('local(') < face.indexOf(`url("${FONT}")`), 'local fonts first');
  const range = /unicode-range:\s*([^;]+);/.exec(face)[1].trim();
  assert.ok(js.includes(`unicodeRange: '${range}'`), `lease-lab.js uses ${range}`);
  assert.match(range, /U\+0980-09FE/);
});

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** In the page: the shipped face was needed and has loaded (the browser loads it only to draw letters). */
const loadedFace = () => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'leaselab Bengali' && f.status === 'loaded');
const fontRequests = (watch) => watch.requests.filter((u) => /\/fonts\/|\.woff2?$/.test(u));

for (const path of ['', 'examples/docs-page.html', 'learn.html']) {
  test(`English ${path || 'index.html'}: no font file is requested`, async () => {
    const { context, page, watch } = await openPage(env.browser);
    try {
      await page.goto(env.url + path);
      await page.locator('[data-testid=outcome][data-outcome]').first().waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      assert.deepEqual(fontRequests(watch), []);
    } finally {
      await context.close();
    }
  });
}

/** A fontconfig setup of this machine's fonts less every one that has Bengali letters. */
async function withoutBengaliFonts() {
  let files = [];
  try {
    files = execFileSync('fc-list', [':lang=bn', 'file'], { encoding: 'utf8' }).split('\n').map((l) => l.replace(/:\s*$/, '').trim()).filter(Boolean);
  } catch {
    // No fc-list: no fontconfig tools, and nothing known to hide.
  }
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const conf = join(RESULTS, 'fonts-without-bengali.conf');
  await writeFile(
    conf,
    '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n' +
      '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n' +
      `  <selectfont><rejectfont>${files.map((f) => `<glob>${esc(f)}</glob>`).join('')}</rejectfont></selectfont>\n</fontconfig>\n`,
  );
  return conf;
}

test('lang=bn without a Bengali system font: the shipped subset is fetched and draws the letters', async () => {
  const browser = await chromium.launch({
    executablePath: inPidNamespaceExecutable(process.env.CHROMIUM || '/usr/bin/chromium'),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    env: { ...process.env, FONTCONFIG_FILE: await withoutBengaliFonts() },
  });
  try {
    for (const width of [390, 1280]) {
      const { context, page, watch } = await openPage(browser, { width });
      await page.goto(`${env.url}?lang=bn`);
      await page.locator('[data-testid=outcome][data-outcome]').waitFor();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => document.fonts.ready);
      assert.equal(fontRequests(watch).length, 1, fontRequests(watch).join(' '));
      assert.ok(fontRequests(watch)[0].endsWith(FONT));
      // The face is loaded and covers the letters (a box would mean no font had them).
      assert.ok(await page.evaluate(loadedFace));
      await page.screenshot({ path: join(RESULTS, `bn-no-system-font-${width}.png`), fullPage: width === 390 });
      assert.deepEqual(watch.problems(), []);
      await context.close();
    }
    // A <lease-lab lang="bn"> on a host page: its shadow root cannot declare fonts, lease-lab.js does.
    const { context, page, watch } = await openPage(browser);
    const html = '<!doctype html><html lang="bn"><head><meta charset="utf-8"><title>host</title><script type="module" src="/lease-lab.js"></script></head><body><lease-lab lang="bn"></lease-lab></body></html>';
    await page.route(`${env.url}host.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await page.goto(`${env.url}host.html`);
    await page.locator('lease-lab [data-testid=outcome][data-outcome]').waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready);
    assert.ok(fontRequests(watch).some((u) => u.endsWith(FONT)), watch.requests.join('\n'));
    assert.ok(await page.evaluate(loadedFace));
    await page.screenshot({ path: join(RESULTS, 'bn-no-system-font-element.png') });
    await context.close();
  } finally {
    await browser.close();
  }
});
