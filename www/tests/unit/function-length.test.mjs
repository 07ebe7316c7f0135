// Functions stay short enough to read in one screen: at most 120 lines of code in the page's modules,
// their tests and the tools (the Rust side's limit, 80, is clippy's: clippy.toml). Lines count as clippy
// counts them: a line with code on it, not a blank or comment-only one; a function nested in another
// counts in its parent too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';

const MAX_LINES = 120;
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every function in `source` with more than `max` lines of code, as `{ line, lines }`. */
function longFunctions(source, max = MAX_LINES) {
  const code = new Set(); // the lines a token lies on (a template literal's every line)
  const functions = [];
  const ast = parse(source, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    locations: true,
    allowHashBang: true,
    onToken: (t) => {
      for (let l = t.loc.start.line; l <= t.loc.end.line; l++) code.add(l);
    },
  });
  const walk = (node) => {
    if (node.type.includes('Function')) functions.push(node.loc);
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (typeof child?.type === 'string') walk(child);
      }
    }
  };
  walk(ast);
  return functions
    .map(({ start, end }) => {
      let lines = 0;
      for (let l = start.line; l <= end.line; l++) lines += code.has(l) ? 1 : 0;
      return { line: start.line, lines };
    })
    .filter((f) => f.lines > max);
}

/** The project's JavaScript, as git tracks it (no dependencies, no build output). */
function trackedScripts() {
  const out = execFileSync('git', ['ls-files', '*.js', '*.mjs'], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

test('no function of the page, its tests or the tools is longer than 120 lines of code', () => {
  const files = trackedScripts();
  assert.ok(files.includes('www/view.js') && files.length > 50, `found only ${files.length} files`);
  const long = files.flatMap((file) =>
    longFunctions(readFileSync(ROOT + file, 'utf8')).map((f) => `${file}:${f.line}: ${f.lines} lines`),
  );
  assert.deepEqual(long, [], 'split these functions');
});

test('the count is of lines with code: comments and blank lines are free, a template literal is not', () => {
  const body = (n, line) => Array.from({ length: n }, () => line).join('\n');
  const fn = (inner) => `export function f() {\n${inner}\n}\n`;
  // The braces' two lines and 118 statements: 120.
  assert.deepEqual(longFunctions(fn(body(118, '  g();'))), []);
  assert.deepEqual(longFunctions(fn(body(119, '  g();'))), [{ line: 1, lines: 121 }]);
  const commented = `${body(118, '  g();')}\n${body(40, '  // why')}\n\n/* a\n block */`;
  assert.deepEqual(longFunctions(fn(commented)), []);
  const template = `  g();\n  const s = \`${body(119, 'text')}\`;`;
  assert.deepEqual(longFunctions(fn(template)), [{ line: 1, lines: 122 }]);
  // A nested function counts in its parent, and on its own.
  const nested = `  const h = () => {\n${body(119, '    g();')}\n  };`;
  assert.deepEqual(
    longFunctions(fn(nested)).map((f) => f.line),
    [1, 2],
  );
});
