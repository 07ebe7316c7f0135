// End-to-end tests of a <lease-lab> living inside someone else's page (issue 19): the keys it acts on
// never reach the host's own shortcuts, the others do; with theme="auto" it follows the host's own
// light/dark switch (MkDocs Material, Docusaurus, VitePress, furo, mdBook, Starlight) live, and the
// system's otherwise. Against dist/ in headless Chromium, like embed.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setup, openPage, RESULTS, until } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** A host page made of `body` (and `head`), served at /host.html; runs fn(page), then checks the console. */
async function withHost({ body, head = '', htmlAttrs = '', bodyAttrs = '' }, fn, opts = {}) {
  const html =
    `<!doctype html><html lang="en" ${htmlAttrs}><head><meta charset="utf-8"><title>host</title>${head}` +
    `<script type="module" src="/lease-lab.js"></script></head><body ${bodyAttrs}><main>${body}</main></body></html>`;
  const { context, page, watch } = await openPage(env.browser, opts);
  try {
    await page.route(`${env.url}host.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await page.goto(`${env.url}host.html`);
    await page.locator('lease-lab [data-testid="outcome"][data-outcome], lease-lab [data-testid="question"]').first().waitFor();
    await fn(page);
    assert.deepEqual(watch.problems(), [], 'no console errors, page errors or CSP reports');
  } finally {
    await context.close();
  }
}

const now = (page) => page.locator('lease-lab').first().locator('#now').textContent();

test('keys: the lab’s own stop at the lab (a host’s “,” “.” and ←/→ shortcuts stay quiet); the rest pass through', () =>
  withHost({ body: '<h1 tabindex="-1">Docs</h1><lease-lab controls="all"></lease-lab>' }, async (page) => {
    // The host's shortcuts as MkDocs Material and mdBook listen: on window and document, bubbling.
    await page.evaluate(() => {
      window.heard = [];
      const hear = (where) => (e) => window.heard.push(`${where}:${e.key}`);
      window.addEventListener('keydown', hear('window'));
      document.addEventListener('keydown', hear('document'));
    });
    const heard = () => page.evaluate(() => window.heard.splice(0));
    const el = page.locator('lease-lab');
    // "," and "." on a button of the lab: they step, and the host hears nothing.
    await el.locator('#next').focus();
    const start = await now(page);
    await page.keyboard.press(',');
    const stepped = await now(page);
    assert.notEqual(stepped, start, '"," stepped back');
    await page.keyboard.press('.');
    assert.notEqual(await now(page), stepped, '"." stepped on');
    assert.deepEqual(await heard(), []);
    // On the TTL slider too; and its arrows move it (their default action kept) without reaching the host.
    await el.locator('#ttl').focus();
    await page.keyboard.press('.');
    const ttl = await el.locator('#ttl').inputValue();
    await page.keyboard.press('ArrowRight');
    assert.notEqual(await el.locator('#ttl').inputValue(), ttl, 'the slider moved');
    assert.deepEqual(await heard(), []);
    // A menu's type-ahead stays in the lab.
    await el.locator('#fencing').focus();
    await page.keyboard.press('t');
    assert.deepEqual(await heard(), []);
    // Keys the lab does not act on reach the host: its search key, Escape, Tab, Ctrl+… .
    await el.locator('#next').focus();
    for (const k of ['s', 'n', 'Escape', 'Control+k', 'Tab']) await page.keyboard.press(k);
    const keys = ['s', 'n', 'Escape', 'Control', 'k', 'Tab'];
    assert.deepEqual(await heard(), keys.flatMap((k) => [`document:${k}`, `window:${k}`]));
  }));

/** The scheme each lab shows: 'dark' or 'light' by its background, as a reader sees it. */
const schemes = (page) =>
  page.locator('lease-lab').evaluateAll((els) =>
    els.map((e) => {
      const box = e.shadowRoot.getElementById('lab');
      return getComputedStyle(box).backgroundColor === 'rgb(13, 17, 23)' ? 'dark' : 'light';
    }),
  );
/** Waits (the observer's callback is a microtask away) until every lab shows `want`. */
async function expectSchemes(page, want, what) {
  await until(() => schemes(page), (got) => got.every((s, j) => s === want[j]), `${what}: want ${JSON.stringify(want)}`);
}

// Each site generator's own switch, as it marks it: [name, set dark, set light] on the live page.
const SWITCHES = [
  ['MkDocs Material', (d) => d.body.setAttribute('data-md-color-scheme', 'slate'), (d) => d.body.setAttribute('data-md-color-scheme', 'default')],
  ['Docusaurus', (d) => d.documentElement.setAttribute('data-theme', 'dark'), (d) => d.documentElement.setAttribute('data-theme', 'light')],
  ['Starlight', (d) => (d.documentElement.dataset.theme = 'dark'), (d) => (d.documentElement.dataset.theme = 'light')],
  ['furo', (d) => (d.body.dataset.theme = 'dark'), (d) => (d.body.dataset.theme = 'light')],
  ['mdBook (coal)', (d) => d.documentElement.classList.replace('light', 'coal'), (d) => d.documentElement.classList.replace('coal', 'light')],
  ['mdBook (navy, rust)', (d) => d.documentElement.classList.replace(d.documentElement.classList.contains('rust') ? 'rust' : 'light', 'navy'), (d) => d.documentElement.classList.replace('navy', 'rust')],
  ['mdBook (ayu)', (d) => d.documentElement.classList.replace('light', 'ayu'), (d) => d.documentElement.classList.replace('ayu', 'light')],
  ['VitePress', (d) => d.documentElement.classList.add('dark'), (d) => d.documentElement.classList.remove('dark')],
];

test('theme="auto" follows each docs generator’s own light/dark switch live, whatever the system says', async () => {
  for (const [name, dark, light] of SWITCHES) {
    // mdBook starts with its class on <html>; VitePress says who it is in a meta tag.
    const htmlAttrs = name.startsWith('mdBook') ? 'class="light"' : '';
    const head = name === 'VitePress' ? '<meta name="generator" content="VitePress v1.6.3">' : '';
    for (const system of ['light', 'dark']) {
      await withHost({ htmlAttrs, head, body: '<lease-lab></lease-lab><lease-lab theme="auto" fencing="token"></lease-lab><lease-lab theme="light"></lease-lab>' }, async (page) => {
        await page.evaluate(`(${dark})(document)`);
        await expectSchemes(page, ['dark', 'dark', 'light'], `${name}, system ${system}: dark`);
        await page.evaluate(`(${light})(document)`);
        await expectSchemes(page, ['light', 'light', 'light'], `${name}, system ${system}: light`);
        await page.evaluate(`(${dark})(document)`);
        await expectSchemes(page, ['dark', 'dark', 'light'], `${name}, system ${system}: dark again`);
      }, { colorScheme: system });
    }
  }
});

test('without a host switch, theme="auto" follows the system live; furo’s "auto" is the system’s; the attribute wins', () =>
  withHost({ bodyAttrs: 'data-theme="auto"', body: '<lease-lab></lease-lab><lease-lab theme="dark"></lease-lab>' }, async (page) => {
    await expectSchemes(page, ['light', 'dark']);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectSchemes(page, ['dark', 'dark'], 'the system went dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectSchemes(page, ['light', 'dark'], 'and light again');
    // The attribute, changed live, over the host's switch.
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await expectSchemes(page, ['dark', 'dark']);
    await page.locator('lease-lab').nth(1).evaluate((e) => e.setAttribute('theme', 'light'));
    await expectSchemes(page, ['dark', 'light']);
    await page.locator('lease-lab').nth(1).evaluate((e) => e.setAttribute('theme', 'auto'));
    await expectSchemes(page, ['dark', 'dark']);
    // A lab added after the switch, and one moved in the page, follow it too.
    await page.evaluate(() => {
      const more = document.createElement('lease-lab');
      document.querySelector('main').append(more);
      document.querySelector('main').prepend(document.querySelector('lease-lab'));
    });
    await page.locator('lease-lab').nth(2).locator('[data-testid="outcome"][data-outcome]').waitFor();
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
    await expectSchemes(page, ['light', 'light', 'light']);
  }));

test('the host’s root font size does not scale the lab (mdBook’s 62.5%, Material’s 150%); font-size on lease-lab does', async () => {
  // What one lab measures: its verdict's word, its body text, its padding and its height, in px.
  const measure = (page) =>
    page.locator('lease-lab').evaluate((el) => {
      const r = el.shadowRoot;
      const px = (sel, prop) => getComputedStyle(r.querySelector(sel))[prop];
      return { word: px('.verdict .word', 'fontSize'), text: px('.verdict', 'fontSize'), pad: px('.verdict', 'paddingTop'), height: Math.round(el.getBoundingClientRect().height) };
    });
  const at = async (style) => {
    let got;
    await withHost({ head: `<style>${style}</style>`, body: '<lease-lab></lease-lab>' }, async (page) => {
      got = await measure(page);
    }, { width: 760, height: 900 });
    return got;
  };
  const plain = await at('');
  const scaled = (px, by) => `${Number((Number.parseFloat(px) * by).toFixed(3))}px`;
  for (const root of ['62.5%', '150%']) {
    assert.deepEqual(await at(`html { font-size: ${root}; }`), plain, `html { font-size: ${root} }: the lab as on a 16 px page`);
  }
  const bigger = await at('html { font-size: 62.5%; } lease-lab { font-size: 20px; }');
  assert.equal(bigger.word, scaled(plain.word, 20 / 16), 'lease-lab { font-size: 20px } scales the whole lab');
  assert.equal(bigger.pad, scaled(plain.pad, 20 / 16), 'its spacing with it');
  assert.ok(bigger.height > plain.height, `and its height: ${bigger.height} > ${plain.height} px`);
});

test('screenshots: a lab following a dark host at 390 and 1280 px, in Bengali too (test-results/)', async () => {
  for (const width of [390, 1280]) {
    for (const lang of ['en', 'bn']) {
      await withHost({ htmlAttrs: 'data-theme="dark"', body: `<lease-lab lang="${lang}" controls="sliders fencing play"></lease-lab>` }, async (page) => {
        await expectSchemes(page, ['dark']);
        const sw = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(sw <= width, `no sideways scroll at ${width}: ${sw}`);
        await page.locator('lease-lab').screenshot({ path: join(RESULTS, `host-dark-${lang}-${width}.png`) });
      }, { width, height: 900 });
    }
  }
});

test('a lesson in an element follows the host’s switch and its own theme attribute, live', () =>
  withHost({ body: '<lease-lab lesson="3"></lease-lab>' }, async (page) => {
    const bg = () => page.locator('lease-lab').evaluate((e) => getComputedStyle(e.shadowRoot.getElementById('ls-host')).backgroundColor);
    const expectBg = async (want, what) => {
      await until(bg, (got) => got === want, `${what}: want ${want}`);
    };
    await page.locator('lease-lab [data-testid="question"]').waitFor();
    await expectBg('rgb(255, 255, 255)', 'light to start');
    await page.evaluate(() => document.body.setAttribute('data-md-color-scheme', 'slate'));
    await expectBg('rgb(13, 17, 23)', 'the host went dark');
    await page.locator('lease-lab').evaluate((e) => e.setAttribute('theme', 'light'));
    await expectBg('rgb(255, 255, 255)', 'the attribute wins');
  }));
