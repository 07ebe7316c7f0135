#!/usr/bin/env node
// `make test-recipes`: for every recipe (a folder tools/recipes/TOOL/ with build.sh and site.json), build
// its site from docs/recipes/TOOL.md with the package tarball, then check it in Chromium (check.mjs).
// Two recipes at a time at most: the builds are CPU-bound and CI has two cores. One line per recipe
// with its time; the whole log of each in test-results/recipes/TOOL.log. Exit 1 if any recipe fails.
//
//   node tools/recipes/run.mjs [--tarball leaselab-X.tgz] [TOOL ...]
//
// Without --tarball, packs dist/ (tools/package.mjs; dist/ must be built). RECIPES_JOBS sets the
// parallelism (1–4, default 2). Each recipe builds in target/recipes/TOOL/, rebuilt from scratch each run;
// its tool's install is cached under target/recipes-tools/ (deleting it only costs a reinstall). Both
// steps get RECIPE_PORT, the loopback port the site will be served on.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack } from '../package.mjs';
import { PORT_TAKEN } from './check.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const LOGS = join(ROOT, 'test-results', 'recipes');
const BUILD_MS = 20 * 60_000;
const CHECK_MS = 4 * 60_000;
/** Builds and checks of one recipe at most, when its port is taken between the two (PORT_TAKEN). */
const PORT_ATTEMPTS = 3;

/** The recipes on disk: a folder with build.sh and site.json, and its page docs/recipes/TOOL.md. */
function recipes() {
  return readdirSync(HERE, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(HERE, d.name, 'build.sh')) && existsSync(join(HERE, d.name, 'site.json')))
    .map((d) => d.name)
    .sort();
}

const running = new Set();

/**
 * A loopback port free now, for one recipe's build and check alike: a site whose configuration names
 * its own address (MkDocs Material's site_url, which its instant navigation compares links with,
 * port included) is built for the address the checker then serves it on.
 */
function freePort() {
  return new Promise((ok, ko) => {
    const srv = createServer();
    srv.once('error', ko);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** Runs a command, its output appended to `log`; resolves to its exit code (killed after limitMs). */
function step(cmd, args, log, limitMs, env) {
  return new Promise((done) => {
    log.write(`\n$ ${cmd} ${args.join(' ')}\n`);
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, ...env } });
    running.add(child);
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const timer = setTimeout(() => {
      log.write(`\n(stopped after ${limitMs / 1000} s)\n`);
      killGroup(child);
    }, limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      done(code ?? 1);
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
}

/** One recipe: build, then check. Resolves to { tool, ok, line }. */
async function one(tool, tarball) {
  const work = join(ROOT, 'target', 'recipes', tool);
  mkdirSync(work, { recursive: true });
  const logFile = join(LOGS, `${tool}.log`);
  const log = createWriteStream(logFile);
  const t0 = Date.now();
  let built, checked, t1, t2;
  // The port is free when picked, but another program on the machine may take it before the check
  // serves on it; the site is built for its port (MkDocs's site_url), so a new one means a new build.
  for (let attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
    const env = { RECIPE_PORT: String(await freePort()) };
    built = await step('bash', [join(HERE, tool, 'build.sh'), work, tarball], log, BUILD_MS, env);
    t1 = Date.now();
    checked = built === 0 ? await step('node', [join(HERE, 'check.mjs'), '--tool', tool, '--workdir', work], log, CHECK_MS, env) : null;
    t2 = Date.now();
    if (checked !== PORT_TAKEN) break;
    log.write(`\n(port ${env.RECIPE_PORT} was taken by another program before the check; again on another)\n`);
  }
  await new Promise((r) => log.end(r));
  const secs = (a, b) => ((b - a) / 1000).toFixed(1);
  const times = `${secs(t0, t2)} s (build ${secs(t0, t1)} s, check ${checked === null ? '—' : `${secs(t1, t2)} s`})`;
  const ok = built === 0 && checked === 0;
  const last = readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).slice(ok ? -1 : -8);
  const why = ok ? '' : `\n    ${built !== 0 ? 'build failed' : 'check failed'}; ${logFile}:\n      ${last.join('\n      ')}`;
  return { tool, ok, line: `recipes: ${tool.padEnd(16)} ${ok ? 'ok  ' : 'FAIL'} ${times}${why}` };
}

async function main(argv) {
  let tarball = null;
  const wanted = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--tarball') tarball = resolve(argv[++i] ?? '');
    else wanted.push(argv[i]);
  }
  const all = recipes();
  const unknown = wanted.filter((t) => !all.includes(t));
  if (unknown.length) throw new Error(`no recipe ${unknown.join(', ')} (there are: ${all.join(', ')})`);
  const tools = wanted.length ? wanted : all;
  const jobs = Math.min(4, Math.max(1, Number(process.env.RECIPES_JOBS) || 2));
  mkdirSync(LOGS, { recursive: true });
  tarball ??= pack(join(ROOT, 'target', 'recipes'));
  console.log(`recipes: ${tools.length} (${tools.join(', ')}), ${jobs} at a time, with ${tarball}`);
  const t0 = Date.now();
  const queue = [...tools];
  const results = [];
  const worker = async () => {
    while (queue.length) {
      const r = await one(queue.shift(), tarball);
      console.log(r.line);
      results.push(r);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  const failed = results.filter((r) => !r.ok).map((r) => r.tool);
  console.log(`recipes: ${tools.length - failed.length}/${tools.length} ok in ${((Date.now() - t0) / 1000).toFixed(1)} s${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
  return failed.length ? 1 : 0;
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const child of running) killGroup(child);
    process.exit(130);
  });
}
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(`recipes: ${e.message}`);
    process.exit(2);
  },
);
