// The recipes' fences, without building a site: tools/recipes/fence-texts.mjs finds a recipe page's
// ```leaselab fences in its three spellings (Markdown, rst, HTML) and splits each as www/fence.js does,
// cli-verdict.mjs turns one into the `leaselab run` that judges its lab, and every site.json fence entry
// names exactly one fence of its recipe page. `make test-recipes` checks the labs in the built sites.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fenceParts, fenceTexts } from '../../../tools/recipes/fence-texts.mjs';
import { CLI, cliVerdict, runArgs } from '../../../tools/recipes/cli-verdict.mjs';
import { readSite, resolveFences } from '../../../tools/recipes/check.mjs';
import { splitFence } from '../../fence.js';
import { ROOT } from '../helpers.mjs';

const OWN = 'id: mine\ntitle: Mine <b>x</b>\nsummary: s\nservice: lease ttl=1s\nclient A: acquire; read; work 2s; write 1; release\nclient B: start 1500ms; acquire every 100ms; read; write 2; release';

test('fenceTexts: Markdown, rst and HTML fences inside the recipe files, in order, their text exact', () => {
  const page = [
    '<!-- recipe-file: docs/a.md -->',
    '````markdown',
    '```leaselab',
    'scenario=seed-gc-pause fencing=token',
    '```',
    '```python',
    'not = "a fence"',
    '```',
    '````',
    '<!-- recipe-file: b.rst -->',
    '```rst',
    'Title',
    '',
    '.. code-block:: leaselab',
    '',
    '   fencing=token',
    '   id: mine',
    '',
    '   title: t',
    '',
    'After.',
    '```',
    '<!-- recipe-file: c.html -->',
    '```html',
    '<pre><code class="language-leaselab">title: a &lt;b&gt; &amp; c',
    '</code></pre>',
    '```',
    '```leaselab',
    'outside a recipe file: not the site',
    '```',
  ].join('\n');
  assert.deepEqual(fenceTexts(page), [
    { path: 'docs/a.md', text: 'scenario=seed-gc-pause fencing=token' },
    { path: 'b.rst', text: 'fencing=token\nid: mine\n\ntitle: t' },
    { path: 'c.html', text: 'title: a <b> & c' },
  ]);
  assert.throws(() => fenceTexts('<!-- recipe-file: a.md -->\n````md\n```leaselab\nx\n````'), /never closed/);
});

test('fenceParts: a line of settings, a scenario of its own, or both; the id and fencing it stands for', () => {
  assert.deepEqual(fenceParts('scenario=etcd-lease-pause fencing=token controls=ttl,pause'), {
    attrs: { scenario: 'etcd-lease-pause', fencing: 'token', controls: 'ttl,pause' },
    scenario: null,
    id: 'etcd-lease-pause',
    policy: 'token',
  });
  assert.deepEqual(fenceParts('ttl="2 s"'), { attrs: { ttl: '2 s' }, scenario: null, id: 'seed-gc-pause', policy: 'none' });
  const own = fenceParts(OWN);
  assert.deepEqual([own.attrs, own.scenario, own.id, own.policy], [{}, OWN, 'mine', 'none']);
  const both = fenceParts(`fencing=token\n${OWN}`);
  assert.deepEqual([both.attrs, both.scenario, both.id, both.policy], [{ fencing: 'token' }, `\n${OWN}`, 'mine', 'token']);
  // A first line that is not all settings is the scenario's.
  assert.equal(fenceParts('# fencing=token here\nid: x').attrs.fencing, undefined);
});

test('fenceParts reads a fence as www/fence.js does (its own code, so a change to the rule shows here)', () => {
  const texts = [
    'scenario=etcd-lease-pause fencing=token controls=ttl,pause',
    `fencing=token\n${OWN}`,
    OWN,
    '\n\n  ttl="2 s" pause=\'1s\'\nid: x',
    'scenario=x fencing',
    '# scenario=x\nid: y',
    'class=x onclick=y ttl=1s',
    'ttl=1s  \nid: x',
    '',
  ];
  for (const text of texts) {
    const ours = fenceParts(text);
    const core = splitFence(text);
    assert.deepEqual(ours.attrs, Object.fromEntries([...core.attrs, ...core.refused.map((n) => [n, ours.attrs[n]])]), JSON.stringify(text));
    assert.equal(ours.scenario, core.scenario, JSON.stringify(text));
  }
});

test('runArgs: the catalogue scenario or the file, and only the settings `leaselab run` has', () => {
  assert.deepEqual(runArgs(fenceParts('scenario=etcd-lease-pause fencing=token ttl=2s pause=5s controls=ttl'), 'F'), [
    'run', '--scenario', 'etcd-lease-pause', '--ttl', '2s', '--pause', '5s', '--fencing', 'token',
  ]);
  assert.deepEqual(runArgs(fenceParts(`fencing=token\n${OWN}`), 'F'), ['run', '--file', 'F', '--fencing', 'token']);
});

test('cliVerdict: what leaselab run says, for a catalogue fence and one of its own', { skip: !existsSync(CLI) && 'no target/release/leaselab' }, () => {
  assert.equal(cliVerdict(fenceParts('scenario=seed-gc-pause fencing=none')), 'lost-update');
  assert.equal(cliVerdict(fenceParts('scenario=seed-gc-pause fencing=token')), 'safe');
  assert.equal(cliVerdict(fenceParts(OWN)), 'lost-update');
  assert.equal(cliVerdict(fenceParts(`fencing=token\n${OWN}`)), 'safe');
  assert.throws(() => cliVerdict(fenceParts('id: broken\nservice: nonsense')), /exit 2/);
});

test('every site.json fence entry names exactly one fence of its recipe page, and each page has a catalogue and an own one', { skip: !existsSync(CLI) && 'no target/release/leaselab' }, () => {
  const recipes = join(ROOT, 'tools', 'recipes');
  for (const tool of readdirSync(recipes, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
    const pages = resolveFences(tool, readSite(tool).perPage);
    pages.forEach((list, i) => {
      const fences = list.filter((e) => e.fence !== undefined);
      assert.ok(fences.some((e) => e.own), `${tool}: page ${i + 1} has a fence with a scenario of its own`);
      assert.ok(fences.some((e) => !e.own), `${tool}: page ${i + 1} has a catalogue fence`);
      for (const e of fences) assert.ok(['lost-update', 'safe'].includes(e.outcome), `${tool}: ${e.fence}/${e.policy} judged`);
    });
  }
});
