// author.html's ways out for a scenario text, with no DOM: the share link's fragment (the text
// deflated with CompressionStream('deflate-raw') and written as base64url, so a link carries the
// scenario itself and opens without a server), the embed snippet with the text inline, and the
// download's file name. Pure functions of their input (Node's tests run them: tests/unit/author.test.mjs).

/** The fragment's key: author.html#s=… */
export const FRAGMENT_KEY = 's';
/** The longest text a link may carry once inflated: the parser's own limit (TEXT_BYTES_MAX). */
export const TEXT_BYTES_MAX = 64 * 1024;

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s) {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error('not base64url');
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** `text` as a fragment value: deflate-raw, then base64url. */
export async function encodeText(text) {
  return toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}

/**
 * A fragment value back to its text. Rejects on anything that is not one (bad base64url, bad deflate
 * data, not UTF-8) and on a text past TEXT_BYTES_MAX once inflated (read in chunks, so a small link
 * cannot inflate into a huge string).
 */
export async function decodeText(value) {
  const reader = new Blob([fromBase64Url(value)]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    size += chunk.length;
    if (size > TEXT_BYTES_MAX) {
      await reader.cancel();
      throw new Error(`longer than ${TEXT_BYTES_MAX} bytes`);
    }
    chunks.push(chunk);
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(await new Blob(chunks).arrayBuffer());
}

/** The fragment's scenario value in `hash` (`#s=…`), or null. */
export function fragmentValue(hash) {
  const params = new URLSearchParams(String(hash || '').replace(/^#/, ''));
  return params.get(FRAGMENT_KEY);
}

/** The share link: `base` (the page's address, its own fragment dropped) with the text in the fragment. */
export async function shareLink(base, text) {
  const u = new URL(base);
  u.hash = `${FRAGMENT_KEY}=${await encodeText(text)}`;
  return u.href;
}

/** `</script` cannot appear inside an inline script element: written `<\/script` (the text changes there only). */
export const inlineSafe = (text) => text.replace(/<\/(script)/gi, '<\\/$1');

const attr = (s) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The embed snippet: lease-lab.js's script tag (`scriptUrl`) and a <lease-lab> with `attrs` ([name,
 * value] pairs) and the text inline. Returns { html, escaped } (escaped: a `</script` was rewritten).
 */
export function embedSnippet(scriptUrl, text, attrs = []) {
  const safe = inlineSafe(text);
  const body = safe.endsWith('\n') ? safe : `${safe}\n`;
  const a = attrs.map(([k, v]) => ` ${k}="${attr(v)}"`).join('');
  return {
    html: `<script type="module" src="${attr(scriptUrl)}"></script>\n<lease-lab${a}>\n<script type="text/x-leaselab">\n${body}</script>\n</lease-lab>\n`,
    escaped: safe !== text,
  };
}

/** The download's file name: the scenario's id where it is a plain name, else `scenario`. */
export function fileName(id) {
  return `${/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(id || '') ? id : 'scenario'}.txt`;
}
