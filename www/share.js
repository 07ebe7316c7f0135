// Sharing and exports: the link to this exact state, embed snippets of it, and the run as text, JSON,
// SVG and PNG. Loaded on the first copy or export. Everything is made in the page from what is already
// on it; nothing goes over the network.
import { HERE } from './settings.js';

const esc = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * An embed of the settings `pairs` (settings.js's paramsOf, explicit, and any presentation
 * attributes): the <lease-lab> element with its script, or (`kind` 'iframe') an iframe titled after
 * the scenario.
 */
export function snippet(kind, pairs, title) {
  if (kind === 'iframe') {
    const src = new URL(`embed.html?${new URLSearchParams(pairs)}`, HERE);
    return `<iframe src="${esc(src)}" title="${esc(`leaselab: ${title}`)}" width="100%" height="760" loading="lazy"></iframe>`;
  }
  const attrs = pairs.map(([k, v]) => ` ${k}="${esc(v)}"`).join('');
  return `<script type="module" src="${esc(new URL('lease-lab.js', HERE))}"></script>\n<lease-lab${attrs}></lease-lab>`;
}

/** Offers `data` as a file download named `name`. */
export function download(name, type, data) {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Copies text to the clipboard; where the clipboard is not allowed (iframes, http), selects it in
 *  a field so the reader can copy it by hand. Resolves to true when it was copied. */
export async function copyText(text, fallbackInput) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    fallbackInput.value = text;
    fallbackInput.hidden = false;
    fallbackInput.focus();
    fallbackInput.select();
    return false;
  }
}

/** The stylesheet rules that style the diagram (the page's, or a <lease-lab>'s shadow root's), so an
 *  exported SVG looks the same alone. */
function diagramCss(svg) {
  const rules = [];
  for (const sheet of svg.getRootNode().styleSheets || document.styleSheets) {
    let list;
    try {
      list = sheet.cssRules;
    } catch {
      continue; // not ours
    }
    for (const r of list) rules.push(r.cssText);
  }
  return rules.join('\n');
}

/** A standalone copy of `svg`: its size fixed, the page's styles inside, a white background. */
export function standaloneSvg(svg) {
  const copy = svg.cloneNode(true);
  const { width, height } = svg.getBoundingClientRect();
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', Math.round(width));
  copy.setAttribute('height', Math.round(height));
  const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
  style.textContent = `svg{background:#fff;font-family:system-ui,sans-serif}\n${diagramCss(svg)}`;
  copy.insertBefore(style, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

export function exportRun(kind, run, svg, base) {
  switch (kind) {
    case 'txt':
      return download(`${base}.txt`, 'text/plain', `${run.transcript.join('\n')}\n`);
    case 'json':
      return download(`${base}.json`, 'application/json', `${JSON.stringify(run, null, 2)}\n`);
    case 'svg':
      return download(`${base}.svg`, 'image/svg+xml', standaloneSvg(svg));
    case 'png':
      return downloadPng(`${base}.png`, standaloneSvg(svg), svg.getBoundingClientRect());
    default:
      throw new Error(`unknown export ${kind}`);
  }
}

/** Rasterises a standalone SVG (its text) at 2× (crisp on high-density screens and in slides) and
 *  offers it as a PNG download. Rejects where the page may not load `blob:` images (a strict CSP). */
export function downloadPng(name, text, { width, height }) {
  const scale = 2;
  return new Promise((ok, ko) => {
    const img = new Image();
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      const ctx = canvas.getContext('2d');
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, width, height);
      canvas.toBlob((blob) => (blob ? ok(download(name, 'image/png', blob)) : ko(new Error('PNG export failed'))), 'image/png');
    };
    img.onerror = () => ko(new Error('PNG export failed'));
    img.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  });
}
