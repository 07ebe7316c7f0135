// Unit tests of what the page shows of a client's lock library (www/service-marks.js, its words in
// www/i18n/libraries.js), under plain `node --test`: the library on the client's lane label, each
// notice as a diamond and a note on the lane, the listener's states worded by the library, the text
// alternative (the events' sentences, the diagram's description), in English and Bengali. The runs are
// fixtures written by hand in the run JSON's shape (docs/run-json.md: `libraries`, events of kind
// `notice`): a ZooKeeper run of kazoo's is_acquired trap and a redis run of redis-py's owned() asked
// before the pause, each from a real run of the engine with the library's events added.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { imp } from './full-build.mjs';
import { checkNoticeTies } from './notice-ties.mjs';

const { layoutDiagram } = await imp('layout.js');
const { describeEvent } = await imp('explain.js');
const { marksOf, libraryEventKey, misleads } = await imp('service-marks.js');
const { loadLang, loadServiceWords, loadLibraryWords, loadWordsFor, wordsSettledFor, numberFormat } = await imp('i18n.js');
const libraryWords = (await imp('i18n/libraries.js')).default;

const fixture = (name) => JSON.parse(readFileSync(new URL(`fixtures/${name}.json`, import.meta.url), 'utf8'));
const KAZOO = fixture('kazoo-is-acquired');
const REDIS_PY = fixture('redis-py-owned-before-pause');
const WIDTHS = [364, 390, 750, 1280];
const LANGS = ['en', 'bn'];
const dicts = {};

before(async () => {
  for (const lang of LANGS) dicts[lang] = await loadLang(lang);
  await Promise.all([loadServiceWords('zookeeper'), loadLibraryWords()]);
});

const layoutOf = (run, { width = 1280, lang = 'en' } = {}) => layoutDiagram(run, { width, d: dicts[lang], num: numberFormat(lang), lang });
const meets = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
/** The run without its library: what the engine gives without `library=`. */
const withoutLibraries = (run) => {
  const r = structuredClone(run);
  delete r.libraries;
  r.events = r.events.filter((e) => e.kind !== 'notice');
  return r;
};

test('the library words have the same keys in English and Bengali, and name each library’s calls once', () => {
  const keys = (o) => Object.keys(o).sort();
  assert.deepEqual(keys(libraryWords.bn), keys(libraryWords.en));
  assert.deepEqual(keys(libraryWords.bn.ev), keys(libraryWords.en.ev));
  assert.equal(libraryWords.bn.libraryCalls, libraryWords.en.libraryCalls, 'code is the same in every language');
  for (const lang of LANGS) assert.ok(new Map(dicts[lang].legend).get('notice'), `${lang}: a legend entry for the notices`);
  assert.notEqual(new Map(dicts.bn.legend).get('notice'), new Map(dicts.en.legend).get('notice'));
});

test('the client lane says which library it calls, and its version; a run without one is as before', () => {
  for (const lang of LANGS) {
    const names = layoutOf(KAZOO, { lang }).lanes.map((l) => l.name);
    assert.ok(names.some((n) => n.includes('A') && n.endsWith('· kazoo 2.11.0')), `${lang}: ${names}`);
    const plain = layoutOf(withoutLibraries(KAZOO), { lang }).lanes.map((l) => l.name);
    assert.ok(!plain.some((n) => n.includes('kazoo')), `${lang}: ${plain}`);
  }
});

test('kazoo: is_acquired → True after the session is gone, a hollow red diamond and a red note on A’s lane', () => {
  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const L = layoutOf(KAZOO, { lang, width });
      assert.deepEqual(L.notices.map((n) => [n.client, n.t, n.note, n.misleads]), [['A', 10000, 'owned-yes', true]], `${lang} ${width}`);
      const line = L.lanes.find((l) => l.key === 'A').line;
      assert.ok(L.notices[0].y < line && L.notices[0].y + L.notices[0].h > line, 'on A’s lane line');
      assert.ok(L.items.some((i) => i.tag === 'path' && i.attrs.class === 'notice bad'), 'drawn hollow and red');
      const note = L.labels.find((l) => l.text.startsWith('lock.is_acquired → True'));
      assert.ok(note, `${lang} ${width}: ${L.labels.map((l) => l.text)}`);
      assert.match(note.attrs.class, /n-bad/);
      // At a laptop's width the note says the lock is gone, in the reader's language.
      if (width >= 750) assert.equal(note.text, dicts[lang].noteOwnedYesStale.replace('{call}', 'lock.is_acquired').replace('{yes}', 'True'));
    }
  }
});

test('kazoo: its listener’s SUSPENDED and LOST are bands worded by kazoo, not Curator', () => {
  const L = layoutOf(KAZOO);
  assert.deepEqual(L.states.map((s) => [s.client, s.state, s.from, s.to]), [['A', 'suspended', 10001, 10101.5], ['A', 'lost', 10101.5, 10202]]);
  for (const lang of LANGS) {
    const events = KAZOO.events.filter((e) => ['suspended', 'lost', 'reconnected'].includes(e.kind));
    const said = events.map((e) => describeEvent(e, KAZOO, dicts[lang], numberFormat(lang)));
    for (const s of said) assert.ok(s.includes('kazoo') && !s.includes('Curator'), `${lang}: ${s}`);
    assert.ok(said[2].includes('CONNECTED'), `${lang}: kazoo's word for a connection back: ${said[2]}`);
  }
  // Bands long enough for words (4.5 s each): kazoo's name in them, not Curator's.
  const slow = { ...KAZOO, end_ms: 19500, events: KAZOO.events.map((e) => (e.kind === 'lost' ? { ...e, t_ms: 14500 } : e.kind === 'reconnected' ? { ...e, t_ms: 19000 } : e)) };
  for (const lang of LANGS) {
    const d = dicts[lang];
    const texts = layoutOf(slow, { lang }).labels.map((l) => l.text);
    // Bengali runs wider: where a band's words do not fit, it says its state alone (SUSPENDED).
    const named = ['libSuspendedBand', 'libLostBand'].filter((key) => texts.includes(d[key].replace('{lib}', 'kazoo')));
    assert.ok(lang === 'en' ? named.length === 2 : named.length >= 1, `${lang}: ${named} in ${texts}`);
    assert.ok(!texts.includes(d.suspendedBand) && !texts.includes(d.lostBand), `${lang}: not Curator's words`);
  }
});

test('redis-py: owned() → True before the pause is the truth (filled); release() raised LockNotOwnedError after the stale write', () => {
  for (const lang of LANGS) {
    const L = layoutOf(REDIS_PY, { lang });
    assert.deepEqual(L.notices.map((n) => [n.t, n.note, n.misleads]), [[0, 'owned-yes', false], [2000, 'release-raised', false]]);
    const owned = L.labels.find((l) => l.text === 'lock.owned() → True');
    assert.ok(owned && /n-notice/.test(owned.attrs.class), `${lang}: ${L.labels.map((l) => l.text)}`);
    const raised = L.labels.find((l) => l.text.includes('LockNotOwnedError'));
    assert.ok(raised && /n-bad/.test(raised.attrs.class) && raised.text.includes('lock.release()'), `${lang}: ${raised && raised.text}`);
    const write = REDIS_PY.events.findIndex((e) => e.kind === 'write-accepted' && e.actor === 'A');
    assert.ok(write < REDIS_PY.events.findIndex((e) => e.note === 'release-raised'), 'the exception comes after the stale write landed');
  }
});

test('no diamond meets a label, and no two labels overlap, at every width in either language', () => {
  for (const run of [KAZOO, REDIS_PY]) {
    for (const lang of LANGS) {
      for (const width of WIDTHS) {
        const L = layoutOf(run, { lang, width });
        for (const n of L.notices) for (const l of L.labels) assert.ok(!meets(n, l.box), `${run.scenario} ${lang} ${width}: diamond @${n.t} meets "${l.text}"`);
        const ls = L.labels;
        for (let i = 0; i < ls.length; i++) {
          for (let j = i + 1; j < ls.length; j++) assert.ok(!meets(ls[i].box, ls[j].box), `${run.scenario} ${lang} ${width}: "${ls[i].text}" overlaps "${ls[j].text}"`);
        }
      }
    }
  }
});

test('a notice’s note ends at its diamond where it is flipped to its left, anchored at that end', () => {
  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const L = layoutOf(KAZOO, { lang, width });
      assert.equal(checkNoticeTies(L, `kazoo ${lang} ${width}`), 0, 'no leader: each note touches its diamond');
      const [t] = L.tied;
      const note = L.labels.find((l) => l.box === t.box);
      // Near the right edge at a phone's and the lab's widths: flipped, and ending at the diamond
      // whatever width the browser gives its glyphs (the text's end is where it is anchored).
      if (width < 1280) assert.deepEqual([t.anchor, note.attrs['text-anchor'], note.attrs.x], ['end', 'end', t.x - 3], `${lang} ${width}`);
      else assert.deepEqual([t.anchor, note.attrs['text-anchor'], note.attrs.x], ['start', 'start', t.x + 3], `${lang} ${width}`);
    }
  }
});

test('a note too wide for either side of its diamond has a leader from the diamond, in its colour, crossing no other note', () => {
  // redis-py's exception moved to mid-run: at 600 px its Bengali note fits neither after nor before it.
  const mid = structuredClone(REDIS_PY);
  mid.events.find((e) => e.note === 'release-raised').t_ms = 1100;
  mid.events.sort((a, b) => a.t_ms - b.t_ms);
  const L = layoutOf(mid, { lang: 'bn', width: 600 });
  assert.equal(checkNoticeTies(L, 'redis-py mid-run bn 600'), 1);
  const leader = L.items.find((i) => i.tag === 'line' && i.attrs.class === 'leader n-bad');
  assert.ok(leader, 'drawn, in the exception’s red');
  assert.ok(L.items.indexOf(leader) < L.items.findIndex((i) => i.text && i.text.includes('LockNotOwnedError')), 'under the note’s halo');
  for (const width of WIDTHS) assert.equal(checkNoticeTies(layoutOf(mid, { lang: 'en', width }), `en ${width}`), 0, 'none where the note fits a side');
});

/** What each note needs from a library's calls to be worded. */
const NEEDS = { 'owned-yes': 'owned', 'owned-no': 'owned', 'release-raised': 'release', 'renewal-died': 'renewal', 'session-done': 'done', 'listener-ok': null, 'listener-lost': null };

test('every notice a library can give is worded in both languages, on the lane and in the events, with no placeholder left', () => {
  let n = 0;
  for (const [lib, calls] of Object.entries(libraryWords.en.libraryCalls)) {
    for (const [note, need] of Object.entries(NEEDS)) {
      if (need && !calls[need]) continue;
      for (const truth of note.startsWith('owned') ? [true, false] : [undefined]) {
        const e = { t_ms: 1500, actor: 'A', kind: 'notice', lane: 'client', note, library: lib, truth, raised: note === 'release-raised' ? 'SomeError' : undefined };
        const run = { ...REDIS_PY, libraries: { A: { name: lib, version: '1.0', speaks: 'redis' } }, events: [...REDIS_PY.events.filter((x) => x.kind !== 'notice'), e] };
        for (const lang of LANGS) {
          const sentence = describeEvent(e, run, dicts[lang], numberFormat(lang));
          const notes = layoutOf(run, { lang }).labels.filter((l) => /n-(bad|notice)/.test(l.attrs.class) && l.attrs.class.includes('ann'));
          for (const text of [sentence, ...notes.map((l) => l.text)]) assert.ok(!/[{}]|undefined|notice/.test(text), `${lib} ${note} ${lang}: ${text}`);
          assert.equal(notes.length, 1, `${lib} ${note} ${lang}: one note`);
          if (need) assert.ok(sentence.includes(calls[need]) && notes[0].text.includes(calls[need]), `${lib} ${note} ${lang}: names ${calls[need]}`);
          n++;
        }
      }
    }
  }
  assert.ok(n > 40, `${n} notices worded`);
});

test('a yes that is not the truth, a no that is not, a listener that heard nothing of a lost lock, and a renewal that died mislead the code; the rest do not', () => {
  // In the kazoo fixture A holds the lock from 0 until its session expires at 8 s.
  const at = (t, e) => ({ kind: 'notice', actor: 'A', t_ms: t, ...e });
  for (const e of [at(10000, { note: 'owned-yes', truth: false }), at(1000, { note: 'owned-no', truth: true }), at(10000, { note: 'renewal-died' }), at(10000, { note: 'listener-ok' })]) assert.ok(misleads(e, KAZOO), JSON.stringify(e));
  for (const e of [at(1000, { note: 'owned-yes', truth: true }), at(10000, { note: 'owned-no', truth: false }), at(10000, { note: 'release-raised' }), at(10000, { note: 'session-done' }), at(10000, { note: 'listener-lost' }), at(1000, { note: 'listener-ok' })]) assert.ok(!misleads(e, KAZOO), JSON.stringify(e));
  assert.equal(libraryEventKey(at(10000, { note: 'listener-ok' }), KAZOO), 'notice-listener-ok-stale');
  assert.equal(libraryEventKey(at(1000, { note: 'listener-ok' }), KAZOO), 'notice-listener-ok');
  assert.equal(libraryEventKey({ kind: 'notice', note: 'owned-yes', truth: false }, KAZOO), 'notice-owned-yes-stale');
  assert.equal(libraryEventKey({ kind: 'notice', note: 'owned-no', truth: true }, KAZOO), 'notice-owned-no-held');
  assert.equal(libraryEventKey({ kind: 'suspended', actor: 'A' }, KAZOO), 'library-suspended');
  assert.equal(libraryEventKey({ kind: 'suspended', actor: 'A' }, withoutLibraries(KAZOO)), null, 'Curator’s words for a client without a library');
});

test('the text alternative says which library each client calls and what the diamonds are; the legend shows them only then', () => {
  for (const lang of LANGS) {
    const d = dicts[lang];
    const notice = new Map(d.legend).get('notice');
    for (const run of [KAZOO, REDIS_PY]) {
      const desc = layoutOf(run, { lang }).desc;
      assert.ok(desc.includes(`A: ${run.libraries.A.name} ${run.libraries.A.version}`) && desc.includes(notice), `${lang}: ${desc}`);
      assert.ok(desc.startsWith(d.svgDesc));
    }
    assert.ok(layoutOf(KAZOO, { lang }).desc.includes(d.lanes.zookeeper), 'the service still named');
    const plain = layoutOf(withoutLibraries(REDIS_PY), { lang }).desc;
    assert.equal(plain, d.svgDesc, `${lang}: a run without a library is described as before`);
  }
  assert.deepEqual(marksOf(KAZOO), ['ka', 'queue', 'conn', 'notice']);
  assert.deepEqual(marksOf(withoutLibraries(KAZOO)), ['ka', 'queue', 'conn']);
});

test('the libraries’ words are loaded for a scenario on the libraries’ engine only, and settle once loaded', async () => {
  assert.ok(wordsSettledFor({ service: 'redis', engine: 'core' }));
  await loadWordsFor({ service: 'zookeeper', engine: 'clients' });
  assert.ok(wordsSettledFor({ service: 'zookeeper', engine: 'clients' }));
  for (const lang of LANGS) assert.equal((await loadLang(lang)).libraryCalls.kazoo.owned, 'lock.is_acquired', lang);
});
