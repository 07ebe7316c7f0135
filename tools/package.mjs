// Packs the static build (dist/) as an npm tarball, leaselab-VERSION.tgz, for writers who would rather
// `npm install` one file than build Rust: the folder as `make dist` makes it, with a package.json
// (exports for lease-lab.js and lease-lab-frame.js) and a short README with the snippet. Usage:
//   node tools/package.mjs [--out DIR]     (default: the repository root; `make package` runs it)
// The version is the crate's (crate/Cargo.toml), and CHANGELOG.md must have an entry for it: a tarball
// whose changes are not written down is not made. Prints the tarball's path. No network: npm pack of a
// package with no dependencies does not ask a registry.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

/** The crate's version: the one version of the project (the CLI's, the package's). */
export function version() {
  const toml = readFileSync(join(ROOT, 'crate', 'Cargo.toml'), 'utf8');
  const m = /^\[package\][^[]*?^version\s*=\s*"([^"]+)"/m.exec(toml);
  if (!m) throw new Error('package: no version in crate/Cargo.toml [package]');
  return m[1];
}

/** The versions CHANGELOG.md has entries for ("## [1.2.3] — date"), newest first. */
export function changelogVersions() {
  const text = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
  return [...text.matchAll(/^## \[(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\]/gm)].map((m) => m[1]);
}

/** package.json for the tarball; `files` is what dist/ holds at its top level. */
function manifest(v, entries) {
  return {
    name: 'leaselab',
    version: v,
    description: 'Why a distributed lock alone does not protect data: an exact, interactive lab as a <lease-lab> element for docs pages',
    license: 'MIT OR Apache-2.0',
    type: 'module',
    // The files are served as they are (the element finds its wasm next to itself): exports name the
    // scripts a host loads, for tools that resolve the package's name.
    exports: {
      '.': './lease-lab.js',
      './lease-lab.js': './lease-lab.js',
      './lease-lab-frame.js': './lease-lab-frame.js',
      './embed.html': './embed.html',
      './style.css': './style.css',
      './package.json': './package.json',
    },
    sideEffects: true, // importing lease-lab.js defines the element
    files: entries,
    keywords: ['distributed-lock', 'lease', 'fencing-token', 'simulation', 'web-component', 'webassembly', 'docs'],
  };
}

export function pack(out = ROOT) {
  const v = version();
  const logged = changelogVersions();
  if (!logged.includes(v)) throw new Error(`package: CHANGELOG.md has no "## [${v}]" entry (it has: ${logged.join(', ') || 'none'})`);
  const dist = join(ROOT, 'dist');
  if (!existsSync(join(dist, 'lease-lab.js'))) throw new Error('package: dist/ is not built; run make dist (tools/build-web.sh) first');
  const stage = join(ROOT, 'target', 'package', 'leaselab');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  cpSync(dist, stage, { recursive: true });
  const entries = [...readdirSync(dist), 'CHANGELOG.md'].sort();
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest(v, entries), null, 2)}\n`);
  const readme = readFileSync(join(ROOT, 'tools', 'package-readme.md'), 'utf8').replaceAll('{VERSION}', v);
  writeFileSync(join(stage, 'README.md'), readme);
  cpSync(join(ROOT, 'CHANGELOG.md'), join(stage, 'CHANGELOG.md'));
  mkdirSync(out, { recursive: true });
  const json = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', resolve(out)], { cwd: stage, encoding: 'utf8' });
  const [{ filename }] = JSON.parse(json);
  return join(resolve(out), filename);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  try {
    console.log(pack(i > 0 ? process.argv[i + 1] : ROOT));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
