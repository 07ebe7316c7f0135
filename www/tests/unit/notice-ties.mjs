// What the layout's unit tests check of a library notice's note (www/layout.js, noteItems): that it
// reads as its diamond's. Either its anchored end lies at the diamond — it starts just after the
// diamond's centre or, flipped near the right edge, ends just before it, anchored at that end so that
// the glyphs' real width (narrower than the layout's measure) cannot leave it short — or it is too
// wide for either side and a leader runs from the diamond down to the note's top, crossing no other
// note. Shared by layout.test.mjs (every catalogue scenario) and library-marks.test.mjs (hand-made runs).
import assert from 'node:assert/strict';

/** Half a diamond's width (service-marks.js): an anchored end within it touches the diamond. */
const HALF_W = 5;
const meets = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Checks every notice's note of layout `L` (`what` names it in a failure); returns how many had a leader. */
export function checkNoticeTies(L, what) {
  assert.equal(L.tied.length, L.notices.length, `${what}: a note for each diamond`);
  let leaders = 0;
  for (const t of L.tied) {
    const diamond = L.notices.find((n) => n.event === t.event);
    assert.ok(diamond && Math.abs(diamond.x + diamond.w / 2 - t.x) < 1e-9, `${what}: the note at ${t.x} has its diamond there`);
    const at = `${what}: the note of the diamond at ${t.x} (${t.lane})`;
    if (!t.leader) {
      // Its anchored end is the note's end nearest the diamond, within the diamond's half width.
      const want = t.anchor === 'end' ? t.box.x + t.box.w : t.box.x;
      assert.ok(Math.abs(t.edge - want) < 1e-6, `${at}: anchored at its ${t.anchor}`);
      assert.ok(Math.abs(t.edge - t.x) <= HALF_W, `${at}: its ${t.anchor} at ${t.edge} does not touch the diamond`);
      assert.equal(t.anchor === 'end', t.edge < t.x, `${at}: a note before its diamond is anchored at its end`);
      continue;
    }
    leaders++;
    const { x1, x2, y1, y2 } = t.leader;
    assert.ok(x1 === t.x && x2 === t.x && y1 >= diamond.y + diamond.h && y2 === t.box.y, `${at}: the leader runs from the diamond down to the note`);
    assert.ok(t.box.x - 3 <= t.x && t.x <= t.box.x + t.box.w, `${at}: the leader lands on the note`);
    assert.match(t.leader.class, /^leader n-(bad|notice)$/, `${at}: the leader in the note's colour`);
    const line = { x: t.x - 0.5, y: y1, w: 1, h: y2 - y1 };
    for (const l of L.labels) if (l.box !== t.box) assert.ok(!meets(line, l.box), `${at}: its leader crosses "${l.text}"`);
  }
  return leaders;
}
