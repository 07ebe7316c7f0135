// The page draws from the run: what the diagram shows for a lock service (its marks, its own words,
// what it can do) is the run JSON's `diagram` (docs/run-json.md), so no module of the page names a
// service, and adding one needs no JS beyond its dictionary words (issue 37). Checked over www/*.js but
// the dictionaries (i18n.js, the English one, and i18n/, the others) and the lessons' text (lessons.js):
// no line names a field service as a word. Ids that only contain a name (the scenario
// `etcd-lease-pause`, the event kind `redlock-acquired`) do not count. And a service's own dictionary
// (i18n/services/<id>.js, loaded only for a run on that service) names that service alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WWW = fileURLToPath(new URL('../../', import.meta.url));
const WORDS = ['i18n.js', 'lessons.js'];
const NAMED = /(?<![\w-])(consul|dynamodb|hazelcast|kubernetes|etcd|zookeeper|redlock|mysql)(?![\w-])/i;
// The client libraries (issue 44): their names come from the run's `libraries` and their words and
// calls from i18n/libraries.js, never from the page's code.
const LIBRARY = /(?<![\w-])(kazoo|curator|redis-py|python-redis-lock|redisson|pottery|etcd-concurrency|node-redlock)(?![\w-])/i;

test('the rule names a service as a word, not inside an id', () => {
  for (const s of ['etcd’s lease', 'a ZooKeeper session', 'Redlock: one grant', "['hazelcast', 'consul']", 'MySQL']) assert.ok(NAMED.test(s), s);
  for (const s of ['etcd-lease-pause', "'redlock-acquired'", 'k8s-lease-slow-renew', 'consulRenewFailed']) assert.ok(!NAMED.test(s), s);
});

test('no module of the page names a lock service (the run JSON\'s `diagram` says what to draw)', () => {
  const files = readdirSync(WWW).filter((f) => f.endsWith('.js') && !WORDS.includes(f));
  assert.ok(files.includes('layout.js') && files.includes('service-marks.js') && files.length > 30, `found only ${files.length} files`);
  const named = files.flatMap((f) =>
    readFileSync(WWW + f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (NAMED.test(line) ? [`www/${f}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(named, [], 'read it from the run JSON\'s `diagram` (docs/run-json.md), with the words in the dictionaries');
});

test('the rule names a client library as a word, not inside an id', () => {
  for (const s of ['kazoo’s listener', 'Curator says LOST', 'redis-py: owned()', "'python-redis-lock'", 'etcd-concurrency', 'node-redlock’s unlock()']) assert.ok(LIBRARY.test(s), s);
  for (const s of ['kazoo-is-acquired', 'curator-suspended', "'redis-py-owned-before-pause'", 'libraryCalls', "'node-redlock-clock-step-back'"]) assert.ok(!LIBRARY.test(s), s);
});

test('no module of the page names a client library (the run\'s `libraries` and i18n/libraries.js do)', () => {
  const files = readdirSync(WWW).filter((f) => f.endsWith('.js') && !WORDS.includes(f));
  assert.ok(files.includes('service-marks.js'), 'the library marks are checked');
  const named = files.flatMap((f) =>
    readFileSync(WWW + f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (LIBRARY.test(line) ? [`www/${f}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(named, [], 'name it in the dictionaries (i18n/libraries.js) or read it from the run JSON');
});

test('a service’s own dictionary (i18n/services/<id>.js) names no other lock service', () => {
  const dir = `${WWW}i18n/services/`;
  const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
  assert.ok(files.length >= 8, `found only ${files.length} files`);
  const NAMES = new RegExp(NAMED.source, 'gi');
  const other = files.flatMap((f) => {
    const own = f.replace(/\.js$/, '');
    return readFileSync(dir + f, 'utf8')
      .split('\n')
      .flatMap((line, i) => [...line.matchAll(NAMES)].filter((m) => m[1].toLowerCase() !== own).map((m) => `www/i18n/services/${f}:${i + 1}: ${m[1]}`));
  });
  assert.deepEqual(other, [], 'another service’s words belong in its own file');
});

// tools/service-names.py (`make service-names`), issue 37's count of the lines that name a service
// outside its homes, run on a small tree of its own: a client library's home (issue 44) — its facts
// and its engine half — is a home of the service its facts' SPEAKS line names, as a library added
// beside the others would be (a new name, one file in each libraries/ folder).
const TOOL = fileURLToPath(new URL('../../../tools/service-names.py', import.meta.url));

/** The tool's count per service over `files` ({ path: text }), each staged in a throwaway git tree. */
function serviceNameCounts(files) {
  const dir = mkdtempSync(join(tmpdir(), 'leaselab-service-names-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', '.'], { cwd: dir });
    const out = execFileSync('python3', [TOOL], { cwd: dir, encoding: 'utf8' });
    return Object.fromEntries([...out.matchAll(/^service_names_(\w+): (\d+) lines/gm)].map((m) => [m[1], Number(m[2])]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('service-names.py: a client library’s home may name the service it speaks, and only that one', () => {
  const counts = serviceNameCounts({
    'crate/model/src/libraries/node_lockish.rs': '//! A Redlock client.\nimpl LibraryFormat for NodeLockish {\n    const SPEAKS: ServiceKind = ServiceKind::Redlock;\n}\n// unlike etcd\n',
    'crate/src/libraries/node_lockish.rs': '//! Redlock\'s majority, as this library asks it.\n',
    // The libraries' shared files are no library's home.
    'crate/src/libraries/mod.rs': 'let t = own::Zookeeper::of(&svc);\n',
    'crate/model/src/libraries/mod.rs': '    const SPEAKS: ServiceKind;\n// a Redlock note\n',
  });
  assert.equal(counts.redlock, 1, 'only the shared mod.rs line: the library’s own two files are its home');
  assert.equal(counts.etcd, 1, 'another service named in a library’s home still counts');
  assert.equal(counts.zookeeper, 1, 'a service’s option read in the libraries’ shared file counts');
});
