// Minifies the built page's JavaScript in place (dist/ only; www/ keeps the readable source), one
// module at a time: no bundling, the same files and imports, names of exports kept. Usage:
//   node tools/minify.mjs dist
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
    else if (e.name.endsWith('.js')) yield p;
  }
}

let before = 0;
let after = 0;
for await (const f of files(root)) {
  const src = await readFile(f, 'utf8');
  const out = await minify(src, { module: true, ecma: 2022, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  if (typeof out.code !== 'string') throw new Error(`minify: no output for ${f}`);
  await writeFile(f, out.code);
  before += src.length;
  after += out.code.length;
}
console.log(`minify: ${before} → ${after} bytes of JavaScript`);
