// Unit tests of matrix-data.js (matrix.html's and <lease-lab-matrix>'s reading of the safety table)
// under plain Node: rows, columns and policies come from the JSON, a reader's restriction is read with
// notices for what is unusable, and the live queue and the exported table keep the CLI's shape. The
// table is the native CLI's (`leaselab matrix --json`, target/release), so a new service or fault
// shows up here as it does on the page; and the Bengali words cover the English ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  servicesOf,
  faultsOf,
  policiesOf,
  indexOf,
  keyOf,
  parseList,
  readChoice,
  shownPolicies,
  countVerdicts,
  faultReach,
  liveQueue,
  tableOf,
} from '../../matrix-data.js';
import { en, bn, matrixWords } from '../../matrix-i18n.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CLI = join(process.env.CARGO_TARGET_DIR || join(ROOT, 'target'), 'release', 'leaselab');
const table = existsSync(CLI)
  ? JSON.parse(execFileSync(CLI, ['matrix', '--json', '--service', 'lease', '--service', 'etcd', '--service', 'session'], { encoding: 'utf8' }))
  : null;
const skip = table ? false : `no ${CLI}: run cargo build --release`;

test('rows, columns and policies in the JSON’s own order', { skip }, () => {
  assert.deepEqual(servicesOf(table), ['lease', 'etcd', 'session']);
  assert.deepEqual(faultsOf(table), [...new Set(table.cells.map((c) => c.fault))]);
  assert.ok(faultsOf(table).includes('pause') && faultsOf(table).includes('partition'));
  assert.equal(policiesOf(table)[0], 'none');
  assert.equal(table.cells.length, 3 * faultsOf(table).length * policiesOf(table).length);
  const ix = indexOf(table);
  assert.equal(ix.size, table.cells.length);
  assert.equal(ix.get(keyOf('etcd', 'pause', 'none')).verdict, 'unsafe');
  assert.equal(ix.get(keyOf('session', 'server-clock', 'none')).verdict, 'n/a');
});

test('parseList: absent is all; unknown names are said and left out; nothing usable falls back to all', () => {
  const known = ['a', 'b', 'c'];
  assert.deepEqual(parseList(null, known), { names: known, bad: [], empty: false });
  assert.deepEqual(parseList('c, A', known), { names: ['a', 'c'], bad: [], empty: false });
  assert.deepEqual(parseList('b,zz', known), { names: ['b'], bad: ['zz'], empty: false });
  assert.deepEqual(parseList('zz,,', known), { names: known, bad: ['zz'], empty: true });
  assert.deepEqual(parseList('', known), { names: known, bad: [], empty: true });
});

test('readChoice: the address’s restriction, with a notice per unusable value', { skip }, () => {
  const get = (q) => (k) => new URLSearchParams(q).get(k);
  const c = readChoice(get('services=etcd,nosuch&faults=partition,pause&fencing=token'), table);
  assert.deepEqual(c.services, ['etcd']);
  assert.deepEqual(c.faults, ['pause', 'partition']);
  assert.equal(c.fencing, 'token');
  assert.deepEqual(c.notices.map((n) => [n.key, n.vars.value]), [['badList', 'nosuch']]);
  const bad = readChoice(get('fencing=fenced&faults=x'), table);
  assert.equal(bad.fencing, 'none', 'a bad policy falls back to none');
  assert.deepEqual(bad.faults, faultsOf(table), 'no usable fault: every one');
  assert.deepEqual(bad.notices.map((n) => n.key), ['badList', 'emptyList', 'badFencing']);
  assert.equal(readChoice(get('fencing=all'), table).fencing, 'none', '`all` only where allowed');
  assert.equal(readChoice(get('fencing=all'), table, { allowAll: true }).fencing, 'all');
  assert.deepEqual(shownPolicies(table, 'all'), policiesOf(table));
  assert.deepEqual(shownPolicies(table, 'owner'), ['owner']);
});

test('countVerdicts and faultReach: the caption’s counts and the legend’s multiples of T', { skip }, () => {
  const n = countVerdicts(table.cells);
  assert.equal(n.unsafe + n.safe + n.na, table.cells.length);
  assert.ok(n.unsafe > 0 && n.safe > 0 && n.na > 0);
  const reach = faultReach(table);
  assert.equal(reach.pause.k, 4);
  assert.equal(reach['lock-delay'].k, 1);
  assert.equal(reach.pause.capMs, null);
});

test('liveQueue: every cell once, the costliest shipped ones first; tableOf: the CLI’s order', { skip }, () => {
  const ix = indexOf(table);
  const jobs = liveQueue(servicesOf(table), faultsOf(table), policiesOf(table), ix);
  assert.equal(jobs.length, table.cells.length);
  assert.equal(new Set(jobs.map((j) => keyOf(j.service, j.fault, j.fencing))).size, jobs.length);
  for (let i = 1; i < jobs.length; i++) assert.ok(jobs[i - 1].cost >= jobs[i].cost);
  const unknown = liveQueue(['new-service'], ['pause'], ['none'], ix);
  assert.equal(unknown[0].cost, Infinity, 'a cell the shipped table lacks goes first');
  assert.deepEqual(tableOf(table.bounds, ix, servicesOf(table), faultsOf(table), policiesOf(table)), table);
  const part = tableOf(table.bounds, ix, ['etcd'], ['pause'], ['none', 'token']);
  assert.deepEqual(Object.keys(part.bounds), ['etcd']);
  assert.deepEqual(part.cells.map((c) => c.fencing), ['none', 'token']);
});

test('the Bengali words have every English key, with the same placeholders', () => {
  const places = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [k, v] of Object.entries(en)) {
    if (typeof v === 'string') {
      assert.ok(typeof bn[k] === 'string', `bn lacks ${k}`);
      assert.deepEqual(places(bn[k]), places(v), `bn ${k}: placeholders`);
    }
  }
  const w = matrixWords('bn');
  for (const f of Object.keys(en.faultNames)) assert.ok(w.faultNames[f] && w.faultHelp[f], `bn: fault ${f}`);
  for (const v of ['unsafe', 'safe', 'n/a']) assert.notEqual(w.verdict[v], en.verdict[v]);
});
