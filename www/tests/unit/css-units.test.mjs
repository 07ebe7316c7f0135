// style.css sizes everything in --lease-lab-rem, never in bare rem: inside a host page rem is the host's
// root font size (mdBook 10 px, MkDocs Material up to 24 px), and a lab sized by it comes out tiny or huge
// (the recipes' screenshots showed both). The one rem allowed is the property's own value on :root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const css = readFileSync(new URL('../../style.css', import.meta.url), 'utf8');

test('style.css has no bare rem length outside comments, but for --lease-lab-rem on :root', () => {
  const code = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const bad = [];
  code.split('\n').forEach((line, i) => {
    if (/^:root \{ --lease-lab-rem: 1rem; \}$/.test(line.trim())) return;
    for (const m of line.matchAll(/(?<![\w.-])\d*\.?\d+rem\b/g)) bad.push(`style.css:${i + 1}: ${m[0]}`);
  });
  assert.deepEqual(bad, [], 'use calc(N * var(--lease-lab-rem)) instead');
});
