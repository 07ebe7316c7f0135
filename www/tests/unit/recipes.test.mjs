// The docs recipes' plumbing, without building anything: tools/recipes/extract.mjs takes exactly the
// marked code blocks of a recipe page (and refuses malformed ones), every recipe page yields its site's
// files, and every tools/recipes/TOOL/site.json is one check.mjs accepts. `make test-recipes` builds and
// checks the sites themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recipeFiles } from '../../../tools/recipes/extract.mjs';
import { readSite, skippedTransition } from '../../../tools/recipes/check.mjs';
import { ROOT } from '../helpers.mjs';

const RECIPES = join(ROOT, 'tools', 'recipes');
const DOCS = join(ROOT, 'docs', 'recipes');

test('extract: the marked blocks only, in order, with their exact text (longer fences and ~~~ too)', () => {
  const page = [
    '# A recipe',
    '```sh',
    'not a file: no marker',
    '```',
    '<!-- recipe-file: site/index.md -->',
    '````markdown',
    '# Page',
    '```html',
    '<lease-lab></lease-lab>',
    '```',
    '````',
    'prose',
    '<!--recipe-file:conf.py-->',
    '~~~python',
    'x = 1',
    '~~~',
  ].join('\n');
  assert.deepEqual(
    recipeFiles(page).map(({ path, text }) => ({ path, text })),
    [
      { path: 'site/index.md', text: '# Page\n```html\n<lease-lab></lease-lab>\n```\n' },
      { path: 'conf.py', text: 'x = 1\n' },
    ],
  );
});

test('extract: a marker without a block, an unclosed block, a path twice or outside the site is an error naming the line', () => {
  assert.throws(() => recipeFiles('text only'), /no <!-- recipe-file/);
  assert.throws(() => recipeFiles('<!-- recipe-file: a.html -->\n\n```html\nx\n```'), /line 1: .*followed at once/);
  assert.throws(() => recipeFiles('<!-- recipe-file: a.html -->\n```html\nx'), /line 2: .*never closed/);
  const twice = '<!-- recipe-file: a.html -->\n```\nx\n```\n<!-- recipe-file: ./a.html -->\n```\ny\n```';
  assert.throws(() => recipeFiles(twice), /line 5: .*twice/);
  for (const bad of ['../x', '/etc/x', 'a/../../x']) {
    assert.throws(() => recipeFiles(`<!-- recipe-file: ${bad} -->\n\`\`\`\nx\n\`\`\``), /must be relative/, bad);
  }
});

test('every recipe has its page, the page yields files, and its site.json is well formed', () => {
  const tools = readdirSync(RECIPES, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  assert.ok(tools.includes('plain-html'), 'the plain-HTML recipe is there');
  for (const tool of tools) {
    assert.ok(existsSync(join(RECIPES, tool, 'build.sh')), `${tool}: build.sh`);
    const page = join(DOCS, `${tool}.md`);
    assert.ok(existsSync(page), `${tool}: docs/recipes/${tool}.md`);
    assert.ok(recipeFiles(readFileSync(page, 'utf8')).length > 0, `${tool}: files in its page`);
    const site = readSite(tool);
    assert.equal(site.perPage.length, 2, `${tool}: embeds for two pages`);
  }
  const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
  for (const tool of tools) assert.match(index, new RegExp(`\\(${tool}\\.md\\)`), `docs/recipes/README.md links ${tool}.md`);
});

test('each recipe page names the versions its build.sh pins (and the index names them too)', () => {
  const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
  for (const tool of readdirSync(RECIPES, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
    const build = readFileSync(join(RECIPES, tool, 'build.sh'), 'utf8');
    const page = readFileSync(join(DOCS, `${tool}.md`), 'utf8');
    for (const [, name, v] of build.matchAll(/^(\w*version)=([\d.]+)$/gm)) {
      assert.ok(page.includes(v), `${tool}: build.sh's ${name}=${v} is in docs/recipes/${tool}.md`);
      if (name !== 'min_version') assert.ok(index.includes(v), `${tool}: ${v} is in docs/recipes/README.md`);
    }
  }
});

test('site.json mistakes read as such', () => {
  assert.throws(() => readSite('no-such-tool'), /site\.json/);
});

test('only a view transition Chromium skipped is let through as a note; every other page error fails', () => {
  assert.ok(skippedTransition('Transition was aborted because of timeout in DOM update. DOM update timed out'));
  assert.ok(!skippedTransition('Transition was skipped'));
  assert.ok(!skippedTransition('TypeError: x is undefined (Transition was aborted because of timeout in DOM update)'));
  assert.ok(!skippedTransition("Cannot read properties of null (reading 'shadowRoot')"));
});
