// End-to-end tests of a <lease-lab> living inside someone else's page (issue 19): the keys it acts on
// never reach the host's own shortcuts, the others do. Against dist/ in headless Chromium, like
// embed.test.mjs.
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

/** A host page made of `body` (and `head`), served at /host.html; runs fn(page), then checks the console. */
async function withHost({ body, head = '', htmlAttrs = '', bodyAttrs = '' }, fn, opts = {}) {
  const html =
    `<!doctype html><html lang="en" ${htmlAttrs}><head><meta charset="utf-8"><title>host</title>${head}` +
    `<script type="module" src="/lease-lab.js"></script></head><body ${bodyAttrs}><main>${body}</main></body></html>`;
  const { context, page, watch } = await openPage(env.browser, opts);
  try {
    await page.route(`${env.url}host.html`, (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    await page.goto(`${env.url}host.html`);
    await page.locator('lease-lab [data-testid="outcome"][data-outcome]').first().waitFor();
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

