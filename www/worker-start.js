// Starts the lab's module Web Workers wherever lease-lab.js was loaded from. `new Worker(url)` refuses
// a script of another origin than the page, and a writer often loads lease-lab.js from a CDN or a docs
// host; such a host already sends CORS (a module script across origins needs it). So for a script of
// another origin the worker is started from a `blob:` URL (of the page's origin) whose only content
// imports the real script by its absolute URL: that script keeps its own import.meta.url, so its
// imports and its wasm resolve against the host that served it, as they do on the same origin.
// Where even that cannot start (a page whose CSP allows no blob: workers, a host without CORS, no
// Worker at all) the caller sees what it saw before: a throw here, or the worker's `error` event.

/**
 * A module worker running the script at `url` (a URL or string, resolved against the page): started
 * directly on the page's origin, through a blob: URL that imports it on another. Throws where the page
 * cannot start one; a worker whose script fails to load fires `error`.
 */
export function startWorker(url) {
  const script = new URL(url, globalThis.document?.baseURI);
  if (script.origin === globalThis.origin) return new Worker(script, { type: 'module' });
  const blob = new Blob([`import ${JSON.stringify(script.href)};\n`], { type: 'text/javascript' });
  const blobUrl = URL.createObjectURL(blob);
  try {
    return new Worker(blobUrl, { type: 'module' });
  } finally {
    // The constructor resolves the blob URL at once (the HTML standard's worker URL is parsed, its
    // blob entry taken, before it returns), so the URL can go now: nothing else may ever load it.
    URL.revokeObjectURL(blobUrl);
  }
}
