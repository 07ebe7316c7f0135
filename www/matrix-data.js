// The safety table as data (the object `leaselab matrix --json` prints, docs/matrix.md): its rows,
// columns and policies as the JSON orders them (never a fixed list: a service or fault the engine
// gains shows up by itself), a reader's restriction of them read from an address or attributes, and
// the order in which to compute cells live. No DOM here (www/tests/unit/matrix-data.test.mjs).

/** The table's services (rows), in its order: its `bounds` has one entry per service. */
export const servicesOf = (table) => Object.keys(table.bounds);

const uniqueIn = (cells, key) => [...new Set(cells.map((c) => c[key]))];
/** The table's faults (columns), in the order its cells give them. */
export const faultsOf = (table) => uniqueIn(table.cells, 'fault');
/** The table's storage policies, in the order its cells give them. */
export const policiesOf = (table) => uniqueIn(table.cells, 'fencing');

/** A cell's key in `indexOf`'s map. */
export const keyOf = (service, fault, fencing) => `${service}|${fault}|${fencing}`;

/** Every cell by keyOf(service, fault, fencing). */
export const indexOf = (table) => new Map(table.cells.map((c) => [keyOf(c.service, c.fault, c.fencing), c]));

/**
 * A comma-separated list of names (an address's `services=lease,redis`, an attribute) against the
 * names the table has: { names: the known ones asked for, in the table's order; bad: the unknown
 * ones; empty: nothing usable was asked for (then names is every one) }. Absent (null) means every one.
 */
export function parseList(value, known) {
  if (value === null || value === undefined) return { names: known, bad: [], empty: false };
  const asked = String(value)
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const bad = asked.filter((n) => !known.includes(n));
  const names = known.filter((n) => asked.includes(n));
  return names.length ? { names, bad, empty: false } : { names: known, bad, empty: true };
}

/**
 * What to show, from `get(name)` (an address's parameter or an element's attribute): { services,
 * faults, fencing (one policy, or 'all' where `allowAll`), notices: [{key, vars}] for the words of
 * matrix-i18n.js }. Unknown names are left out and said; a bad policy falls back to `none`.
 */
export function readChoice(get, table, { allowAll = false } = {}) {
  const notices = [];
  const lists = {};
  for (const [key, known] of [
    ['services', servicesOf(table)],
    ['faults', faultsOf(table)],
  ]) {
    const { names, bad, empty } = parseList(get(key), known);
    if (bad.length) notices.push({ key: 'badList', vars: { key, value: bad.join(','), list: known.join(', ') } });
    if (empty) notices.push({ key: 'emptyList', vars: { key } });
    lists[key] = names;
  }
  const policies = policiesOf(table);
  const asked = get('fencing');
  let fencing = policies.includes('none') ? 'none' : policies[0];
  if (asked !== null && asked !== undefined) {
    const p = String(asked).trim().toLowerCase();
    if (policies.includes(p) || (allowAll && p === 'all')) fencing = p;
    else notices.push({ key: 'badFencing', vars: { value: asked, list: [...policies, ...(allowAll ? ['all'] : [])].join(', ') } });
  }
  return { services: lists.services, faults: lists.faults, fencing, notices };
}

/** The policies a choice shows: its one, or every one for 'all'. */
export const shownPolicies = (table, fencing) => (fencing === 'all' ? policiesOf(table) : [fencing]);

/** How many cells of `cells` have each verdict: { unsafe, safe, na }. */
export function countVerdicts(cells) {
  const n = { unsafe: 0, safe: 0, na: 0 };
  for (const c of cells) n[c.verdict === 'n/a' ? 'na' : c.verdict] += 1;
  return n;
}

/**
 * Each fault's reach as a multiple of T: { fault: { k, capMs } } — the largest magnitude over T that
 * any row searched, and where some row stopped short of k T (a slow link stops at 100 s) that cap.
 */
export function faultReach(table) {
  const out = {};
  for (const c of table.cells) {
    const t = table.bounds[c.service]?.time.ms;
    if (!t || !c.magnitude_ms) continue;
    const r = out[c.fault] || (out[c.fault] = { k: 0, capMs: null });
    r.k = Math.max(r.k, c.magnitude_ms[1] / t);
  }
  for (const c of table.cells) {
    const t = table.bounds[c.service]?.time.ms;
    const r = out[c.fault];
    if (t && r && c.magnitude_ms && c.magnitude_ms[1] < r.k * t - 0.5) r.capMs = Math.max(r.capMs ?? 0, c.magnitude_ms[1]);
  }
  for (const r of Object.values(out)) r.k = Math.round(r.k * 100) / 100;
  return out;
}

/**
 * The cells to compute live for services × faults × policies, longest first: by `runs` in `known`
 * (the shipped table) where it has the cell, so the slowest cells start first and the workers finish
 * together; a cell it lacks goes first (its cost is unknown).
 */
export function liveQueue(services, faults, policies, known) {
  const jobs = [];
  for (const service of services)
    for (const fault of faults) for (const fencing of policies) jobs.push({ service, fault, fencing, cost: known.get(keyOf(service, fault, fencing))?.runs ?? Infinity });
  return jobs.sort((a, b) => b.cost - a.cost);
}

/**
 * The table `leaselab matrix --json` would print for these services, faults and policies, from the
 * cells in `index`: bounds in the rows' order, cells service × fault × policy. Cells it lacks are left out.
 */
export function tableOf(bounds, index, services, faults, policies) {
  const cells = [];
  for (const s of services)
    for (const f of faults)
      for (const p of policies) {
        const c = index.get(keyOf(s, f, p));
        if (c) cells.push(c);
      }
  return { bounds: Object.fromEntries(services.filter((s) => bounds[s]).map((s) => [s, bounds[s]])), cells };
}
