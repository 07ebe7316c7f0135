// Flattens the built pages' import waterfall, from the real module graph of dist/ (after minify), so it
// stays right however the modules are split — no hand-kept lists. For every HTML file:
//   - a <link rel="modulepreload"> for each module its module scripts import, however deep, so the
//     browser fetches them all at once instead of one level of imports per round trip;
//   - a <link rel="preload"> for what those modules fetch by a literal `new URL("…", import.meta.url)`:
//     the wasm (wasm-bindgen's glue), the scenario texts (JSON), the element's stylesheet — fetched in
//     parallel with the JavaScript that needs them, not after it has run.
// And every module that a page loads as an entry (lease-lab.js on a host's page, where no preload links
// can be added) gets its whole static graph as extra bare imports, so the browser learns of every module
// when that one file arrives. They come after the module's own imports: evaluation order is unchanged.
// Usage: node tools/preload.mjs dist
import { readdir, readFile, writeFile, stat } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';

/** Static imports and re-exports of a module, readable or minified; `import(` (on demand) is not one. */
export function staticImports(code) {
  const re = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
  return [...code.matchAll(re)].map((m) => m[1]);
}

/**
 * What a module fetches by a literal URL, which it fetches only when a reader comes to it, so that a
 * preload would put it on every first load: the About section's English sources (www/view.js).
 */
const ON_DEMAND = new Set(['pkg/sources.en.json']);

/** What a module fetches by a literal URL relative to itself, when worth preloading (wasm, JSON, CSS). */
export function fetchedAssets(code) {
  const re = /new URL\(\s*["'`]([^"'`$]+\.(wasm|json|css))["'`]\s*,\s*import\.meta\.url\s*\)/g;
  return [...code.matchAll(re)].map((m) => ({ path: m[1], kind: m[2] })).filter((a) => !ON_DEMAND.has(a.path));
}

const isLocal = (spec) => spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('/');

/**
 * The static module graph under `root` from the entries (paths relative to root, posix), breadth first:
 * { modules: [path], assets: [{path, kind}] }. A missing import fails the build: better than a page
 * whose preload list silently points nowhere.
 */
export async function moduleGraph(root, entries) {
  const seen = new Set();
  const modules = [];
  const assets = new Map();
  let todo = [...entries];
  while (todo.length) {
    const next = [];
    for (const m of todo) {
      if (seen.has(m)) continue;
      seen.add(m);
      modules.push(m);
      const code = await readFile(join(root, m), 'utf8').catch(() => {
        throw new Error(`preload: ${m} is imported but missing from ${root}`);
      });
      for (const spec of staticImports(code)) if (isLocal(spec)) next.push(resolveFrom(m, spec));
      for (const a of fetchedAssets(code)) {
        const path = resolveFrom(m, a.path);
        await stat(join(root, path)).catch(() => {
          throw new Error(`preload: ${m} fetches ${a.path}, missing from ${root}`);
        });
        assets.set(path, a.kind);
      }
    }
    todo = next;
  }
  return { modules, assets: [...assets].map(([path, kind]) => ({ path, kind })) };
}

/** `spec` as imported by module `from`, as a path relative to the root (a leading / is the root). */
function resolveFrom(from, spec) {
  return spec.startsWith('/') ? spec.slice(1) : posix.normalize(posix.join(posix.dirname(from), spec));
}

/** The module scripts of an HTML file that it serves itself (not another origin's), as paths from the root. */
function moduleEntries(html, file) {
  const tags = html.match(/<script\b[^>]*>/g) || [];
  return tags
    .filter((t) => /\btype="module"/.test(t))
    .map((t) => (/\bsrc="([^"]+)"/.exec(t) || [])[1])
    .filter((src) => src && !/^([a-z][\w+.-]*:|\/\/)/i.test(src))
    .map((src) => resolveFrom(file, src.startsWith('/') ? src : `./${src}`));
}

/** The preload links for one page: the wasm first (the largest, needed first), then data, then modules. */
function preloadLinks(file, graph, entries) {
  const href = (p) => posix.relative(posix.dirname(file), p) || p;
  const order = { wasm: 0, json: 1, css: 2 };
  const assets = [...graph.assets].sort((a, b) => order[a.kind] - order[b.kind]);
  const links = assets.map((a) =>
    a.kind === 'css'
      ? `<link rel="preload" href="${href(a.path)}" as="style">`
      : // crossorigin: fetch() asks in CORS mode, and a preload is only reused by a request made the same way.
        `<link rel="preload" href="${href(a.path)}" as="fetch" type="${a.kind === 'wasm' ? 'application/wasm' : 'application/json'}" crossorigin>`,
  );
  for (const m of graph.modules) if (!entries.includes(m)) links.push(`<link rel="modulepreload" href="${href(m)}">`);
  return links;
}

async function* htmlFiles(root, dir = root) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* htmlFiles(root, p);
    else if (e.name.endsWith('.html')) yield relative(root, p).split(sep).join('/');
  }
}

/** Adds the links to every page and the bare imports to every entry module; returns what it did. */
export async function flatten(root) {
  const report = [];
  const entryModules = new Set();
  for await (const file of htmlFiles(root)) {
    let html = await readFile(join(root, file), 'utf8');
    const entries = [...new Set(moduleEntries(html, file))];
    if (!entries.length) continue;
    entries.forEach((e) => entryModules.add(e));
    const graph = await moduleGraph(root, entries);
    const links = preloadLinks(file, graph, entries).filter((l) => !html.includes(l.match(/href="[^"]+"/)[0]));
    if (!links.length) continue; // run twice, or a page that links everything itself
    if (!html.includes('</head>')) throw new Error(`preload: ${file} has no </head>`);
    html = html.replace('</head>', `<!-- Generated by tools/preload.mjs from the module graph: fetch it all at once. -->\n${links.join('\n')}\n</head>`);
    await writeFile(join(root, file), html);
    report.push(`${file}: ${links.length} preloads`);
  }
  for (const m of entryModules) {
    const graph = await moduleGraph(root, [m]);
    const code = await readFile(join(root, m), 'utf8');
    const own = new Set(staticImports(code).filter(isLocal).map((s) => resolveFrom(m, s)));
    const extra = graph.modules.slice(1).filter((p) => !own.has(p));
    if (!extra.length) continue;
    const rel = (p) => {
      const r = posix.relative(posix.dirname(m), p);
      return r.startsWith('.') ? r : `./${r}`;
    };
    await writeFile(join(root, m), `${code}\n${extra.map((p) => `import"${rel(p)}";`).join('')}\n`);
    report.push(`${m}: ${extra.length} hoisted imports`);
  }
  return report;
}

if (process.argv[1] && process.argv[1].endsWith('preload.mjs')) {
  const root = process.argv[2];
  if (!root) {
    console.error('usage: node tools/preload.mjs DIR');
    process.exit(2);
  }
  for (const line of await flatten(root)) console.log(`preload: ${line}`);
}
