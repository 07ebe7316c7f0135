// The ```leaselab fences a recipe's site holds, read from the recipe page's own files (extract.mjs), so
// check.mjs can hold each lab on the built page to the text the writer typed: the text must survive in
// the page, and its verdict is what `leaselab run` gives for that same text. Three spellings, one per
// kind of source file a recipe has:
//   Markdown     ```leaselab … ```  (or ~~~, or a longer fence)
//   reStructuredText   .. code-block:: leaselab   then the indented lines
//   HTML         <pre><code class="language-leaselab">…</code></pre>   (entities decoded)
// A fence's meaning (attributes or a scenario of one's own) is www/fence.js's rule; `fenceParts` below
// applies the same rule to say which `leaselab run` a fence stands for.
import { recipeFiles } from './extract.mjs';

const MD_OPEN = /^(\s*)(`{3,}|~{3,})\s*leaselab\s*$/;
const RST_OPEN = /^(\s*)\.\. (?:code-block|code|sourcecode):: leaselab\s*$/;
const HTML_BLOCK = /<pre>\s*<code class="language-leaselab">([\s\S]*?)<\/code>\s*<\/pre>/g;
const ENTITIES = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };

/** The Markdown fences of `lines`: the text between ```leaselab and the fence that closes it. */
function markdownFences(lines) {
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const m = MD_OPEN.exec(lines[i]);
    if (!m) continue;
    const close = new RegExp(`^\\s*${m[2][0] === '`' ? '`' : '~'}{${m[2].length},}\\s*$`);
    const end = lines.findIndex((l, j) => j > i && close.test(l));
    if (end < 0) throw new Error(`a \`\`\`leaselab fence at line ${i + 1} is never closed`);
    const indent = m[1].length;
    out.push(lines.slice(i + 1, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n'));
    i = end;
  }
  return out;
}

/** The rst code blocks of `lines`: the lines indented under `.. code-block:: leaselab`, dedented. */
function rstFences(lines) {
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const m = RST_OPEN.exec(lines[i]);
    if (!m) continue;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === '') j++;
    const body = [];
    for (; j < lines.length && (lines[j].trim() === '' || lines[j].length - lines[j].trimStart().length > m[1].length); j++) body.push(lines[j]);
    while (body.length && body.at(-1).trim() === '') body.pop();
    const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
    out.push(body.map((l) => l.slice(indent)).join('\n'));
    i = j - 1;
  }
  return out;
}

/** The HTML blocks of `text`, their entities decoded (as the browser's textContent reads them). */
function htmlFences(text) {
  return [...text.matchAll(HTML_BLOCK)].map((m) => m[1].replace(/&(lt|gt|amp|quot|#39);/g, (e) => ENTITIES[e]).replace(/\n$/, ''));
}

/** Every fence in the recipe page's site files, in page order: [{ path, text }]. */
export function fenceTexts(markdown) {
  const found = [];
  for (const { path, text } of recipeFiles(markdown)) {
    const lines = text.split('\n');
    const texts = /\.html?$/.test(path) ? htmlFences(text) : /\.rst$/.test(path) ? rstFences(lines) : markdownFences(lines);
    for (const t of texts) found.push({ path, text: t });
  }
  return found;
}

/** `name=value` words filling a whole line (values bare or quoted), as www/fence.js reads them; else null. */
function attributeLine(line) {
  const words = [...line.matchAll(/\s*([a-z][a-z0-9_-]*)=(?:"([^"]*)"|'([^']*)'|([^\s"']*))(?=\s|$)/g)];
  const rebuilt = words.map((w) => w[0]).join('');
  return words.length && rebuilt.trim() === line.trim() ? Object.fromEntries(words.map((w) => [w[1], w[2] ?? w[3] ?? w[4]])) : null;
}

/**
 * What a fence says: `attrs` from a first line of `name=value` words, and `scenario`, the rest of the
 * text when it holds a scenario of one's own (null otherwise); `id` is the catalogue scenario it names
 * or its own scenario's `id:`, and `policy` the fencing the lab starts with (the element's default: none).
 */
export function fenceParts(text) {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const attrs = (first >= 0 && attributeLine(lines[first])) || {};
  const rest = Object.keys(attrs).length ? lines.map((l, i) => (i === first ? '' : l)).join('\n') : text;
  const scenario = rest.trim() ? rest : null;
  const ownId = scenario && /^\s*id:\s*(\S+)\s*$/m.exec(scenario)?.[1];
  return { attrs, scenario, id: scenario ? ownId || null : attrs.scenario || 'seed-gc-pause', policy: attrs.fencing || 'none' };
}
