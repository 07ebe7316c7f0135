// The markup each docs tool gives a ```leaselab fenced block, as the tools really emit it (captured from
// their builds at the versions tools/recipes/ pins; `make test-recipes` checks the real sites), for
// fence.test.mjs: one entry per tool or variant, `html(text)` the block for a fence holding `text`.

const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const lines = (t) => t.replace(/\n$/, '').split('\n');
/** The text a tool writes inside its <code>: the fence's lines, each ended by a line break. */
const body = (t) => esc(`${t.replace(/\n$/, '')}\n`);

export const TOOLS = [
  // markdown-it 15, marked 18, Python-Markdown 3.11 (fenced_code), mdBook, MkDocs without superfences,
  // Hugo with codeFences=false: the CommonMark rendering.
  { name: 'markdown-it, marked, Python-Markdown, mdBook, MkDocs', html: (t) => `<pre><code class="language-leaselab">${body(t)}</code></pre>` },
  // Hugo 0.111 with Chroma on: no lexer for the language, so the block stays plain, with data-lang.
  { name: 'Hugo (Chroma)', html: (t) => `<pre tabindex="0"><code class="language-leaselab" data-lang="leaselab">${body(t)}</code></pre>` },
  // Python-Markdown's codehilite without Pygments.
  { name: 'Python-Markdown codehilite', html: (t) => `<pre class="codehilite"><code class="language-leaselab">${body(t)}</code></pre>` },
  // MkDocs Material with pymdownx.superfences and the custom fence (fence_code_format): no last line break.
  { name: 'MkDocs Material (superfences custom fence)', html: (t) => `<pre class="leaselab"><code>${esc(t.replace(/\n$/, ''))}</code></pre>` },
  // Sphinx 9 (Pygments has no lexer: a warning, the text kept), furo.
  {
    name: 'Sphinx (Pygments)',
    html: (t) => `<div class="highlight-leaselab notranslate"><div class="highlight"><pre><span></span>${body(t)}</pre></div>\n</div>`,
  },
  // Docusaurus 3.10 (Prism, React 19): each line a div ended by a <br>, no line breaks as text; the copy
  // button comes with hydration (so both are here: as served, and as hydrated).
  { name: 'Docusaurus (Prism), as served', html: (t) => docusaurus(t, '') },
  {
    name: 'Docusaurus (Prism), hydrated',
    html: (t) => docusaurus(t, '<div class="buttonGroup__atx"><button type="button" aria-label="Copy code to clipboard" title="Copy" class="clean-btn">Copy</button></div>'),
  },
  // VitePress 1.6 (Shiki): a copy button and the language's name before the <pre>; lines as spans
  // joined by line breaks.
  {
    name: 'VitePress (Shiki)',
    html: (t) =>
      '<div class="language-leaselab vp-adaptive-theme"><button title="Copy Code" class="copy"></button><span class="lang">leaselab</span>' +
      `<pre class="shiki shiki-themes github-light github-dark vp-code" tabindex="0"><code>${lines(t).map((l) => `<span class="line"><span>${esc(l)}</span></span>`).join('\n')}</code></pre></div>`,
  },
  // Starlight 0.37 (Expressive Code 0.41): each line a div, no line breaks as text; the copy button's
  // data-code holds the exact text, lines joined by U+007F. The first block of a page also carries
  // Expressive Code's stylesheet and script.
  {
    name: 'Starlight (Expressive Code)',
    html: (t) =>
      '<div class="expressive-code"><link rel="stylesheet" href="data:text/css,"><figure class="frame not-content"><figcaption class="header"></figcaption>' +
      `<pre data-language="leaselab"><code>${lines(t).map((l) => `<div class="ec-line"><div class="code"><span style="--0:#d6deeb">${esc(l)}</span></div></div>`).join('')}</code></pre>` +
      `<div class="copy"><div aria-live="polite"></div><button title="Copy to clipboard" data-copied="Copied!" data-code="${lines(t).join('\x7f').replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"><div></div></button></div></figure></div>`,
  },
];

function docusaurus(t, buttons) {
  return (
    '<div class="language-leaselab codeBlockContainer_Ckt0 theme-code-block" style="--prism-color:#bfc7d5"><div class="codeBlockContent_QJqH">' +
    '<pre tabindex="0" class="prism-code language-leaselab codeBlock_bY9V thin-scrollbar"><code class="codeBlockLines_e6Vv">' +
    lines(t).map((l) => `<div class="token-line"><span class="token plain">${esc(l)}</span><br></div>`).join('') +
    `</code></pre>${buttons}</div></div>`
  );
}

/** The block `tool` emits for a fence holding `text`. */
export const fenceHtml = (tool, text) => tool.html(text);
