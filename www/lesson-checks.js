// A lesson's checks against its runs: the run a beat sets up, its scans and searches, and whether a
// choice's predicate holds — pure functions of the run JSON (lesson.js asks them; the tests too).
import { simulationForId } from './engine.js';

/** The run a beat sets up, as the lab would show it: the run JSON of the wasm core. */
export function runOf(set, policy = set.fencing || 'none') {
  const sim = new (simulationForId(set.scenario))(set.scenario);
  try {
    sim.setPolicy(policy);
    sim.setRetries(set.retries || 0);
    sim.setNaive(Boolean(set.naive));
    for (const [k, v] of Object.entries(set)) if (sim.hasParam(k)) sim.setParam(k, v);
    return JSON.parse(sim.runJson());
  } finally {
    sim.free();
  }
}

/** A beat's scan: for each policy, how many of the parameter's values lose an update (`quick()`). */
export function scanOf(set, scan) {
  const sim = new (simulationForId(set.scenario))(set.scenario);
  const out = { from: scan.from, to: scan.to, step: scan.step, n: 0 };
  try {
    sim.setRetries(set.retries || 0);
    sim.setNaive(Boolean(set.naive));
    for (const [k, v] of Object.entries(set)) if (sim.hasParam(k)) sim.setParam(k, v);
    for (const p of scan.policies) {
      sim.setPolicy(p);
      let lost = 0;
      let n = 0;
      for (let v = scan.from; v <= scan.to; v += scan.step) {
        sim.setParam(scan.param, v);
        if (sim.quick()[1] !== 0) lost++;
        n++;
      }
      out[p] = lost;
      out.n = n;
    }
  } finally {
    sim.free();
  }
  return out;
}

/**
 * A beat's search (the "Find a failure" panel's grid, `search.vary`: [[param, from, to, step]…]),
 * done the slow way for the lesson's own answer: every point run (`quick()`), for each of
 * `search.policies`, the smallest failure kept — least cost Σ (value − from) / step, ties to the
 * point first in the order the parameters are listed, as the panel and `leaselab search` pick it.
 * Returns {n, [policy]: null | {param: ms…}}. The panel's workers must agree (learn.test.mjs).
 */
export function searchOf(set, search) {
  const sim = new (simulationForId(set.scenario))(set.scenario);
  const dims = search.vary.map(([param, from, to, step]) => ({ param, from, step, count: Math.floor((to - from) / step) + 1 }));
  const n = dims.reduce((a, d) => a * d.count, 1);
  const out = { n };
  try {
    sim.setRetries(set.retries || 0);
    sim.setNaive(Boolean(set.naive));
    for (const [k, v] of Object.entries(set)) if (sim.hasParam(k)) sim.setParam(k, v);
    for (const p of search.policies) {
      sim.setPolicy(p);
      let best = null;
      for (let at = 0; at < n; at++) {
        // The point at place `at`, the last dimension fastest: places rise in the tie order.
        let rest = at;
        const index = dims.map(() => 0);
        for (let k = dims.length - 1; k >= 0; k--) {
          index[k] = rest % dims[k].count;
          rest = Math.floor(rest / dims[k].count);
        }
        const cost = index.reduce((a, i) => a + i, 0);
        if (best && cost >= best.cost) continue;
        dims.forEach((d, k) => sim.setParam(d.param, d.from + index[k] * d.step));
        if (sim.quick()[1] !== 0) best = { cost, index };
      }
      out[p] = best && Object.fromEntries(dims.map((d, k) => [d.param, d.from + best.index[k] * d.step]));
    }
  } finally {
    sim.free();
  }
  return out;
}

const writesOf = (run, c) => run.writes.filter((w) => w.client === c);
/** A client's last notice `note` (or one of `notes`) from its lock library (service-marks.js), or undefined. */
const noticeOf = (run, c, ...notes) => run.events.findLast((e) => e.actor === c && e.kind === 'notice' && notes.includes(e.note));
/** The last answer a lock library gave its code's "do I still hold it?", whoever asked. */
const lastOwned = (run) => run.events.findLast((e) => e.kind === 'notice' && (e.note === 'owned-yes' || e.note === 'owned-no'));
const list = (v) => (Array.isArray(v) ? v : [v]);

/**
 * A beat's row of the safety table (`table`: { service, fencing }) in the table the build shipped
 * (pkg/matrix.json, as `leaselab matrix --json` prints it): { fault: cell }, every fault of that row.
 */
export function tableRowOf(spec, matrix) {
  const row = {};
  for (const c of matrix.cells) if (c.service === spec.service && c.fencing === spec.fencing) row[c.fault] = c;
  return row;
}

/**
 * Whether every key of predicate `pred` holds for `run` (and `scan`, the beat's scan counts, `search`,
 * its search's, and `table`, its row of the safety table: tableRowOf).
 */
export function holds(pred, run, scan = null, search = null, table = null) {
  return Object.entries(pred).every(([k, v]) => {
    switch (k) {
      case 'verdict':
        return run.verdict === v;
      case 'lost':
        return (run.lost ?? null) === v;
      case 'rejected':
        return v === null ? run.writes.every((w) => w.accepted) : writesOf(run, v).some((w) => !w.accepted);
      case 'lockRejects':
        return run.events.some((e) => e.lane === 'lock' && e.actor === v && /write.*reject/.test(e.kind));
      case 'granted':
        return v === null ? !run.events.some((e) => e.kind === 'granted' && e.actor !== run.clients[0]) : run.events.some((e) => e.kind === 'granted' && e.actor === v);
      case 'denied':
        return run.events.some((e) => e.kind === 'denied' && e.actor === v);
      case 'firstWrite': {
        const w = run.writes.find((x) => x.accepted);
        return !!w && w.client === v;
      }
      case 'overlap':
        return run.overlaps.length > 0 === v;
      case 'allApplied': {
        // Every client's debit is in the final balance: the balance a serial order gives.
        const debit = Object.fromEntries(run.writes.map((w) => [w.client, w.debit]));
        return (run.final === run.initial - Object.values(debit).reduce((a, b) => a + b, 0)) === v;
      }
      case 'writes':
        return run.writes.length === v;
      case 'lockedOut':
        return (run.locked_out ?? null) === v;
      case 'scanZero':
        return !!scan && list(v).every((p) => scan[p] === 0);
      case 'scanSome':
        return !!scan && list(v).every((p) => scan[p] > 0);
      case 'searchZero':
        return !!search && list(v).every((p) => search[p] === null);
      case 'searchSome':
        return !!search && list(v).every((p) => Boolean(search[p]));
      case 'tableUnsafe':
        return !!table && list(v).every((f) => table[f]?.verdict === 'unsafe');
      case 'ownedSays':
        return !!lastOwned(run) && (lastOwned(run).note === 'owned-yes') === v;
      case 'ownedTruth':
        return !!lastOwned(run) && lastOwned(run).truth === v;
      case 'tableSafe':
        return !!table && list(v).every((f) => table[f]?.verdict === 'safe');
      default:
        throw new Error(`lessons: unknown predicate ${k}`);
    }
  });
}

/**
 * The values a beat's text may quote, by placeholder name, from its run (and scan, search, row of the
 * safety table, and givens). The row gives table.n (its faults), table.unsafe (how many lose an update)
 * and each unsafe cell's counterexample, table.FAULT.PARAM in ms (table.pause.freeze_A_for).
 */
export function varsOf(beat, run, scan, search = null, table = null) {
  const v = { initial: run.initial, final: run.final, expected: run.expected, ...(beat.given || {}) };
  for (const [k, ms] of Object.entries(run.params)) v[k.replace(/_ms$/, '')] = ms;
  for (const c of run.clients) {
    const ws = writesOf(run, c);
    const lease = run.leases.find((l) => l.client === c);
    const end = run.events.find((e) => e.kind === 'session-ended' && e.actor === c);
    const set = (k, x) => x !== undefined && x !== null && (v[`${c}.${k}`] = x);
    set('token', lease && lease.token);
    set('granted', lease && lease.granted_ms);
    set('leaseEnd', lease && lease.ends_ms);
    set('read', ws[0] && ws[0].snapshot);
    set('value', ws[0] && ws[0].value);
    set('debit', ws[0] && ws[0].debit);
    set('last', ws.length ? ws[ws.length - 1].value : undefined);
    set('sessionEnd', end && end.t_ms);
    // What its lock library told its code, and when: its last answer to "do I still hold it?", the
    // exception at release, the listener's SUSPENDED and LOST.
    set('ownedAt', noticeOf(run, c, 'owned-yes', 'owned-no')?.t_ms);
    set('raisedAt', noticeOf(run, c, 'release-raised')?.t_ms);
    if (run.libraries && run.libraries[c]) for (const k of ['suspended', 'lost']) set(`${k}At`, run.events.find((e) => e.actor === c && e.kind === k)?.t_ms);
  }
  if (scan) for (const [k, x] of Object.entries(scan)) v[`scan.${k}`] = x;
  if (search) {
    v['search.n'] = search.n;
    for (const [param, from, to, step] of beat.search.vary) Object.assign(v, { [`search.${param}.from`]: from, [`search.${param}.to`]: to, [`search.${param}.step`]: step });
    for (const p of beat.search.policies) for (const [k, x] of Object.entries(search[p] || {})) v[`search.${p}.${k}`] = x;
  }
  if (table) {
    const cells = Object.values(table);
    v['table.n'] = cells.length;
    v['table.unsafe'] = cells.filter((c) => c.verdict === 'unsafe').length;
    for (const c of cells) for (const [k, ms] of Object.entries(c.params)) v[`table.${c.fault}.${k}`] = ms;
  }
  return v;
}

/** Fills {name} and {client.name} placeholders from `vars` (through `nf`); unknown ones stay visible. */
export function fillText(text, vars, nf = String) {
  return text.replace(/\{([\w.-]+)\}/g, (m, k) => (Object.hasOwn(vars, k) ? nf(vars[k]) : m));
}

/** The placeholders a text uses. */
export const placeholders = (text) => [...text.matchAll(/\{([\w.-]+)\}/g)].map((m) => m[1]);

/** The index of the choice whose predicate holds (-1 if none or several: the test forbids both). */
export function answerOf(beat, run, scan, search = null, table = null) {
  const ok = beat.ask.choices.map((c) => holds(c.when, run, scan, search, table));
  return ok.filter(Boolean).length === 1 ? ok.indexOf(true) : -1;
}
