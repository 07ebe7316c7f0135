// Unit tests of which keys a lab keeps from its host page (www/playback.js), under plain Node: the
// decision is a pure function of the key event. The browser half (a host page's own listener) is in
// www/tests/host.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyRole } from '../../playback.js';

const LAB = { '.': 1, ',': -1 };
const div = { tagName: 'DIV' };
const range = { tagName: 'INPUT', type: 'range' };
const checkbox = { tagName: 'INPUT', type: 'checkbox' };
const select = { tagName: 'SELECT' };
const button = { tagName: 'BUTTON' };
const textarea = { tagName: 'TEXTAREA' };
const ev = (key, target, mods = {}) => ({ key, target, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });

test('the lab’s shortcuts are its own wherever they do not type into a control', () => {
  for (const t of [div, button, range, checkbox]) {
    assert.deepEqual(keyRole(ev('.', t), LAB), { action: 1 }, t.tagName);
    assert.deepEqual(keyRole(ev(',', t), LAB), { action: -1 }, t.tagName);
  }
  // A layout that needs Shift for "," or "." still steps.
  assert.deepEqual(keyRole(ev('.', div, { shiftKey: true }), LAB), { action: 1 });
});

test('keys a focused control acts on stop at the lab, without losing their default action', () => {
  for (const k of ['ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp']) assert.deepEqual(keyRole(ev(k, range), LAB), { own: true }, k);
  for (const k of ['ArrowDown', 'n', ',', 'Enter']) assert.deepEqual(keyRole(ev(k, select), LAB), { own: true }, `select ${k}`);
  for (const k of [' ', 'Enter']) assert.deepEqual(keyRole(ev(k, button), LAB), { own: true }, `button ${k}`);
  assert.deepEqual(keyRole(ev(' ', checkbox), LAB), { own: true });
  for (const k of ['n', '.', '/']) assert.deepEqual(keyRole(ev(k, textarea), LAB), { own: true }, `typing ${k}`);
});

test('keys the lab does not act on pass through to the host', () => {
  for (const k of ['Tab', 'Escape', 'n', 'p', '/', 's', 'ArrowRight', 'constructor']) assert.equal(keyRole(ev(k, button), LAB), null, k);
  assert.equal(keyRole(ev('n', div), LAB), null);
  // With a modifier, even the lab's keys are the browser's or the host's (Ctrl+. , Alt+,).
  for (const mod of ['ctrlKey', 'altKey', 'metaKey']) assert.equal(keyRole(ev('.', div, { [mod]: true }), LAB), null, mod);
});

test('the lessons’ ←/→: theirs on a button, the slider’s on a slider, never with Shift', () => {
  const LESSON = { ArrowRight: 1, ArrowLeft: -1 };
  assert.deepEqual(keyRole(ev('ArrowRight', button), LESSON), { action: 1 });
  assert.deepEqual(keyRole(ev('ArrowLeft', div), LESSON), { action: -1 });
  assert.deepEqual(keyRole(ev('ArrowRight', range), LESSON), { own: true });
  assert.equal(keyRole(ev('ArrowRight', div, { shiftKey: true }), LESSON), null);
});
