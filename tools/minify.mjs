// Minifies the built page's JavaScript in place (dist/ only; www/ keeps the readable source), one
// module at a time: no bundling, the same files and imports, names of exports kept; and its stylesheets,
// conservatively (comments and spacing only: a fifth off style.css gzipped). Usage:
//   node tools/minify.mjs dist
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { minify } from '../www/node_modules/terser/main.js';

const root = process.argv[2];
if (!root) {
  console.error('usage: node tools/minify.mjs DIR');
  process.exit(2);
}

async function* files(dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (e.name.endsWith('.js') || e.name.endsWith('.css')) yield p;
  }
}

/**
 * Drops comments and the spacing around { } ; , — nothing else: spaces around : + > ~ can be selector
 * combinators or calc() operands. No string in our stylesheets holds a comment, brace or run of spaces.
 */
function minifyCss(src) {
  return src
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();
}

const CLASSIC_SCRIPTS = new Set(['lease-lab-frame.js']);

let before = 0;
let after = 0;
for await (const f of files(root)) {
  const src = await readFile(f, 'utf8');
  if (f.endsWith('.css')) {
    const css = minifyCss(src);
    await writeFile(f, css);
    before += src.length;
    after += css.length;
    continue;
  }
  // A classic script (lease-lab-frame.js, for hosts' plain <script src>) must not be minified as a
  // module: terser would take its top level for module scope.
  const module = !CLASSIC_SCRIPTS.has(basename(f));
  const out = await minify(src, { module, ecma: 2022, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  if (typeof out.code !== 'string') throw new Error(`minify: no output for ${f}`);
  await writeFile(f, out.code);
  before += src.length;
  after += out.code.length;
}
console.log(`minify: ${before} → ${after} bytes of JavaScript and CSS`);
