#!/usr/bin/env node
// A tiny, dependency-free static file server for leaselab's page (dist/ by default).
//
//   node tools/serve.mjs [--dir dist] [--port 8000] [--csp] [--cors]
//
// Binds 127.0.0.1 only. PORT in the environment is honoured when --port is not given. With --csp every
// response carries the strict Content-Security-Policy the page must live under; with --cors every
// response allows any origin (Access-Control-Allow-Origin: *), as a CDN serving lease-lab.js to other
// sites does. Tests import serve()
// and pass port 0 for an ephemeral port. Text and wasm go out gzipped (level 9) to a client that accepts
// it, as any real static host sends them: the page's weight is measured as a browser receives it.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};
/** Already compressed formats (png, woff2) are sent as they are. */
const GZIP = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.txt']);
/** Gzipped files by path, kept while their size and mtime stay the same. */
const gzCache = new Map();

async function gzipped(file, st) {
  const hit = gzCache.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.body;
  const body = gzipSync(await readFile(file), { level: 9 });
  gzCache.set(file, { mtimeMs: st.mtimeMs, size: st.size, body });
  return body;
}

/** Starts a server; resolves to { server, port, url, close() }. */
export function serve({ dir = 'dist', port = 8000, csp = false, cors = false, host = '127.0.0.1' } = {}) {
  const root = resolve(dir);
  const server = createServer((req, res) =>
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }),
  );
  async function handle(req, res) {
    const headers = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };
    if (csp) headers['Content-Security-Policy'] = CSP;
    if (cors) headers['Access-Control-Allow-Origin'] = '*';
    const fail = (code, text) => {
      res.writeHead(code, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(text + '\n');
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405, 'method not allowed');
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return fail(400, 'bad request');
    }
    // Resolve inside root and refuse anything that escapes it (../, encoded or not) or holds a NUL.
    let file = resolve(join(root, path));
    if (path.includes('\0') || (file !== root && !file.startsWith(root + sep))) return fail(404, 'not found');
    try {
      let st = await stat(file);
      if (st.isDirectory()) {
        if (!path.endsWith('/')) {
          // Relative URLs in index.html need the trailing slash.
          res.writeHead(301, { ...headers, Location: encodeURI(path + '/') });
          return res.end();
        }
        file = join(file, 'index.html');
        st = await stat(file);
      }
      if (!st.isFile()) return fail(404, 'not found');
      const ext = extname(file).toLowerCase();
      const type = { ...headers, 'Content-Type': MIME[ext] || 'application/octet-stream', Vary: 'Accept-Encoding' };
      if (GZIP.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
        const body = await gzipped(file, st);
        res.writeHead(200, { ...type, 'Content-Encoding': 'gzip', 'Content-Length': body.length });
        return res.end(req.method === 'HEAD' ? undefined : body);
      }
      res.writeHead(200, { ...type, 'Content-Length': st.size });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).pipe(res);
    } catch {
      fail(404, 'not found');
    }
  }
  return new Promise((ok, ko) => {
    server.once('error', ko);
    server.listen(port, host, () => {
      const p = server.address().port;
      ok({ server, port: p, url: `http://${host}:${p}/`, close: () => new Promise((c) => server.close(c)) });
    });
  });
}

function parseArgs(argv) {
  const o = { dir: 'dist', port: process.env.PORT ? Number(process.env.PORT) : 8000, csp: false, cors: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dir') o.dir = argv[++i];
    else if (a === '--port') o.port = Number(argv[++i]);
    else if (a === '--csp') o.csp = true;
    else if (a === '--cors') o.cors = true;
    else if (a === '-h' || a === '--help') {
      console.log('usage: node tools/serve.mjs [--dir dist] [--port 8000] [--csp] [--cors]');
      process.exit(0);
    } else {
      console.error(`serve: unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) {
    console.error('serve: --port expects an integer 0..65535');
    process.exit(2);
  }
  return o;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const opts = parseArgs(process.argv.slice(2));
  serve(opts).then(
    ({ url }) => console.log(`serving ${opts.dir}${opts.csp ? ' (strict CSP)' : ''}${opts.cors ? ' (CORS: any origin)' : ''} at ${url}`),
    (e) => {
      console.error(`serve: ${e.message}`);
      process.exit(1);
    },
  );
}
