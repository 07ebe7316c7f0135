// Unit tests of the events' words (www/explain.js) under plain `node --test`: every event of every
// catalogue scenario, under every storage policy at its defaults, in English and Bengali, is told in
// its own service's terms — never in another lock service's name (a Consul session is not "etcd's
// lease"). The runs are the real ones, from the lab's full wasm build (www/pkg, tools/build-web.sh).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { imp, loadFullBuild, runWith } from './full-build.mjs';

const { describeEvent } = await imp('explain.js');
const { numberFormat } = await imp('i18n.js');

/** How each lock service with words of its own is named in the text (both languages keep the names). */
const NAMES = { etcd: 'etcd', zookeeper: 'ZooKeeper', consul: 'Consul', kubernetes: 'Kubernetes', hazelcast: 'Hazelcast', dynamodb: 'DynamoDB', mysql: 'MySQL' };

let pkg;
let catalogue;
let policies;
let dicts;

before(async () => {
  ({ pkg, catalogue, policies, dicts } = await loadFullBuild());
});

const runOf = (id, policy) => runWith(pkg, id, policy);

test('every event is told in its own service’s name, never another’s (en, bn)', () => {
  for (const lang of ['en', 'bn']) {
    const d = dicts[lang];
    const num = numberFormat(lang);
    for (const s of catalogue) {
      const others = Object.entries(NAMES).filter(([k]) => k !== s.service).map(([, name]) => name);
      for (const policy of policies) {
        const run = runOf(s.id, policy);
        for (const e of run.events) {
          const text = describeEvent(e, run, d, num);
          assert.ok(!text.startsWith(`${e.actor}: ${e.kind}`), `${lang} ${s.id}: no words for ${e.kind}`);
          for (const name of others) {
            assert.ok(!text.includes(name), `${lang} ${s.id} ${policy}: “${text}” names ${name}`);
          }
        }
      }
    }
  }
});

// A lock without a TTL (a session's) has no end by the client's own reckoning: a check of it says so,
// never the engine's "forever" (near i64::MAX µs) as a number of milliseconds left.
test('no event shows an impossible number (a check on a lock without a TTL says it has no end)', () => {
  for (const lang of ['en', 'bn']) {
    const d = dicts[lang];
    const num = numberFormat(lang);
    for (const s of catalogue) {
      for (const policy of policies) {
        const run = runOf(s.id, policy);
        for (const e of run.events) {
          const text = describeEvent(e, run, d, num);
          // Runs of digits with their group separators: a time, a token (32-bit RVNs at most) or a count.
          for (const n of text.match(/\p{Nd}[\p{Nd},.\u00a0]*/gu) || []) {
            const digits = n.replace(/[^\p{Nd}]/gu, '').length;
            assert.ok(digits <= 12, `${lang} ${s.id} ${policy}: “${text}” shows ${n}`);
          }
        }
      }
    }
  }
});
