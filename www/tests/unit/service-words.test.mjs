// Unit tests of the lock services' own dictionaries (www/i18n/services/<id>.js) and their loader
// (i18n.js's loadServiceWords), under plain `node --test`. A service beyond the page's core has its
// words in a module of its own, loaded only when a run needs them; so each run must be fully worded by
// the main dictionary and its own service's words alone — no word of it may hide in another service's
// file. The runs are the real ones, from the lab's full wasm build (www/pkg, tools/build-web.sh).
import { test, before, mock } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { imp, loadFullBuild, runWith } from './full-build.mjs';

const i18n = await imp('i18n.js');
const { describeEvent, explainVerdict, safetyMargin } = await imp('explain.js');
const { layoutDiagram } = await imp('layout.js');
const { numberFormat, loadLang, loadServiceWords, orKeys, serviceWordsSettled, withServiceWords, ownKey } = i18n;

const DIR = fileURLToPath(new URL('../../i18n/services/', import.meta.url));
/** The dictionaries before any service's words are in them (later loads replace nested tables, never change them). */
const base = { en: { ...(await loadLang('en')) }, bn: { ...(await loadLang('bn')) } };

let pkg;
let catalogue;
let policies;

before(async () => {
  ({ pkg, catalogue, policies } = await loadFullBuild());
});

/** A service's module, by id, as the loader imports it. */
const wordsOf = async (id) => (await import(new URL(`${id}.js`, `file://${DIR}`).href)).default;

/** Every piece of text the lab shows for `run` in dictionary `d`: events, diagram labels, verdict, margin. */
function textsOf(run, s, d, lang) {
  const num = numberFormat(lang);
  const out = run.events.map((e) => ({ what: `event ${e.kind}`, text: describeEvent(e, run, d, num), e }));
  for (const width of [390, 1280]) {
    const L = layoutDiagram(run, { width, d, num, lang });
    for (const l of L.labels) out.push({ what: `label at ${width}px`, text: l.text });
    for (const lane of L.lanes) out.push({ what: 'lane name', text: lane.name });
    out.push({ what: 'diagram description', text: L.desc });
  }
  const v = explainVerdict(run, d, num);
  for (const t of [v.word, v.numbers, ...v.lines]) out.push({ what: 'verdict', text: t });
  for (const t of safetyMargin(run, d, num)) out.push({ what: 'margin', text: t });
  if (s.has_naive) for (const k of ['naiveLabel', 'noteNaive']) out.push({ what: k, text: d[ownKey(d, run, k)] });
  return out;
}

test('each run is worded by the main dictionary and its own service’s words alone, and the libraries’ for a library client (en, bn)', async () => {
  const libraries = (await imp('i18n/libraries.js')).default;
  for (const s of catalogue) {
    const own = serviceWordsSettled(s.service) && !existsSync(`${DIR}${s.service}.js`) ? null : await wordsOf(s.service);
    for (const lang of ['en', 'bn']) {
      const d0 = own ? withServiceWords(base[lang], own, lang) : base[lang];
      // A scenario whose client calls a lock library (engine "clients") is worded with i18n/libraries.js too.
      const d = s.engine === 'clients' ? withServiceWords(d0, libraries, lang) : d0;
      for (const policy of policies) {
        const run = runWith(pkg, s.id, policy);
        const texts = textsOf(run, s, d, lang);
        // As the lab reads its dictionary (missing words as keys): the same texts when none is missing.
        assert.deepEqual(textsOf(run, s, orKeys(d), lang), texts, `${lang} ${s.id} ${policy}: read through orKeys`);
        for (const { what, text, e } of texts) {
          const where = `${lang} ${s.id} ${policy}, ${what}`;
          assert.equal(typeof text, 'string', `${where}: no word`);
          assert.doesNotMatch(text, /undefined|\{\w+\}/, `${where}: “${text}”`);
          if (e) assert.ok(!text.startsWith(`${e.actor}: ${e.kind}`), `${where}: told by its key`);
        }
      }
    }
  }
});

test('a run whose service’s words did not load still draws, its missing words shown as their keys', () => {
  for (const s of catalogue) {
    const d = orKeys(base.en);
    const run = runWith(pkg, s.id, 'token');
    for (const { what, text } of textsOf(run, s, d, 'en')) {
      assert.equal(typeof text, 'string', `${s.id}, ${what}: no text`);
      assert.doesNotMatch(text, /undefined/, `${s.id}, ${what}: “${text}”`);
    }
  }
  assert.equal(orKeys(base.en).staleGrant, 'staleGrant');
  assert.equal(orKeys(base.en).lanes.node, 'node');
  assert.equal(orKeys(base.en).lanes.storage, base.en.lanes.storage, 'what it has, as it is');
  assert.ok(!('staleGrant' in orKeys(base.en)));
});

test('every service the catalogue runs beyond the core has a dictionary, and every dictionary a service', () => {
  const services = new Set(catalogue.map((s) => s.service));
  const files = readdirSync(DIR).map((f) => f.replace(/\.js$/, ''));
  for (const id of files) assert.ok(services.has(id), `i18n/services/${id}.js words no service of the catalogue`);
  for (const id of services) assert.ok(files.includes(id) || serviceWordsSettled(id), `${id}: no i18n/services/${id}.js`);
  assert.ok(files.length >= 8, `found only ${files.length}`);
});

test('a service’s dictionary has its words in English and Bengali, keyed for that service alone', async () => {
  const ids = readdirSync(DIR).map((f) => f.replace(/\.js$/, ''));
  for (const f of readdirSync(DIR)) {
    const id = f.replace(/\.js$/, '');
    const w = await wordsOf(id);
    assert.deepEqual(Object.keys(w).sort(), ['bn', 'en'], f);
    // Keys, not words, are the same in every language: Bengali has the rest, entry for entry.
    const keys = (o) => Object.entries(o).flatMap(([k, v]) => (k === 'ownWords' ? [] : typeof v === 'object' ? Object.keys(v).map((x) => `${k}.${x}`) : [k]));
    assert.deepEqual(keys(w.bn).sort(), keys(w.en).sort(), `${f}: Bengali lacks or adds words`);
    // Its tables are its own: its lane, its ownWords, its events' keys never another service's.
    for (const k of Object.keys(w.en.ownWords || {})) assert.equal(k, id, `${f}: ownWords.${k}`);
    for (const k of Object.keys(w.en.ev || {})) {
      const prefix = ids.find((x) => k.startsWith(`${x}-`));
      assert.ok(!prefix || prefix === id, `${f}: ev.${k} is another service’s`);
    }
  }
});

test('loadServiceWords puts the words into the dictionaries in use and into those loaded later', async () => {
  const id = readdirSync(DIR)[0].replace(/\.js$/, '');
  const w = await wordsOf(id);
  const lane = Object.keys(w.en.lanes)[0];
  const en = await loadLang('en');
  await loadServiceWords(id);
  assert.ok(serviceWordsSettled(id));
  assert.equal(en.lanes[lane], w.en.lanes[lane], 'the dictionary in use has them');
  assert.equal(base.en.lanes[lane], undefined, 'the main dictionary alone has not');
  const bn = await loadLang('bn');
  assert.equal(bn.lanes[lane], w.bn.lanes[lane], 'in the language switched to, its own words');
  assert.equal(bn.lanes.storage, base.bn.lanes.storage, 'the rest of the table kept');
});

test('a service with no dictionary (unknown id, bad id) is said on the console, and nothing throws', async () => {
  const warn = mock.method(console, 'warn', () => {});
  try {
    const en = await loadLang('en');
    const before = JSON.stringify(en);
    for (const id of ['no-such-service', '../i18n', 'Etc/passwd', '']) await loadServiceWords(id);
    assert.equal(JSON.stringify(en), before, 'the dictionary unchanged');
    assert.equal(warn.mock.callCount(), 3, 'one message per bad service (none for no service at all)');
    assert.match(warn.mock.calls[0].arguments[0], /no-such-service.*did not load/);
    assert.match(warn.mock.calls[1].arguments[0], /“\.\.\/i18n”: not a service id/);
    // Settled: the lab goes on (showing keys) instead of asking again and again.
    assert.ok(serviceWordsSettled('no-such-service'));
    await loadServiceWords('no-such-service');
    assert.equal(warn.mock.callCount(), 3, 'asked once');
  } finally {
    warn.mock.restore();
  }
});

test('the core services’ words are the main dictionary’s: nothing to load', () => {
  for (const s of catalogue.filter((x) => x.engine === 'core')) assert.ok(serviceWordsSettled(s.service), s.service);
});
