// tools/serve.mjs: MIME types, index.html, 404s, no escaping its folder, the optional CSP header, gzip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { serve, CSP } from '../../tools/serve.mjs';
import { DIST } from './helpers.mjs';

/** A raw GET (fetch() would normalise "../" away before it reaches the server). */
const get = (port, path, headers = {}) =>
  new Promise((ok, ko) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => ok(res));
    });
    req.on('error', ko);
    req.end();
  });

test('serves dist/ with the right types, 404s and no traversal', async () => {
  const srv = await serve({ dir: DIST, port: 0 });
  try {
    assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const types = {
      '/': 'text/html',
      '/index.html': 'text/html',
      '/app.js': 'text/javascript',
      '/style.css': 'text/css',
      '/favicon.svg': 'image/svg+xml',
      '/pkg/leaselab_bg.wasm': 'application/wasm',
    };
    for (const [path, type] of Object.entries(types)) {
      const r = await get(srv.port, path);
      assert.equal(r.statusCode, 200, path);
      assert.ok(r.headers['content-type'].startsWith(type), `${path}: ${r.headers['content-type']}`);
      assert.equal(r.headers['content-security-policy'], undefined);
    }
    for (const path of ['/nope', '/../Cargo.toml', '/%2e%2e/Cargo.toml', '/pkg/..%2f..%2fCargo.toml', '/..%5cCargo.toml']) {
      assert.equal((await get(srv.port, path)).statusCode, 404, path);
    }
  } finally {
    await srv.close();
  }
});

test('--csp adds the strict Content-Security-Policy', async () => {
  const srv = await serve({ dir: DIST, port: 0, csp: true });
  try {
    const r = await get(srv.port, '/');
    assert.equal(r.headers['content-security-policy'], CSP);
    assert.equal(CSP, "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'");
  } finally {
    await srv.close();
  }
});

test('text and wasm go out gzipped to a client that accepts it; woff2 and plain clients as they are', async () => {
  const srv = await serve({ dir: DIST, port: 0 });
  try {
    const gz = { 'accept-encoding': 'gzip, deflate' };
    for (const path of ['/', '/app.js', '/style.css', '/pkg/leaselab_bg.wasm', '/pkg/scenarios.en.json']) {
      const r = await get(srv.port, path, gz);
      assert.equal(r.headers['content-encoding'], 'gzip', path);
      assert.equal(r.headers.vary, 'Accept-Encoding', path);
      assert.equal((await get(srv.port, path)).headers['content-encoding'], undefined, `${path} without Accept-Encoding`);
    }
    const font = await get(srv.port, '/fonts/noto-sans-bengali-400.woff2', gz);
    assert.equal(font.statusCode, 200);
    assert.equal(font.headers['content-type'], 'font/woff2');
    assert.equal(font.headers['content-encoding'], undefined, 'woff2 is compressed already');
  } finally {
    await srv.close();
  }
});
