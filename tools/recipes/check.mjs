#!/usr/bin/env node
// Checks one recipe's built site in headless Chromium, as a reader would meet it: the labs on page 1
// show the verdicts site.json names — a ```leaselab fence's lab the verdict `leaselab run` gives for the
// fence's own text in the recipe page (cli-verdict.mjs), its text kept as the lab's source, each fence
// upgraded once and none left bare; a click on the site's own link to page 2 swaps the page without a
// reload (the docs tool's client-side navigation; a full load only where site.json says
// "fullLoad": true) and page 2's labs show theirs; Back brings page 1's again; the tool's own dark switch
// turns every lab dark; with scripts off, page 1 still shows its fences' text; no request the pages make
// is answered with an HTTP error. Screenshots, light and dark at 390 and 1280 px, go to
// test-results/recipes/TOOL/.
//
//   node tools/recipes/check.mjs --tool NAME --workdir DIR
//
// tools/recipes/NAME/site.json says what to serve and check (see docs/recipes/README.md, "How the
// recipes are tested"). Serves WORKDIR/<serve> under <base> with tools/serve.mjs on loopback, on port
// RECIPE_PORT when set (run.mjs picks a free one, the same for the build), else on any free port.
// Prints one line; exit 0 when every check holds, 1 with the reason otherwise, 2 on bad arguments, 3
// when RECIPE_PORT was taken by another program between the build and the check (run.mjs retries).
import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../serve.mjs';
import { launch, openPage, RESULTS } from '../../www/tests/helpers.mjs';
import { fenceParts, fenceTexts } from './fence-texts.mjs';
import { cliVerdict } from './cli-verdict.mjs';
import { UPGRADED } from '../../www/fence.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const WAIT_MS = 30_000;
const WHOLE_CHECK_MS = 180_000;
const WIDTHS_PX = [390, 1280];

function usage(message) {
  console.error(`check: ${message}\nusage: node tools/recipes/check.mjs --tool NAME --workdir DIR`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--tool') o.tool = argv[++i];
    else if (argv[i] === '--workdir') o.workdir = argv[++i];
    else usage(`unknown argument ${argv[i]}`);
  }
  if (!o.tool || !/^[a-z0-9-]+$/.test(o.tool)) usage('--tool NAME (lower case, digits and -) is required');
  if (!o.workdir) usage('--workdir DIR is required');
  return o;
}

/** site.json, checked field by field so a mistake in it reads as one, not as a failing site. */
export function readSite(tool) {
  const file = join(HERE, tool, 'site.json');
  let site;
  try {
    site = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${e.message}`);
  }
  const bad = (what) => {
    throw new Error(`${file}: ${what}`);
  };
  if (typeof site.serve !== 'string' || site.serve.includes('..')) bad('"serve" must be a folder inside the workdir');
  if (typeof site.base !== 'string' || !/^\/([\w.-]+\/)*$/.test(site.base)) bad('"base" must be "/" or a sub-path like "/docs/"');
  if (!Array.isArray(site.pages) || site.pages.length !== 2 || !site.pages.every((p) => typeof p === 'string' && !p.startsWith('/'))) {
    bad('"pages" must be two paths relative to "base"');
  }
  const perPage = Array.isArray(site.embeds?.[0]) ? site.embeds : [site.embeds, site.embeds];
  const tagOk = (e) => typeof e.scenario === 'string' && ['lost-update', 'safe'].includes(e.outcome) && e.fence === undefined;
  const fenceOk = (e) => typeof e.fence === 'string' && e.scenario === undefined && e.outcome === undefined;
  const embedOk = (e) => e && typeof e.policy === 'string' && (tagOk(e) || fenceOk(e));
  if (!perPage.every((list) => Array.isArray(list) && list.length > 0 && list.every(embedOk))) {
    bad('"embeds" must list {scenario, policy, outcome: "lost-update"|"safe"} (a tag) or {fence: ID, policy} (or one such list per page)');
  }
  if (typeof site.navigate?.click !== 'string') bad('"navigate.click" must be a CSS selector');
  const clicks = site.dark?.click;
  if (!(typeof clicks === 'string' || (Array.isArray(clicks) && clicks.every((c) => typeof c === 'string'))) && typeof site.dark?.eval !== 'string') {
    bad('"dark" must be {"click": selector or [selectors]} or {"eval": "JS"}');
  }
  return { ...site, perPage, fullLoad: site.fullLoad === true };
}

/**
 * site.json's fence entries made whole: each `{fence: ID, policy}` gets the fence's text, found in the
 * recipe page (the one fence naming that scenario id with that fencing), and the verdict `leaselab run`
 * gives for that text — computed here, never written down, so a change of the simulator moves both.
 */
export function resolveFences(tool, perPage) {
  const fences = fenceTexts(readFileSync(join(HERE, '..', '..', 'docs', 'recipes', `${tool}.md`), 'utf8')).map((f) => ({ ...f, parts: fenceParts(f.text) }));
  return perPage.map((list) =>
    list.map((e) => {
      if (e.fence === undefined) return e;
      const texts = [...new Set(fences.filter((f) => f.parts.id === e.fence && f.parts.policy === e.policy).map((f) => f.text))];
      if (texts.length !== 1) {
        throw new Error(`site.json's fence ${e.fence}/${e.policy}: docs/recipes/${tool}.md has ${texts.length} different fences of that scenario and fencing (want exactly 1)`);
      }
      const parts = fenceParts(texts[0]);
      return { ...e, text: texts[0], own: parts.scenario != null, outcome: cliVerdict(parts) };
    }),
  );
}

/** Serves DIR under BASE: a sub-path is a symlink inside a mount folder, so serve.mjs stays as it is. */
async function serveUnder(workdir, site) {
  const built = resolve(workdir, site.serve);
  const port = Number(process.env.RECIPE_PORT) || 0;
  if (site.base === '/') return serve({ dir: built, port });
  const mount = join(resolve(workdir), '.mount');
  rmSync(mount, { recursive: true, force: true });
  const link = join(mount, site.base);
  mkdirSync(dirname(link.replace(/\/$/, '')), { recursive: true });
  symlinkSync(built, link.replace(/\/$/, ''));
  return serve({ dir: mount, port });
}

/** Each lab on the page: scenario, policy on screen, verdict (or null while it loads), and its tag. */
function readLabs(page) {
  return page.$$eval('lease-lab', (els) =>
    els.map((el) => {
      const root = el.shadowRoot || el;
      const box = root.querySelector('[data-testid="outcome"][data-outcome]');
      return {
        scenario: el.getAttribute('scenario') || 'seed-gc-pause',
        policy: root.querySelector('#fencing')?.value || el.getAttribute('fencing') || 'none',
        outcome: box ? box.dataset.outcome : null,
        tag: el.__recipeTag || null,
        fenced: Boolean(el.fence),
        source: el.querySelector(':scope > [slot="source"]')?.textContent ?? null,
      };
    }),
  );
}

/** Waits until the page holds `want.length` labs, none tagged `staleTag`, all with a verdict; compares. */
async function expectLabs(page, want, where, staleTag) {
  const deadline = Date.now() + WAIT_MS;
  let labs = [];
  for (;;) {
    labs = await readLabs(page).catch(() => []);
    const fresh = labs.length === want.length && (!staleTag || labs.every((l) => l.tag !== staleTag));
    if (fresh && labs.every((l) => l.outcome)) break;
    if (Date.now() > deadline) {
      throw new Error(`${where}: expected ${want.length} labs with verdicts, found ${JSON.stringify(labs)} after ${WAIT_MS / 1000} s`);
    }
    await page.waitForTimeout(100);
  }
  want.forEach((w, i) => {
    const got = labs[i];
    if (w.fence !== undefined) return expectFenceLab(got, w, `${where}: lab ${i + 1}`);
    if (got.fenced || got.scenario !== w.scenario || got.policy !== w.policy || got.outcome !== w.outcome) {
      throw new Error(`${where}: lab ${i + 1} shows ${got.fenced ? 'a fence’s lab ' : ''}${got.scenario}/${got.policy} → ${got.outcome}, site.json wants the tag ${w.scenario}/${w.policy} → ${w.outcome}`);
    }
  });
  await expectFencesUpgraded(page, want, where);
}

/** A fence's lab: made from the fence, keeping its text as the source, with `leaselab run`'s verdict. */
function expectFenceLab(got, w, where) {
  const what = `the fence ${w.fence}/${w.policy}${w.own ? ' (a scenario of its own)' : ''}`;
  if (!got.fenced) throw new Error(`${where}: a tag's lab where ${what} should be`);
  if ((got.source ?? '').trimEnd() !== w.text.trimEnd()) {
    throw new Error(`${where}: the lab's source is ${JSON.stringify(got.source)}, not ${what}'s text ${JSON.stringify(w.text)}`);
  }
  if (got.policy !== w.policy || got.outcome !== w.outcome) {
    throw new Error(`${where}: ${what} shows ${got.policy} → ${got.outcome}; leaselab run says ${w.policy} → ${w.outcome}`);
  }
}

/**
 * Each fence upgraded exactly once and none left bare: as many upgraded blocks as fence labs, each with
 * its lab just before it, and every code block on the page that holds a fence's text (spaces aside:
 * some tools put each line in an element of its own) is inside an upgraded block, or a lab's source.
 */
async function expectFencesUpgraded(page, want, where) {
  const texts = want.filter((w) => w.fence !== undefined).map((w) => w.text);
  const found = await page.evaluate(
    ([fenceTexts, upgraded]) => {
      const squeeze = (t) => t.replace(/\s+/g, '');
      const wanted = new Set(fenceTexts.map(squeeze));
      const blocks = [...document.querySelectorAll(`[${upgraded}]`)];
      const bare = [...document.querySelectorAll('pre')].filter(
        (pre) => wanted.has(squeeze(pre.textContent)) && !pre.closest(`lease-lab, [${upgraded}]`),
      );
      return { blocks: blocks.length, withLab: blocks.filter((b) => b.previousElementSibling?.localName === 'lease-lab').length, bare: bare.length };
    },
    [texts, UPGRADED],
  );
  if (found.blocks !== texts.length || found.withLab !== texts.length || found.bare) {
    throw new Error(`${where}: ${texts.length} fences, but ${found.blocks} upgraded blocks (${found.withLab} with their lab before them) and ${found.bare} left bare`);
  }
}

/** Where scripts do not run, page 1 still shows each of its fences' text, as the code it is. */
async function expectReadableWithoutScripts(browser, url, want) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(url);
    const shown = (await page.evaluate(() => document.body.innerText)).replace(/\s+/g, '');
    const missing = want.filter((w) => w.fence !== undefined && !shown.includes(w.text.replace(/\s+/g, '')));
    if (missing.length) throw new Error(`without scripts, page 1 does not show the text of the fence ${missing.map((w) => `${w.fence}/${w.policy}`).join(', ')}`);
  } finally {
    await context.close();
  }
}

const tagLabs = (page, tag) => page.$$eval('lease-lab', (els, t) => els.forEach((el) => (el.__recipeTag = t)), tag);
const setMarker = (page) => page.evaluate(() => (window.__recipeMarker = 'still-this-document'));
const hasMarker = (page) => page.evaluate(() => window.__recipeMarker === 'still-this-document').catch(() => false);
const pathOf = (href) => new URL(href).pathname.replace(/index\.html$/, '');

/** Waits for the address to reach `wantHref`; then says whether the document stayed (client-side). */
async function arrived(page, wantHref, where) {
  const want = pathOf(wantHref);
  await page.waitForURL((u) => pathOf(u.href) === want, { timeout: WAIT_MS, waitUntil: 'commit' }).catch(() => {
    throw new Error(`${where}: the address is ${page.url()}, not ${wantHref}`);
  });
  return hasMarker(page);
}

/** The verdicts on page 1, the site's link to page 2 and back: client-side unless fullLoad. */
async function checkNavigation(page, site, urls) {
  await page.goto(urls[0]);
  await expectLabs(page, site.perPage[0], 'page 1');
  await tagLabs(page, 'page-1');
  await setMarker(page);
  await page.locator(site.navigate.click).first().click({ timeout: WAIT_MS });
  const stayed = await arrived(page, urls[1], 'after the link to page 2');
  if (!stayed && !site.fullLoad) throw new Error('the link to page 2 reloaded the page: the tool’s client-side navigation did not run');
  await expectLabs(page, site.perPage[1], 'page 2 (after the link)', 'page-1');
  await tagLabs(page, 'page-2');
  await page.goBack({ waitUntil: 'commit' });
  const stayedBack = await arrived(page, urls[0], 'after Back');
  if (stayed && !stayedBack) throw new Error('Back reloaded the page though the link did not');
  await expectLabs(page, site.perPage[0], 'page 1 (after Back)', 'page-2');
  return stayed ? 'client-side' : 'full load (no client-side navigation)';
}

/** Each lab's background: its luminance 0–1 (the lab's own box in its shadow root). */
function labLuminances(page) {
  return page.$$eval('lease-lab', (els) =>
    els.map((el) => {
      const box = el.shadowRoot?.getElementById('lab') || el;
      const [r, g, b] = (getComputedStyle(box).backgroundColor.match(/[\d.]+/g) || [255, 255, 255]).map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    }),
  );
}

async function waitForScheme(page, dark, where) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const lum = await labLuminances(page);
    if (lum.length && lum.every((l) => (dark ? l < 0.35 : l > 0.65))) return;
    if (Date.now() > deadline) throw new Error(`${where}: labs' background luminance ${lum.map((l) => l.toFixed(2)).join(', ')}, want ${dark ? 'dark' : 'light'}`);
    await page.waitForTimeout(100);
  }
}

async function flipDark(page, dark) {
  if (dark.eval) return page.evaluate(dark.eval);
  for (const sel of [].concat(dark.click)) await page.locator(sel).first().click({ timeout: WAIT_MS });
}

/** Screenshots at each width (full page); the labs redraw for the new width first. */
async function shoot(page, dir, scheme) {
  const files = [];
  for (const width of WIDTHS_PX) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.waitForTimeout(300);
    const file = join(dir, `${scheme}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
  }
  await page.setViewportSize({ width: WIDTHS_PX.at(-1), height: 900 });
  return files;
}

/**
 * Chromium gives a view transition's DOM update 4 s; past that it skips the animation and rejects the
 * transition's `ready`, which Astro's router leaves unhandled. The swap itself still runs, and the
 * labs it brings are checked as always. Seen once in CI, a 4 s stall on a machine busy with two
 * builds (the check took 8.5 s instead of 4.5 s); the swap's own work takes 10–35 ms there.
 */
export const skippedTransition = (message) => /^Transition was aborted because of timeout in DOM update/.test(message);

/**
 * The failures: a script error, a request for the package's files that failed, and any HTTP error the
 * site answers (the recipe's site is what a writer copies, so a 404 in it is the recipe's to fix).
 * The site's own console errors, and a view transition the browser skipped, are only reported.
 */
function watchLab(page) {
  const problems = [];
  const warnings = [];
  page.on('pageerror', (e) => (skippedTransition(e.message) ? warnings : problems).push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && !/^Failed to load resource/.test(m.text()) && warnings.push(m.text()));
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
  page.on('requestfailed', (r) => /leaselab|lease-lab/.test(r.url()) && problems.push(`failed ${r.url()}`));
  return { problems, warnings };
}

async function run({ tool, workdir }) {
  const read = readSite(tool);
  const site = { ...read, perPage: resolveFences(tool, read.perPage) };
  const out = join(RESULTS, 'recipes', tool);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const srv = await serveUnder(workdir, site);
  const browser = await launch();
  cleanup = async () => {
    await browser.close().catch(() => {});
    await srv.close().catch(() => {});
  };
  const { page } = await openPage(browser, { width: 1280, height: 900, colorScheme: 'light' });
  const seen = watchLab(page);
  const root = new URL(site.base.slice(1), srv.url).href;
  const urls = site.pages.map((p) => new URL(p, root).href);
  const navigation = await checkNavigation(page, site, urls);
  await waitForScheme(page, false, 'before the dark switch');
  const shots = await shoot(page, out, 'light');
  await flipDark(page, site.dark);
  await waitForScheme(page, true, 'after the site’s dark switch');
  shots.push(...(await shoot(page, out, 'dark')));
  await expectReadableWithoutScripts(browser, urls[0], site.perPage[0]);
  if (seen.problems.length) throw new Error(seen.problems.join('; '));
  const warn = seen.warnings.length ? ` (the site's own errors, reported only: ${seen.warnings.length}, first: ${seen.warnings[0].slice(0, 160)})` : '';
  const fences = site.perPage.flat().filter((e) => e.fence !== undefined).length;
  return `verdicts right on both pages (${fences} fences as leaselab run says, each upgraded once, readable without scripts); navigation ${navigation}, Back too; the labs follow the dark switch; ${shots.length} screenshots in ${out}${warn}`;
}

let cleanup = async () => {};
/** The exit status when RECIPE_PORT was taken meanwhile by another program: run.mjs tries another port. */
export const PORT_TAKEN = 3;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  const stop = async (code, line) => {
    await cleanup();
    (code ? console.error : console.log)(line);
    process.exit(code);
  };
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(130, `check: ${args.tool}: interrupted`));
  const timer = setTimeout(() => stop(1, `check: ${args.tool}: FAIL — no result after ${WHOLE_CHECK_MS / 1000} s`), WHOLE_CHECK_MS);
  run(args).then(
    (line) => (clearTimeout(timer), stop(0, `check: ${args.tool}: ok — ${line}`)),
    (e) => (clearTimeout(timer), stop(e.code === 'EADDRINUSE' ? PORT_TAKEN : 1, `check: ${args.tool}: FAIL — ${e.message}`)),
  );
}
