// One safety-table cell in full (matrix.html's detail box): its verdict, the smallest counterexample
// with its cost, the `leaselab run` command that replays it and its link into the lab, the bounds
// searched, how many points and engine runs that took, the conformance rows that check the service
// under that fault against a real server, and for n/a the reason. Text from the table is set as text.
import { fmt } from './i18n.js';
import { verdictClass } from './matrix-table.js';

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

/** A reason of the table's (the CLI's English) in the reader's words where it is one the words know. */
export function reasonText(cell, w, serviceName) {
  const token = /^(\S+) gives no fencing token for the storage to check$/.exec(cell.reason);
  if (token) return fmt(w.reasonNoToken, { service: serviceName(token[1]) });
  const ttl = /^(\S+)'s lock has no TTL: no wall clock of the server's ends it$/.exec(cell.reason);
  if (ttl) return fmt(w.reasonNoTtl, { service: serviceName(ttl[1]) });
  return cell.reason;
}

/** `leaselab run` with a cell's arguments, as a shell would take them. */
export const runCommand = (args) => ['leaselab', 'run', ...args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`))].join(' ');

/**
 * Fills `box` with `cell` in full. `ctx`: { w (matrix-i18n.js's words), step (the row's step in ms),
 * serviceName(id), faultName(id), policyName(id), num(n), labHref(cell) }.
 */
export function renderDetail(box, cell, ctx) {
  const { w, num } = ctx;
  box.replaceChildren();
  box.dataset.service = cell.service;
  box.dataset.fault = cell.fault;
  box.dataset.fencing = cell.fencing;
  box.dataset.verdict = cell.verdict;
  const h = el('h3', `mx-detail-h ${verdictClass(cell.verdict)}`);
  h.textContent = fmt(w.detailTitle, {
    service: ctx.serviceName(cell.service),
    fault: ctx.faultName(cell.fault),
    policy: ctx.policyName(cell.fencing),
    verdict: w.verdictLong[cell.verdict] || cell.verdict,
  });
  box.append(h);
  if (cell.verdict === 'unsafe') unsafePart(box, cell, ctx);
  else if (cell.verdict === 'safe') box.append(el('p', '', w.safeNote));
  else box.append(el('p', '', fmt(w.naNote, { reason: reasonText(cell, w, ctx.serviceName) })));
  if (cell.verdict !== 'n/a') {
    const [at0, at1] = cell.at_ms || ['', ''];
    const [m0, m1] = cell.magnitude_ms || ['', ''];
    box.append(el('p', 'mx-searched', fmt(w.searched, { at0: num(at0), at1: num(at1), m0: num(m0), m1: num(m1), step: num(ctx.step) })));
    const counts = cell.behaviours == null ? w.counts : w.countsBehaviours;
    box.append(el('p', 'mx-counts', fmt(counts, { combinations: num(cell.combinations), runs: num(cell.runs), behaviours: num(cell.behaviours) })));
  }
  realPart(box, cell, w);
}

function unsafePart(box, cell, ctx) {
  const { w, num } = ctx;
  const params = Object.entries(cell.params)
    .map(([k, v]) => `${k} = ${num(v)} ms`)
    .join(', ');
  box.append(el('p', 'mx-counterexample', fmt(w.counterexample, { cost: num(cell.cost), params })));
  box.append(el('p', 'mx-reproduce', w.reproduce));
  const pre = el('pre', 'mx-command');
  pre.append(el('code', '', runCommand(cell.run_args)));
  box.append(pre);
  const p = el('p', 'mx-open');
  const a = el('a', 'mx-lab', w.openLab);
  a.href = ctx.labHref(cell);
  p.append(a);
  box.append(p);
}

function realPart(box, cell, w) {
  if (!cell.real || !cell.real.length) {
    box.append(el('p', 'mx-real-none', w.realNone));
    return;
  }
  box.append(el('p', 'mx-real-h', w.real));
  const ul = el('ul', 'mx-real-list');
  for (const r of cell.real) ul.append(el('li', '', r));
  box.append(ul);
}
