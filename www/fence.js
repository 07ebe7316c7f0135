// A ```leaselab fenced block in Markdown becomes a lab: lease-lab.js loads this module when a page holds
// one (or gets one later: a docs tool's client-side navigation), and each block gets a <lease-lab>
// before it. The block's text is data, read as text (never as markup): a first line of `key=value`
// words gives the element's attributes; any other text, or the lines after such a first line, is a
// scenario of the page's own (docs/scenario-format.md). The block itself is hidden, not removed (a docs
// framework may still own it), and its text goes into the lab as its "source" (a disclosure that prints
// open), so reader mode, print and a page without scripts all keep it. Each block is upgraded once.
//
// The markup of each docs tool's fence (docs/embedding.md, "Write it in Markdown") differs; FENCE_MARKERS
// in lease-lab.js finds them all, and `blockOf` climbs from a marker to the block's outermost wrapper.

/** The attribute a block carries once upgraded, so no later scan takes it again. */
export const UPGRADED = 'data-leaselab-fence';

/**
 * Names a fence may not set: the element's global HTML attributes and event handlers. A fence is text a
 * page may have from anywhere; only the lab's own settings (and a scenario's parameters) are its to set.
 */
const REFUSED = /^(on.*|class|id|style|slot|is|part|exportparts|hidden|inert|tabindex|autofocus|contenteditable|draggable|popover|accesskey|nonce|title|dir|translate|spellcheck|enterkeyhint|inputmode|itemprop|role|aria-.*|data-.*)$/;

/** One `name=value` word: the value bare, or in double or single quotes (then it may hold spaces). */
const WORD = /\s*([a-z][a-z0-9_-]*)=(?:"([^"]*)"|'([^']*)'|([^\s"']*))(?=\s|$)/gy;

/** The words of `line` if the whole line is `name=value` words (at least one), else null. */
export function attributeWords(line) {
  const words = [];
  let end = 0; // where the last word ended (a failed sticky match resets lastIndex to 0)
  WORD.lastIndex = 0;
  for (let m; (m = WORD.exec(line)); end = WORD.lastIndex) words.push([m[1], m[2] ?? m[3] ?? m[4]]);
  return words.length && !line.slice(end).trim() ? words : null;
}

/**
 * A fence's text split into what the lab takes: `attrs` ([name, value] pairs it may set), `refused`
 * (names it may not), and `scenario` — the scenario text, or null when the fence is only attributes. The
 * attribute line is blanked, not cut, in the scenario text, so an error's line number is the fence's.
 */
export function splitFence(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const words = first < 0 ? null : attributeWords(lines[first]);
  if (!words) return { attrs: [], refused: [], scenario: text.trim() ? lines.join('\n') : null };
  const rest = lines.map((l, i) => (i === first ? '' : l)).join('\n');
  const attrs = words.filter(([name]) => !REFUSED.test(name));
  const refused = words.filter(([name]) => REFUSED.test(name)).map(([name]) => name);
  return { attrs, refused, scenario: rest.trim() ? rest : null };
}

/** Elements that hold a line-number gutter or a tool's button, not the code's text. */
const NOT_TEXT = '.linenos, .lineno, .ln, .lnt, .line-numbers-rows, .line-number, button, .copy, .lang, figcaption';

/**
 * The code's text as the writer typed it: text nodes in order, a <br> as a line break (Prism's lines in
 * Docusaurus), a block element inside the code as a line of its own (Expressive Code's lines are divs),
 * gutters and buttons left out. Never innerHTML: the text stays text.
 */
export function readCode(node) {
  let out = '';
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType === 3) out += c.data;
      else if (c.nodeType !== 1 || c.matches(NOT_TEXT)) continue;
      else if (c.localName === 'br') out += '\n';
      else {
        walk(c);
        if (c.localName === 'div' && !out.endsWith('\n')) out += '\n';
      }
    }
  };
  walk(node);
  return out.replace(/\n$/, '');
}

/**
 * Wrappers a docs tool puts round one code block, each holding only that block's <pre>: Sphinx's two
 * divs, Docusaurus's (hashed class names), VitePress's, Expressive Code's figure and div. A writer's own
 * wrapper (a <figure> with a caption) is not one: it stays, with the lab inside it.
 */
const WRAPPERS = '.highlight, .highlight-leaselab, .language-leaselab, [class*="codeBlock"], .expressive-code, .expressive-code > .frame';

/** The block a marker belongs to: its <pre> (or itself), widened to the wrappers around only it. */
export function blockOf(marker) {
  let block = marker.closest('pre') || marker.querySelector('pre') || marker;
  for (let up = block.parentElement; up && up.matches(WRAPPERS) && up.querySelectorAll('pre').length <= 1; up = up.parentElement) {
    block = up;
  }
  return block;
}

/** The element the block's text is read from: its <pre>'s <code>, its <pre>, or the block. */
const codeOf = (block) => block.querySelector('pre code') || block.querySelector('pre') || block;

/**
 * The block's text. Expressive Code (Starlight) keeps the exact text in its copy button's `data-code`,
 * line breaks as U+007F; elsewhere it is read from the code (`readCode`).
 */
function textOf(block) {
  const exact = block.querySelector('[data-code]')?.getAttribute('data-code');
  return exact != null ? exact.replace(/\u007f/g, '\n').replace(/\n$/, '') : readCode(codeOf(block));
}

/** The labs made here, by block: a block that leaves the page takes its lab along (see `tidy`). */
const labs = new Map();

/** The source child: the fence's text in a plain <pre><code>, shown in the lab's "source" disclosure. */
function sourceOf(doc, text) {
  const pre = doc.createElement('pre');
  pre.slot = 'source';
  pre.className = 'leaselab-source';
  const code = pre.appendChild(doc.createElement('code'));
  code.className = 'language-leaselab';
  code.textContent = text;
  return pre;
}

/** A <lease-lab> for the block's text: its attributes set, its scenario given, its source inside. */
export function labFor(doc, text) {
  const { attrs, refused, scenario } = splitFence(text);
  const lab = doc.createElement('lease-lab');
  for (const [name, value] of attrs) lab.setAttribute(name, value);
  lab.fence = { names: attrs.map(([name]) => name), refused, scenario };
  lab.append(sourceOf(doc, text));
  return lab;
}

/** Upgrades one block: hides it (inline style: a tool's CSS may override `hidden`) and puts a lab before it. */
function upgrade(block) {
  block.setAttribute(UPGRADED, '');
  const lab = labFor(block.ownerDocument, textOf(block));
  block.style.setProperty('display', 'none', 'important');
  block.before(lab);
  labs.set(block, lab);
}

/**
 * A framework's hydration or navigation may drop the lab it did not make, or the block with it: a lab
 * whose block left goes too; a block still here whose lab was dropped gets it back (state and all).
 */
function tidy() {
  for (const [block, lab] of labs) {
    if (!block.isConnected) {
      lab.remove();
      labs.delete(block);
    } else if (!lab.isConnected) block.before(lab);
  }
}

/** How long a block waits for its page's framework to hydrate it before it is upgraded anyway. */
const HYDRATION_WAIT_MS = 10_000;
const loadedAt = performance.now();

/**
 * Whether a framework has still to hydrate the block. A lab put in before that is a node the server's
 * markup did not have: React then throws the markup away and renders it again, and Vue patches over
 * it. Docusaurus (React) marks each node it hydrates with a `__reactFiber$…` property; VitePress's
 * Vue app sets its root's `__vue_app__` once mounted. Other tools' pages are not hydrated.
 */
function awaitsHydration(block) {
  if (performance.now() - loadedAt > HYDRATION_WAIT_MS) return false;
  const tool = block.ownerDocument.querySelector('meta[name="generator"]')?.content || '';
  if (tool.startsWith('Docusaurus')) return !Object.keys(block).some((k) => k.startsWith('__reactFiber$'));
  if (tool.startsWith('VitePress')) return !block.ownerDocument.getElementById('app')?.__vue_app__;
  return false;
}

let retry = null;

/** Upgrades every fence in `roots` (elements or documents) not upgraded yet; `markers` finds them. */
export function upgradeFences(roots, markers) {
  tidy();
  const blocks = new Set();
  for (const root of roots) {
    const found = [...(root.matches?.(markers) ? [root] : []), ...root.querySelectorAll(markers)];
    for (const m of found) if (!m.closest(`lease-lab, [${UPGRADED}]`)) blocks.add(blockOf(m));
  }
  const early = [...blocks].filter(awaitsHydration);
  for (const b of blocks) if (!b.hasAttribute(UPGRADED) && !early.includes(b)) upgrade(b);
  // Those its framework has yet to hydrate: looked at again shortly (the whole page: it may re-render).
  if (early.length && !retry) {
    retry = setTimeout(() => {
      retry = null;
      upgradeFences([early[0].ownerDocument.documentElement], markers);
    }, 50);
  }
}
