#!/usr/bin/env node
// The lab's no-JS fallback, made from the current build (run by tools/build-web.sh after dist/ is
// assembled; no browser needed):
//   - every picture an HTML file in dist/ asks for as fallback/<scenario>-<policy>.svg is that run,
//     drawn by www/diagram.js into a minimal DOM at FALLBACK_WIDTH, with www/style.css's light-theme
//     rules resolved into SVG presentation attributes, so the file stands alone (as an <img>, under any
//     CSP, in any page's styles);
//   - every <pre data-transcript="<scenario> <policy>"></pre> in those files gets that run's transcript.
//
//   node tools/fallback.mjs [dist]
import { readFile, writeFile, mkdir, readdir } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const WWW = join(ROOT, 'www');
const DIST = process.argv[2] || join(ROOT, 'dist');
/** The width the pictures are drawn at (the test draws at the same width to compare). */
export const FALLBACK_WIDTH = 960;

// ---------- A DOM just large enough for drawDiagram

class Node {
  constructor(name) {
    this.name = name;
    this.attrs = new Map();
    this.children = [];
    this.text = null;
    const cls = () => new Set((this.attrs.get('class') || '').split(/\s+/).filter(Boolean));
    const setCls = (s) => this.attrs.set('class', [...s].join(' '));
    this.classList = {
      add: (c) => setCls(cls().add(c)),
      remove: (c) => {
        const s = cls();
        s.delete(c);
        setCls(s);
      },
      toggle: (c, on) => ((on ?? !cls().has(c)) ? this.classList.add(c) : this.classList.remove(c)),
      contains: (c) => cls().has(c),
    };
  }
  setAttribute(k, v) {
    this.attrs.set(k, String(v));
  }
  getAttribute(k) {
    return this.attrs.has(k) ? this.attrs.get(k) : null;
  }
  appendChild(c) {
    this.children.push(c);
    return c;
  }
  insertBefore(c, ref) {
    const i = this.children.indexOf(ref);
    this.children.splice(i < 0 ? this.children.length : i, 0, c);
    return c;
  }
  replaceChildren() {
    this.children = [];
  }
  set textContent(t) {
    this.text = String(t);
    this.children = [];
  }
}

const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
function serialize(n) {
  const attrs = [...n.attrs].map(([k, v]) => ` ${k}="${xml(v)}"`).join('');
  const inner = n.text !== null ? xml(n.text) : n.children.map(serialize).join('');
  return inner ? `<${n.name}${attrs}>${inner}</${n.name}>` : `<${n.name}${attrs}/>`;
}

// ---------- style.css → presentation attributes

/** Top-level rules of a stylesheet (at-rule blocks such as @media are left out: the light theme). */
function topLevelRules(css) {
  css = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules = [];
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    if (open < 0) break;
    const prelude = css.slice(i, open).trim();
    // Find the matching close brace (at-rules nest).
    let depth = 1;
    let j = open + 1;
    for (; j < css.length && depth; j++) depth += css[j] === '{' ? 1 : css[j] === '}' ? -1 : 0;
    if (!prelude.startsWith('@')) {
      const decls = css
        .slice(open + 1, j - 1)
        .split(';')
        .map((d) => d.trim())
        .filter(Boolean)
        .map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]);
      rules.push({ selectors: prelude.split(',').map((s) => s.trim()), decls });
    }
    i = j;
  }
  return rules;
}

const PRESENTATION = new Set(['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-linejoin', 'opacity', 'display', 'font-weight', 'font-style', 'font-size', 'font-family', 'paint-order']);

function styler(css) {
  const rules = topLevelRules(css);
  const vars = {};
  for (const r of rules) if (r.selectors.includes(':root')) for (const [k, v] of r.decls) if (k.startsWith('--')) vars[k] = v;
  const resolve = (v, depth = 0) =>
    depth > 8 ? v : v.replace(/var\((--[\w-]+)\s*(?:,\s*((?:[^()]|\([^()]*\))*))?\)/g, (_, name, fb) => resolve(vars[name] ?? fb ?? '', depth + 1));
  // Only selectors an SVG element can match on its own: classes (compound), or the element name.
  const simple = [];
  rules.forEach((r, order) => {
    for (const s of r.selectors) {
      if (/^(\.[\w-]+)+$/.test(s)) simple.push({ classes: s.slice(1).split('.'), spec: s.split('.').length - 1, order, decls: r.decls });
      else if (/^[a-z]+$/.test(s)) simple.push({ tag: s, classes: [], spec: 0, order, decls: r.decls });
    }
  });
  return function apply(n) {
    const cls = new Set((n.getAttribute('class') || '').split(/\s+/).filter(Boolean));
    const hits = simple
      .filter((m) => (m.tag ? m.tag === n.name : m.classes.every((c) => cls.has(c))))
      .sort((a, b) => a.spec - b.spec || a.order - b.order);
    for (const m of hits) for (const [k, v] of m.decls) if (PRESENTATION.has(k)) n.setAttribute(k, resolve(v).replace(/\s*!important$/, ''));
    n.attrs.delete('class');
    for (const c of n.children) apply(c);
  };
}

// ---------- Runs

async function main() {
  const pkg = await import(pathToFileURL(join(WWW, 'pkg', 'leaselab.js')).href);
  await pkg.default({ module_or_path: await readFile(join(WWW, 'pkg', 'leaselab_bg.wasm')) });
  globalThis.document = { createElementNS: (_, name) => new Node(name) };
  const { drawDiagram } = await import(pathToFileURL(join(WWW, 'diagram.js')).href);
  const { loadLang, numberFormat } = await import(pathToFileURL(join(WWW, 'i18n.js')).href);
  const d = await loadLang('en');
  const num = numberFormat('en'); // the lab's

  const style = styler(await readFile(join(WWW, 'style.css'), 'utf8'));
  const policies = pkg.policies().split(',');

  const runOf = (id, policy) => {
    if (!policies.includes(policy)) throw new Error(`fallback: unknown policy ${policy}`);
    const sim = new pkg.Simulation(id); // throws for an unknown scenario
    sim.setPolicy(policy);
    const run = JSON.parse(sim.runJson());
    sim.free();
    return run;
  };

  const htmlFiles = [];
  const walk = async (dir) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(dir, e.name));
      else if (e.name.endsWith('.html')) htmlFiles.push(join(dir, e.name));
    }
  };
  await walk(DIST);

  const pictures = new Set();
  const policyAlt = policies.map((p) => p.replace(/-/g, '\\-')).join('|');
  for (const file of htmlFiles) {
    let html = await readFile(file, 'utf8');
    for (const m of html.matchAll(new RegExp(`fallback/([a-z0-9-]+?)-(${policyAlt})\\.svg`, 'g'))) pictures.add(`${m[1]} ${m[2]}`);
    const filled = html.replace(/<pre data-transcript="([a-z0-9-]+) ([a-z-]+)">[^<]*<\/pre>/g, (_, id, policy) => {
      const run = runOf(id, policy);
      return `<pre data-transcript="${id} ${policy}">${xml(run.transcript.join('\n'))}</pre>`;
    });
    if (filled !== html) await writeFile(file, filled);
  }

  await mkdir(join(DIST, 'fallback'), { recursive: true });
  for (const key of pictures) {
    const [id, policy] = key.split(' ');
    const run = runOf(id, policy);
    const svg = new Node('svg');
    drawDiagram(svg, run, { width: FALLBACK_WIDTH, d, num, lang: 'en' }).setTime(Infinity);
    style(svg);
    const [, , w, h] = svg.getAttribute('viewBox').split(' ');
    svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    const bg = new Node('rect');
    for (const [k, v] of Object.entries({ width: '100%', height: '100%', fill: '#fff' })) bg.setAttribute(k, v);
    svg.insertBefore(bg, svg.children.find((c) => c.name === 'defs'));
    await writeFile(join(DIST, 'fallback', `${id}-${policy}.svg`), `${serialize(svg)}\n`);
  }
  console.log(`fallback: ${pictures.size} picture(s) in ${join(DIST, 'fallback')}, transcripts in ${htmlFiles.length} HTML file(s)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e) => {
    console.error(`fallback: ${e.message}`);
    process.exit(1);
  });
}
