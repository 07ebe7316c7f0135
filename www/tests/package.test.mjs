// End-to-end test of the package (issue 19): tools/package.mjs packs dist/ as leaselab-VERSION.tgz;
// installed with `npm install ./leaselab-VERSION.tgz` into an empty project, offline and with no
// registry reachable, a page that embeds from node_modules/leaselab/ shows the seed's verdicts in
// headless Chromium, under the strict CSP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { openPage, RESULTS } from './helpers.mjs';
import { serve } from '../../tools/serve.mjs';
import { pack, version, changelogVersions } from '../../tools/package.mjs';
import { inPidNamespaceExecutable } from './pid-namespace.mjs';

let project;
let tarball;
before(() => {
  project = mkdtempSync(join(tmpdir(), 'leaselab-docs-'));
  tarball = pack(join(project, 'dist-tgz'));
  mkdirSync(RESULTS, { recursive: true });
});
after(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

test('make package: leaselab-VERSION.tgz, its version the crate’s and in CHANGELOG.md, a package.json with exports', () => {
  const v = version();
  assert.match(v, /^\d+\.\d+\.\d+/, 'a semantic version');
  assert.equal(basename(tarball), `leaselab-${v}.tgz`);
  assert.equal(changelogVersions()[0], v, 'the newest CHANGELOG entry is this version');
  const list = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'lease-lab.js', 'lease-lab-frame.js', 'embed.html', 'style.css', 'pkg/leaselab_bg.wasm', 'pkg/start.json', 'i18n/bn.js', 'i18n/services/etcd.js']) {
    assert.ok(list.includes(`package/${f}`), `${f} in the tarball`);
  }
  assert.ok(!list.some((f) => /tests\/|node_modules\/|\.rs$/.test(f)), 'no tests, dev tools or sources');
});

test('npm install ./leaselab-X.tgz into an empty project, offline; a page embedding from node_modules/leaselab/ shows the seed’s verdicts', async () => {
  writeFileSync(join(project, 'package.json'), '{ "name": "docs-site", "private": true }\n');
  // No registry: --offline, and the registry pointed at a closed port in case anything asks.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], {
    cwd: project,
    env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9/' },
    stdio: 'pipe',
  });
  const installed = join(project, 'node_modules', 'leaselab');
  const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'leaselab');
  assert.equal(pkg.version, version());
  assert.ok(pkg.license);
  assert.match(readFileSync(join(installed, 'README.md'), 'utf8'), /<lease-lab /, 'the README has the snippet');
  // The package's name resolves to the element's script, for tools that import it by name.
  const require = createRequire(join(project, 'index.js'));
  assert.equal(require.resolve('leaselab'), join(installed, 'lease-lab.js'));
  assert.equal(require.resolve('leaselab/lease-lab-frame.js'), join(installed, 'lease-lab-frame.js'));

  writeFileSync(
    join(project, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>' +
      '<link rel="icon" href="node_modules/leaselab/favicon.svg" type="image/svg+xml">' +
      '<script type="module" src="node_modules/leaselab/lease-lab.js"></script></head><body><main><h1>Locks</h1>' +
      '<lease-lab></lease-lab><lease-lab fencing="token"></lease-lab></main></body></html>',
  );
  assert.ok(existsSync(join(installed, 'pkg', 'leaselab_bg.wasm')));
  const srv = await serve({ dir: project, port: 0, csp: true });
  const browser = await chromium.launch({ executablePath: inPidNamespaceExecutable(process.env.CHROMIUM || '/usr/bin/chromium'), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const { page, watch } = await openPage(browser, { width: 1280, height: 900 });
    await page.goto(`${srv.url}index.html`);
    const verdict = async (i, outcome, final, expected) =>
      page.locator('lease-lab').nth(i).locator(`[data-testid="outcome"][data-outcome="${outcome}"][data-final="${final}"][data-expected="${expected}"]`).waitFor();
    await verdict(0, 'lost-update', 440, 450);
    await verdict(1, 'safe', 450, 450);
    // A change runs the wasm from the package too.
    await page.locator('lease-lab').first().locator('#fencing').selectOption('token');
    await verdict(0, 'safe', 450, 450);
    assert.deepEqual(watch.problems(), [], 'no console errors or CSP reports');
    const outside = watch.requests.filter((u) => !new URL(u).pathname.startsWith('/node_modules/leaselab/') && new URL(u).pathname !== '/index.html');
    assert.deepEqual(outside, [], 'everything the labs load comes from the package');
    await page.screenshot({ path: join(RESULTS, 'package-1280.png'), fullPage: true });
  } finally {
    await browser.close();
    await srv.close();
  }
});
