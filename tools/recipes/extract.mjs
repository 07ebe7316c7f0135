#!/usr/bin/env node
// Writes a recipe's minimal site from the recipe page itself, so the page a writer copies from is the
// page `make test-recipes` builds and checks. A file of the site is a fenced code block right after a
// line `<!-- recipe-file: RELATIVE/PATH -->` (the comment is invisible where the Markdown is rendered).
//
//   node tools/recipes/extract.mjs docs/recipes/TOOL.md OUT_DIR
//
// Writes each block to OUT_DIR/PATH and lists the paths on stderr. Exit 1 on a page with no such
// blocks, a marker not followed by a fence, an unclosed fence, a path twice, or a path that leaves OUT_DIR.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MARKER = /^<!--\s*recipe-file:\s*(\S+)\s*-->\s*$/;
const FENCE_OPEN = /^(`{3,}|~{3,})[^`]*$/;

/** A site path as written in a marker: relative, inside the site, no `..`; else an Error. */
function checkedPath(path, lineNo) {
  const norm = normalize(path);
  if (isAbsolute(path) || norm.startsWith('..') || norm.split(sep).includes('..') || path.includes('\\')) {
    throw new Error(`line ${lineNo}: recipe-file path "${path}" must be relative and stay inside the site`);
  }
  return norm;
}

/**
 * The files a recipe page defines: [{ path, text, line }] in page order. `text` is the block's content
 * with a final newline. Throws an Error naming the line for anything malformed.
 */
export function recipeFiles(markdown) {
  const lines = markdown.split(/\r?\n/);
  const files = [];
  const seen = new Set();
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i]);
    if (!m) continue;
    const path = checkedPath(m[1], i + 1);
    if (seen.has(path)) throw new Error(`line ${i + 1}: recipe-file "${path}" appears twice`);
    seen.add(path);
    const open = FENCE_OPEN.exec(lines[i + 1] ?? '');
    if (!open) throw new Error(`line ${i + 1}: recipe-file "${path}" must be followed at once by a fenced code block`);
    // A fence closes with the same character, at least as long (CommonMark), and nothing else on the line.
    const fence = open[1];
    const close = new RegExp(`^${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const end = lines.findIndex((l, j) => j > i + 1 && close.test(l));
    if (end < 0) throw new Error(`line ${i + 2}: the code block of "${path}" is never closed`);
    files.push({ path, text: `${lines.slice(i + 2, end).join('\n')}\n`, line: i + 1 });
    i = end;
  }
  if (files.length === 0) throw new Error('no <!-- recipe-file: PATH --> blocks in this page');
  return files;
}

/** Writes the page's files under outDir; returns their paths. */
export function extract(recipePath, outDir) {
  const files = recipeFiles(readFileSync(recipePath, 'utf8'));
  const root = resolve(outDir);
  for (const f of files) {
    const target = join(root, f.path);
    if (!target.startsWith(root + sep)) throw new Error(`recipe-file "${f.path}" leaves ${outDir}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, f.text);
  }
  return files.map((f) => f.path);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [recipe, out] = process.argv.slice(2);
  if (!recipe || !out) {
    console.error('usage: node tools/recipes/extract.mjs docs/recipes/TOOL.md OUT_DIR');
    process.exit(2);
  }
  try {
    for (const p of extract(recipe, out)) console.error(`extract: ${p}`);
  } catch (e) {
    console.error(`extract: ${recipe}: ${e.message}`);
    process.exit(1);
  }
}
