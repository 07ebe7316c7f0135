// Unit tests of the diagram's layout (www/layout.js) under plain `node --test`: no browser, no DOM.
// The runs are the real ones: the lab's wasm (www/pkg, built by tools/build-web.sh) loaded in Node,
// every catalogue scenario under every storage policy at its defaults, worded by the lab's own
// dictionaries (English and Bengali) and number formats.
//
// Text widths come from the page's own measure, roughMeasure: a width per character (code point) of
// 0.57 × the font size, 0.66 in Bengali. It is the estimate the layout places labels with in the
// browser too, so "no two labels overlap" here means the layout keeps them apart by its own reckoning;
// it overestimates real glyphs (Bengali vowel signs take no width of their own), which leaves room to
// spare on screen. A label's box runs from 0.8 × its font size above its baseline to 0.2 below.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { imp, loadFullBuild, runWith } from './full-build.mjs';
import { checkNoticeTies } from './notice-ties.mjs';

const { layoutDiagram, roughMeasure, divergence } = await imp('layout.js');
const { fmt, numberFormat } = await imp('i18n.js');

/** The widths the issue names, a phone and a laptop, and the widths the lab page draws its diagram at
 * (www/tests/first-screen.test.mjs's viewports): 364 px on a 390 px phone, 720 on a 768 px tablet,
 * 750 beside the settings at 1280 and 1366 px, 791 on an 844 px landscape phone. */
const WIDTHS = [364, 390, 720, 750, 791, 1280];
let pkg;
let catalogue;
let policies;
let dicts;

before(async () => {
  // The full build: every catalogue scenario, whatever its service (the page's core build has fewer).
  ({ pkg, catalogue, policies, dicts } = await loadFullBuild());
});

/** The run of scenario `id` under `policy` at its defaults, as the lab gets it. */
const runOf = (id, policy) => runWith(pkg, id, policy);

/** Every layout the lab can show for the catalogue at its defaults: each scenario under each policy,
 *  alone and in the side-by-side view (with where it parts from the default comparison). */
function* everyLayout(width, lang) {
  const d = dicts[lang];
  const num = numberFormat(lang);
  for (const s of catalogue) {
    for (const policy of policies) {
      const run = runOf(s.id, policy);
      const other = runOf(s.id, policy === 'none' ? 'token' : 'none');
      const t = divergence(run, other);
      const opts = { width, d, num, lang };
      yield { what: `${s.id} ${policy}`, run, L: layoutDiagram(run, opts) };
      if (t !== null) yield { what: `${s.id} ${policy}, compared`, run, L: layoutDiagram(run, { ...opts, mark: { t, label: fmt(d.diverge, { t: num(t) }) } }) };
    }
  }
}

const meets = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

test('roughMeasure: a width per code point, in proportion to the size; Bengali runs wider', () => {
  const en = roughMeasure('en');
  assert.equal(en('abcd', 10), 4 * 10 * 0.57);
  assert.equal(en('✓ A', 20), 2 * en('✓ A', 10));
  assert.equal(en('👍', 10), en('a', 10), 'one code point, however many UTF-16 units');
  assert.ok(roughMeasure('bn')('abcd', 10) > en('abcd', 10));
});

for (const width of WIDTHS) {
  for (const lang of ['en', 'bn']) {
    test(`no two labels overlap at ${width} px (${lang}), for every catalogue scenario under every policy`, () => {
      let n = 0;
      for (const { what, L } of everyLayout(width, lang)) {
        const ls = L.labels;
        assert.ok(ls.length > 0, what);
        for (let i = 0; i < ls.length; i++) {
          for (let j = i + 1; j < ls.length; j++) {
            assert.ok(!meets(ls[i].box, ls[j].box), `${what}: "${ls[i].text}" ${JSON.stringify(ls[i].box)} overlaps "${ls[j].text}" ${JSON.stringify(ls[j].box)}`);
          }
        }
        n++;
      }
      assert.ok(n >= catalogue.length * policies.length, `${n} layouts`);
    });
  }
}

test('every label starts inside the picture and, in English, ends inside it too', () => {
  for (const width of WIDTHS) {
    for (const lang of ['en', 'bn']) {
      for (const { what, L } of everyLayout(width, lang)) {
        for (const { text, box } of L.labels) {
          assert.ok(box.x >= 0 && box.y >= 0 && box.y + box.h <= L.H, `${what} at ${width} (${lang}): "${text}" ${JSON.stringify(box)} in ${L.W}×${L.H}`);
          // The rough Bengali estimate runs wider than the glyphs (see above); English must fit.
          if (lang === 'en') assert.ok(box.x + box.w <= L.W, `${what} at ${width}: "${text}" ends at ${box.x + box.w} > ${L.W}`);
        }
      }
    }
  }
});

test('lanes: the lock service (or each Redlock node), each client, the storage, top to bottom; notes under their line', () => {
  for (const { what, run, L } of everyLayout(1280, 'en')) {
    const service = run.nodes > 1 ? Array.from({ length: run.nodes }, (_, k) => `n${k + 1}`) : ['lock'];
    assert.deepEqual(L.lanes.map((l) => l.key), [...service, ...run.clients, 'storage'], what);
    let bottom = L.head;
    for (const lane of L.lanes) {
      assert.ok(lane.top >= bottom && lane.line > lane.top && lane.notes > lane.line, `${what}: lane ${lane.key}`);
      bottom = lane.rows ? lane.notes + (lane.rows - 1) * (L.fs + 5) : lane.line;
    }
    assert.ok(L.axisY > bottom && L.H > L.axisY, `${what}: the axis under the last lane`);
    const names = L.labels.filter((l) => l.attrs.class === 'lane-name').map((l) => l.text);
    assert.deepEqual(names, L.lanes.map((l) => l.name), `${what}: one name per lane`);
  }
});

test('the time scale: 0 at the plot\'s left edge, the run inside it; tFix gives two diagrams one scale', () => {
  const d = dicts.en;
  const num = numberFormat('en');
  const run = runOf('seed-gc-pause', 'none');
  const L = layoutDiagram(run, { width: 1280, d, num, lang: 'en' });
  assert.equal(L.sx(0), L.x0);
  assert.ok(L.tMax >= run.end_ms && L.sx(L.tMax) === L.x1);
  const wide = layoutDiagram(run, { width: 1280, d, num, lang: 'en', tFix: L.tMax * 2 });
  assert.equal(wide.tMax, L.tMax * 2);
  assert.equal(layoutDiagram(run, { width: 1280, d, num, lang: 'en', tFix: 1 }).tMax, L.tMax, 'a shorter tFix changes nothing');
});

test('pure: the same run, width and words give the same layout, and the run is left as it was', () => {
  const deepFreeze = (o) => {
    if (o && typeof o === 'object' && !Object.isFrozen(o)) {
      Object.freeze(o);
      for (const v of Object.values(o)) deepFreeze(v);
    }
    return o;
  };
  for (const id of ['seed-gc-pause', 'redlock-clock-jump', 'postgres-session']) {
    const text = JSON.stringify(runOf(id, 'token'));
    const run = deepFreeze(JSON.parse(text));
    const opts = { width: 390, d: dicts.bn, num: numberFormat('bn'), lang: 'bn' };
    const a = layoutDiagram(run, opts);
    const b = layoutDiagram(run, opts);
    const plain = (L) => JSON.stringify({ ...L, sx: undefined });
    assert.equal(plain(a), plain(b), id);
    assert.equal(JSON.stringify(run), text, id);
  }
});

test('a measure passed in places the labels: wider text moves notes to further rows', () => {
  const run = runOf('seed-gc-pause', 'token');
  const opts = { width: 390, d: dicts.en, num: numberFormat('en'), lang: 'en' };
  const rows = (L) => L.lanes.reduce((a, l) => a + l.rows, 0);
  const rough = layoutDiagram(run, opts);
  const wide = layoutDiagram(run, { ...opts, measure: (s, size) => roughMeasure('en')(s, size) * 3 });
  assert.ok(rows(wide) > rows(rough), `${rows(wide)} rows > ${rows(rough)}`);
  for (const l of wide.labels) assert.equal(l.box.w, roughMeasure('en')(l.text, l.attrs.class === 'diverge-label' ? 11 : wide.fs) * 3);
});

// etcd and ZooKeeper: the service's own lane name, the keepalive/ping ticks, the queue of waiters and
// Curator's connection states (www/service-marks.js).

const layoutOf = (id, { policy = 'none', width = 1280, lang = 'en' } = {}) =>
  layoutDiagram(runOf(id, policy), { width, d: dicts[lang], num: numberFormat(lang), lang });

test('the lock-service lane is named by the service: the etcd server, the ZooKeeper ensemble', () => {
  for (const lang of ['en', 'bn']) {
    const d = dicts[lang];
    assert.equal(layoutOf('etcd-lease-pause', { lang }).lanes[0].name, d.lanes.etcd);
    assert.equal(layoutOf('zk-session-expiry', { lang }).lanes[0].name, d.lanes.zookeeper);
    assert.equal(layoutOf('hazelcast-fenced-lock', { lang }).lanes[0].name, d.lanes.hazelcast);
    assert.equal(layoutOf('seed-gc-pause', { lang }).lanes[0].name, d.lanes.lock);
    assert.notEqual(d.lanes.etcd, d.lanes.lock);
  }
  assert.notEqual(dicts.bn.lanes.zookeeper, dicts.en.lanes.zookeeper, 'Bengali has its own words');
});

test('Kubernetes: the API server\'s lane, A\'s renewals until the cut, B\'s last look and the takeover noted', () => {
  for (const lang of ['en', 'bn']) {
    const d = dicts[lang];
    for (const width of WIDTHS) {
      const L = layoutOf('k8s-lease-slow-renew', { lang, width });
      assert.equal(L.lanes[0].name, d.lanes.kubernetes);
      assert.deepEqual(L.ticks.filter((t) => t.client === 'A').map((t) => [t.t, t.ok]), [[2000, true], [4000, true], [6000, true], [68000, false]], 'renewals until the cut; the hung call fails a minute on');
      assert.deepEqual(L.queues, [], 'a Lease is no queue');
      const texts = L.labels.map((l) => l.text);
      const seen = fmt(width < 600 ? d.lastSeenShort : d.lastSeen, { h: 'A' });
      assert.ok(texts.includes(seen), `${lang} ${width}: ${seen}`);
      if (width >= 600) assert.ok(texts.includes(fmt(d.takenOver, { c: 'A' })), `${lang}: the Lease taken over`);
    }
  }
  // client-go 1.12 (the naive switch off): A stops leading at its renew deadline, 18 s.
  const sim = new pkg.Simulation('k8s-lease-slow-renew');
  try {
    sim.setNaive(false);
    const run = JSON.parse(sim.runJson());
    const L = layoutDiagram(run, { width: 1280, d: dicts.en, num: numberFormat('en'), lang: 'en' });
    assert.ok(L.labels.some((l) => l.text === dicts.en.stoppedLeading), 'stops leading');
    assert.deepEqual(run.events.filter((e) => e.kind === 'renew-denied').map((e) => e.t_ms), [18000]);
  } finally {
    sim.free();
  }
});

test('no keepalive tick meets a label, at either width and in either language, for every scenario', () => {
  for (const width of WIDTHS) {
    for (const lang of ['en', 'bn']) {
      for (const { what, L } of everyLayout(width, lang)) {
        for (const t of L.ticks) {
          for (const l of L.labels) assert.ok(!meets(t, l.box), `${what} at ${width} (${lang}): tick ${t.client}@${t.t} meets "${l.text}"`);
        }
      }
    }
  }
});

test('a library notice\'s note starts or ends at its diamond, or has a leader crossing no other note, at every width in either language', () => {
  let notes = 0;
  for (const width of WIDTHS) {
    for (const lang of ['en', 'bn']) {
      for (const { what, L } of everyLayout(width, lang)) {
        checkNoticeTies(L, `${what} at ${width} (${lang})`);
        notes += L.tied.length;
      }
    }
  }
  assert.ok(notes > 0, 'the catalogue has notices');
});

test('keepalive ticks: every keepalive that reached the server, on its client\'s lane; none during a freeze or a cut', () => {
  let seen = 0;
  for (const s of catalogue) {
    const run = runOf(s.id, 'none');
    const L = layoutDiagram(run, { width: 1280, d: dicts.en, num: numberFormat('en'), lang: 'en' });
    const kas = run.events.filter((e) => e.kind === 'keepalive' || e.kind === 'keepalive-failed');
    assert.equal(L.ticks.length, kas.length, s.id);
    for (const t of L.ticks) {
      const line = L.lanes.find((l) => l.key === t.client).line;
      assert.ok(t.y < line && t.y + t.h > line, `${s.id}: ${t.client}'s tick sits on its lane line`);
      // A frozen client sends nothing: no tick strictly inside one of its pauses.
      for (const p of run.pauses.filter((q) => q.client === t.client)) assert.ok(!(t.t > p.from_ms && t.t < p.to_ms), `${s.id}: ${t.client} ticks at ${t.t} while frozen ${p.from_ms}–${p.to_ms}`);
    }
    seen += L.ticks.length;
  }
  assert.ok(seen > 0, 'some scenario has keepalives');
});

test('keepalive ticks stop during the freeze and resume after it', () => {
  // etcd: A freezes 0–5 s, B waits: only B's keepalives arrive, every TTL/3, until B is done.
  const etcd = layoutOf('etcd-lease-pause');
  assert.deepEqual(etcd.ticks.filter((t) => t.client === 'A').map((t) => [t.t, t.ok]), [[5000, false]], 'A: none while frozen, then one too late');
  assert.ok(etcd.ticks.filter((t) => t.client === 'B' && t.ok).length >= 2);
  // ZooKeeper: A's pings are due every 2 s; A is frozen 0–10 s: none arrive until it wakes.
  const zk = layoutOf('zk-session-expiry');
  assert.deepEqual(zk.ticks.filter((t) => t.client === 'A').map((t) => [t.t, t.ok]), [[10000, false]]);
  // Curator: A's pings arrive until the network cuts it off at 3 s, B's all along.
  const cur = layoutOf('curator-suspended');
  const a = cur.ticks.filter((t) => t.client === 'A').map((t) => t.t);
  assert.ok(a.length > 0 && a.every((t) => t < 3000), `A's pings before the cut: ${a}`);
  assert.ok(cur.ticks.filter((t) => t.client === 'B' && t.t > 3000).length >= 3);
  // The etcd waiter who freezes: B's pause 200–3200 ms; its first keepalive after it is refused.
  const waiter = layoutOf('etcd-waiter-expired-lease');
  assert.deepEqual(waiter.ticks.filter((t) => t.client === 'B').map((t) => [t.t, t.ok]), [[3200, false]]);
  assert.ok(waiter.ticks.filter((t) => t.client === 'A' && t.t > 200 && t.t < 3200).length >= 3, 'A, not frozen, keeps its lease alive meanwhile');
});

test('the queue of waiters: noted on the service lane at each change, holder first, for etcd, ZooKeeper and Hazelcast only', () => {
  const q = (id) => layoutOf(id).queues.map((x) => [x.t, x.queue.join(' ')]);
  assert.deepEqual(q('etcd-lease-pause'), [[100, 'A B'], [2000, 'B']]);
  assert.deepEqual(q('zk-session-expiry'), [[1000, 'A B'], [8000, 'B']]);
  // Hazelcast: B's lock call waits on the CP group from 2 s until A's session is closed at 15 s.
  assert.deepEqual(q('hazelcast-fenced-lock'), [[2000, 'A B'], [15000, 'B']]);
  assert.deepEqual(q('etcd-waiter-expired-lease'), [[100, 'A B'], [2100, 'A'], [2500, 'A C'], [4000, 'C']]);
  for (const s of catalogue) {
    const run = runOf(s.id, 'none');
    if (!['etcd', 'zookeeper', 'hazelcast'].includes(run.service)) assert.deepEqual(layoutOf(s.id).queues, [], s.id);
  }
  // The notes say it, with the waiter's revision (etcd) or sequence number (ZooKeeper), in both languages.
  for (const lang of ['en', 'bn']) {
    const d = dicts[lang];
    const num = numberFormat(lang);
    const notes = (L) => L.labels.filter((l) => l.attrs.class.includes('n-queue')).map((l) => l.text);
    const rev = fmt(d.queue, { q: ['A', fmt(d.queueRev, { c: 'B', n: num(3) })].join(d.queueSep) });
    assert.ok(notes(layoutOf('etcd-lease-pause', { lang })).includes(rev), `${lang}: ${rev}`);
    const seq = fmt(d.queue, { q: ['A', fmt(d.queueSeq, { c: 'B', n: num(1) })].join(d.queueSep) });
    assert.ok(notes(layoutOf('zk-session-expiry', { lang })).includes(seq), `${lang}: ${seq}`);
    const expiry = layoutOf('etcd-waiter-expired-lease', { lang }).labels.map((l) => l.text);
    assert.ok(expiry.includes(fmt(d.waiterExpired, { c: 'B' })), `${lang}: the waiter's lease expires`);
    assert.ok(expiry.includes(d.staleGrant), `${lang}: etcd 3.4 tells B it holds the lock`);
  }
});

test('Curator\'s SUSPENDED and LOST: a labelled band on the client lane, for the ZooKeeper scenarios only', () => {
  const cur = layoutOf('curator-suspended');
  assert.deepEqual(cur.states.map((s) => [s.client, s.state, s.from, s.to]), [['A', 'suspended', 6000, 12000], ['A', 'lost', 12000, 14000]]);
  const line = cur.lanes.find((l) => l.key === 'A').line;
  for (const state of ['suspended', 'lost']) {
    const band = cur.items.find((i) => i.tag === 'rect' && i.attrs.class === `conn ${state}`);
    assert.ok(band && band.attrs.y > line, `${state}: a band under A's line`);
  }
  // zk-session-expiry: SUSPENDED and LOST come at one instant (the ping's reply); only LOST lasts.
  assert.deepEqual(layoutOf('zk-session-expiry').states.map((s) => [s.client, s.state, s.from]), [['A', 'lost', 10000]]);
  for (const lang of ['en', 'bn']) {
    for (const width of WIDTHS) {
      const texts = layoutOf('curator-suspended', { lang, width }).labels.map((l) => l.text);
      const d = dicts[lang];
      for (const [long, short] of [[d.suspendedBand, 'SUSPENDED'], [d.lostBand, 'LOST']]) assert.ok(texts.includes(long) || texts.includes(short), `${lang} ${width}: ${short} labelled`);
    }
  }
  for (const s of catalogue) if (runOf(s.id, 'none').service !== 'zookeeper') assert.deepEqual(layoutOf(s.id).states, [], s.id);
});

test('the text alternative names the service and its own marks (the legend\'s words), in both languages', () => {
  for (const lang of ['en', 'bn']) {
    const d = dicts[lang];
    const legend = new Map(d.legend);
    const etcd = layoutOf('etcd-lease-pause', { lang }).desc;
    const zk = layoutOf('curator-suspended', { lang }).desc;
    assert.ok(etcd.startsWith(d.svgDesc) && etcd.includes(fmt(d.svgDescService, { s: d.lanes.etcd })), etcd);
    assert.ok(zk.includes(fmt(d.svgDescService, { s: d.lanes.zookeeper })), zk);
    for (const k of ['ka', 'queue']) assert.ok(etcd.includes(legend.get(k)) && zk.includes(legend.get(k)), `${lang}: ${k}`);
    assert.ok(zk.includes(legend.get('conn')) && !etcd.includes(legend.get('conn')), `${lang}: Curator's bands for ZooKeeper only`);
    assert.equal(layoutOf('seed-gc-pause', { lang }).desc, d.svgDesc);
    assert.equal(layoutOf('redlock-clock-jump', { lang }).desc, d.svgDesc);
  }
  assert.notEqual(new Map(dicts.bn.legend).get('conn'), new Map(dicts.en.legend).get('conn'));
});

// Consul: the server's own lane name, the session renewals as ticks, and the lock-delay after the
// server invalidates a frozen holder's session (twice the TTL after its last renewal).

test('Consul: its lane name, renewals that stop while A is frozen, and the lock-delay bar from 30 to 45 s', async () => {
  const { explainVerdict, safetyMargin } = await imp('explain.js');
  for (const lang of ['en', 'bn']) {
    const d = dicts[lang];
    const num = numberFormat(lang);
    for (const width of WIDTHS) {
      const L = layoutOf('consul-lock-delay', { lang, width });
      assert.equal(L.lanes[0].name, d.lanes.consul);
      assert.deepEqual(L.ticks.filter((t) => t.client === 'A').map((t) => [t.t, t.ok]), [[40000, false]], 'A renews only when it wakes: 404');
      assert.ok(L.ticks.filter((t) => t.client === 'B' && t.ok).length >= 4, 'B renews every 7.5 s while it waits');
      const bar = L.items.find((i) => i.tag === 'rect' && i.attrs.class === 'lockdelay');
      assert.ok(bar, `${lang} ${width}: the lock-delay bar`);
      const desc = L.desc;
      assert.ok(desc.includes(fmt(d.svgDescService, { s: d.lanes.consul })) && desc.includes(new Map(d.legend).get('ka')), desc);
      assert.ok(!desc.includes(new Map(d.legend).get('queue')), 'one key, not a queue');
    }
    // The margin says the session ended at 30 s and whether the lock-delay still held the others off.
    const held = safetyMargin(runOf('consul-lock-delay', 'none'), d, num).join(' ');
    assert.ok(held.includes(fmt(d.marginDelayHeld, { until: num(45000) })), held);
    const over = safetyMargin(runOf('consul-lock-delay-exceeded', 'none'), d, num).join(' ');
    assert.ok(over.includes(fmt(d.marginDelayOver, { until: num(45000) })), over);
    assert.ok(explainVerdict(runOf('consul-lock-delay-exceeded', 'token'), d, num).lines.length > 0);
  }
  assert.notEqual(dicts.bn.lanes.consul, dicts.en.lanes.consul, 'Bengali has its own words');
});

// DynamoDB: the lock table's lane, the holder's heartbeats (none while frozen), the takeover note, and
// a text alternative with the ticks but no queue (its waiters poll the item; they are not queued).
test('DynamoDB: the lock table by name, no heartbeat while A is frozen, A\'s item taken over at 22 s', () => {
  for (const lang of ['en', 'bn']) {
    const d = dicts[lang];
    const L = layoutOf('dynamodb-heartbeat-pause', { lang });
    assert.equal(L.lanes[0].name, d.lanes.dynamodb);
    assert.notEqual(d.lanes.dynamodb, d.lanes.lock);
    assert.deepEqual(L.ticks.filter((t) => t.client === 'A').map((t) => [t.t, t.ok]), [[5000, true]], 'one before the freeze (6–36 s), none after: it lets go');
    assert.ok(L.labels.some((l) => l.text === fmt(d.itemTakenOver, { c: 'A' })), `${lang}: the takeover is noted`);
    assert.deepEqual(L.queues, []);
    const legend = new Map(d.legend);
    assert.ok(L.desc.includes(fmt(d.svgDescService, { s: d.lanes.dynamodb })) && L.desc.includes(legend.get('ka')), L.desc);
    assert.ok(!L.desc.includes(legend.get('queue')), `${lang}: no queue`);
  }
  // B holds from 28 s and releases at once: its heartbeat thread finds nothing to beat.
  assert.deepEqual(layoutOf('dynamodb-heartbeat-pause').ticks.filter((t) => t.client === 'B'), []);
});
