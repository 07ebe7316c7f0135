// Unit tests of www/fence.js's text rules under plain Node: which first line of a ```leaselab fence is
// attributes (only `name=value` words), which names a fence may not set (the element's global HTML
// attributes and event handlers), and that a scenario's lines keep the fence's numbering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attributeWords, splitFence } from '../../fence.js';

test('a line of name=value words is attributes; quotes hold spaces; anything else is not', () => {
  assert.deepEqual(attributeWords('scenario=etcd-lease-pause fencing=token controls=ttl,pause'), [
    ['scenario', 'etcd-lease-pause'],
    ['fencing', 'token'],
    ['controls', 'ttl,pause'],
  ]);
  assert.deepEqual(attributeWords('  controls="ttl pause"  theme=\'dark\' ttl='), [
    ['controls', 'ttl pause'],
    ['theme', 'dark'],
    ['ttl', ''],
  ]);
  // Renderers keep a line's trailing spaces: they end no attribute line.
  assert.deepEqual(attributeWords('ttl=1s  \t'), [['ttl', '1s']]);
  assert.deepEqual(splitFence('ttl=1s  \nid: x').attrs, [['ttl', '1s']]);
  for (const line of ['id: my-job', 'service: consul ttl=10s', 'param ttl = 10s in 1s..60s: TTL', '# ttl=1', 'ttl=1 and more', 'Ttl=1', 'ttl="open', 'a=b"c', '']) {
    assert.equal(attributeWords(line), null, line);
  }
});

test('a fence of attributes only has no scenario; one with more lines keeps them, numbered as in the fence', () => {
  assert.deepEqual(splitFence('\nscenario=seed-gc-pause fencing=token\n\n'), {
    attrs: [
      ['scenario', 'seed-gc-pause'],
      ['fencing', 'token'],
    ],
    refused: [],
    scenario: null,
  });
  const own = splitFence('fencing=token\nid: x\ntitle: X');
  assert.deepEqual(own.attrs, [['fencing', 'token']]);
  assert.equal(own.scenario, '\nid: x\ntitle: X');
  assert.equal(own.scenario.split('\n').indexOf('title: X'), 2, 'line 3 of the fence is line 3 of the scenario');
  const whole = '# mine\nid: x\ntitle: a=b';
  assert.deepEqual(splitFence(whole), { attrs: [], refused: [], scenario: whole });
  assert.deepEqual(splitFence('  \n'), { attrs: [], refused: [], scenario: null });
});

test('a fence may not set event handlers or the element’s global attributes', () => {
  // Names are lower case: a line with ONLOAD= is no attribute line, so all of it is scenario text.
  assert.deepEqual(splitFence('ONLOAD=y ttl=300'), { attrs: [], refused: [], scenario: 'ONLOAD=y ttl=300' });
  const lower = splitFence('onclick=x onload=y style=a class=b id=c slot=d hidden= data-x=1 aria-label=l ttl=300');
  assert.deepEqual(lower.refused, ['onclick', 'onload', 'style', 'class', 'id', 'slot', 'hidden', 'data-x', 'aria-label']);
  assert.deepEqual(lower.attrs, [['ttl', '300']]);
  assert.deepEqual(splitFence('lang=bn src=s.txt').attrs, [
    ['lang', 'bn'],
    ['src', 's.txt'],
  ]);
});
