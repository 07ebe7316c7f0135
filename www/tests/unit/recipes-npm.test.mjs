// The npm-installed recipes (Docusaurus, VitePress, Starlight; markdown-it, marked), without installing anything: the
// lockfile next to each build.sh is the one for its page's package.json (else `npm ci` in
// `make test-recipes` fails late, on a version a writer bumped in the page), every version is pinned
// exactly, and the pages keep out what the recipes say these tools refuse: a <script> in Markdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recipeFiles } from '../../../tools/recipes/extract.mjs';
import { ROOT } from '../helpers.mjs';

const NPM_TOOLS = ['docusaurus', 'vitepress', 'starlight', 'markdown-it', 'marked'];
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

const filesOf = (tool) => recipeFiles(readFileSync(join(ROOT, 'docs', 'recipes', `${tool}.md`), 'utf8'));

for (const tool of NPM_TOOLS) {
  test(`${tool}: the page's package.json is the lockfile's, every version exact`, () => {
    const pkgFile = filesOf(tool).find((f) => f.path === 'package.json');
    assert.ok(pkgFile, `docs/recipes/${tool}.md has a package.json block`);
    const pkg = JSON.parse(pkgFile.text);
    const lock = JSON.parse(readFileSync(join(ROOT, 'tools', 'recipes', tool, 'package-lock.json'), 'utf8'));
    const root = lock.packages[''];
    const regenerate = `regenerate tools/recipes/${tool}/package-lock.json: npm install --package-lock-only in a folder with the page's package.json`;
    for (const field of ['dependencies', 'devDependencies']) {
      assert.deepEqual(root[field] ?? {}, pkg[field] ?? {}, `${field} differ; ${regenerate}`);
      for (const [name, version] of Object.entries(pkg[field] ?? {})) {
        assert.match(version, EXACT_VERSION, `${name}@${version} is a range: pin one version`);
        assert.equal(lock.packages[`node_modules/${name}`]?.version, version, `${name}: the lockfile installs ${version}`);
      }
    }
  });

  test(`${tool}: no <script> in the Markdown pages (the element loads once, from the site's config)`, () => {
    const pages = filesOf(tool).filter((f) => /\.mdx?$/.test(f.path));
    assert.ok(pages.length >= 2, 'two pages with labs');
    for (const page of pages) {
      assert.doesNotMatch(page.text, /<script/i, `${page.path} holds a <script>`);
      const fences = (page.text.match(/^```leaselab$/gm) || []).length;
      const tags = (page.text.match(/<lease-lab\b/g) || []).length;
      assert.ok(fences >= 2 && fences + tags >= 2, `${page.path}: two fences at least (a catalogue one and one of its own), then any tags`);
    }
  });
}
