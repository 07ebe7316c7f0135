// A reader's own scenario (a <lease-lab> with inline or src text, a fence) whose client calls a lock
// library: the user build has no client libraries, so the page says where such a text runs (the command
// line) instead of loading a build that would refuse it (www/user-scenario.js's libraryIn, issue 44).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imp } from './full-build.mjs';

const { libraryIn } = await imp('user-scenario.js');
const { loadLang, loadLibraryWords, fmt } = await imp('i18n.js');

test('a client line’s library= is found, wherever the line sets it; other lines and ids are not', () => {
  assert.equal(libraryIn('service: zookeeper session=2s\nclient A library=kazoo: acquire; owned; write 60\n'), 'kazoo');
  assert.equal(libraryIn('balance: 500\n  client B start=1s library=redis-py: acquire\n'), 'redis-py');
  assert.equal(libraryIn('client A: acquire; write 60\nclient B: acquire\n'), null);
  assert.equal(libraryIn('id: kazoo-is-acquired\nsummary: library=kazoo in a summary is prose\nclient A: acquire\n'), null);
  assert.equal(libraryIn('client A: acquire # library=kazoo after the colon is not the client’s setting\n'), null);
});

test('the message names the library and the command line, in English and Bengali (the libraries’ words)', async () => {
  await loadLibraryWords();
  for (const lang of ['en', 'bn']) {
    const d = await loadLang(lang);
    const said = fmt(d.scenarioNeedsLibraries, { lib: 'kazoo' });
    assert.ok(said.includes('library=kazoo') && said.includes('leaselab run --file'), `${lang}: ${said}`);
  }
  assert.notEqual((await loadLang('bn')).scenarioNeedsLibraries, (await loadLang('en')).scenarioNeedsLibraries);
});
