// Unit tests of author.html's pure parts under plain Node: its dictionaries (English and Bengali have
// the same keys and placeholders) and author-share.js (the share link's fragment round trip and its
// refusals, the embed snippet, the download's name).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { en, bn } from '../../author-i18n.js';
import { decodeText, embedSnippet, encodeText, fileName, fragmentValue, shareLink, TEXT_BYTES_MAX } from '../../author-share.js';

const placeholders = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('author.html’s English and Bengali words have the same keys and placeholders', () => {
  assert.deepEqual(Object.keys(bn).sort(), Object.keys(en).sort());
  for (const k of Object.keys(en)) assert.deepEqual(placeholders(bn[k]), placeholders(en[k]), k);
});

test('a share link carries the text in its fragment, and gives it back exactly', async () => {
  const text = 'id: x\ntitle: বীজ — “quotes” & <tags>\n' + 'client A: acquire; read; write 60\n'.repeat(200);
  const link = await shareLink('https://example.org/leaselab/author.html?lang=bn#old', text);
  const u = new URL(link);
  assert.equal(u.search, '?lang=bn');
  assert.match(u.hash, /^#s=[A-Za-z0-9_-]+$/);
  assert.ok(u.hash.length < text.length / 4, 'compressed');
  assert.equal(await decodeText(fragmentValue(u.hash)), text);
  assert.equal(await decodeText(await encodeText('')), '');
});

test('a fragment that is not one is refused, and so is one that inflates past the limit', async () => {
  assert.equal(fragmentValue('#other=1'), null);
  await assert.rejects(decodeText('not*base64'));
  await assert.rejects(decodeText('AAAA'));
  await assert.rejects(decodeText(await encodeText('x'.repeat(TEXT_BYTES_MAX + 1))), /longer than/);
});

test('the embed snippet puts the text inline, its </script written so it cannot end the element', () => {
  const { html, escaped } = embedSnippet('https://example.org/lease-lab.js', 'id: x\ntitle: a</script><b>\n', [['fencing', 'token"']]);
  assert.ok(escaped);
  assert.equal(html.match(/<\/script>/g).length, 2, 'only the two real ends');
  assert.match(html, /<lease-lab fencing="token&quot;">\n<script type="text\/x-leaselab">\nid: x\ntitle: a<\\\/script><b>\n<\/script>\n<\/lease-lab>/);
  assert.equal(embedSnippet('u', 'id: y').escaped, false);
});

test('the download is named after the scenario id where that is a plain name', () => {
  assert.equal(fileName('my-job'), 'my-job.txt');
  assert.equal(fileName('../etc/passwd'), 'scenario.txt');
  assert.equal(fileName(''), 'scenario.txt');
});
