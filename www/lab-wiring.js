// The lab's controls wired to its state: the settings (each writes the state and re-runs), sharing,
// the player and printing. Functions of a Lab (lab.js), which calls them once from its wire(); kept
// apart so the controller's own module holds its state and its runs.
import { fmt } from './i18n.js';
import { scopeKeys } from './playback.js';
import { defaultsOf, resetOf } from './settings.js';
import * as view from './view.js';

// The width the diagram is laid out at for paper: an A4 or Letter page's text column at 96 px to the
// inch, less the lab's own padding (the layout's full-size labels, 12.5 px, print at about 9 pt).
const PRINT_WIDTH_PX = 640;

/** The settings' controls: each writes the state and re-runs. */
export function wireSettings(lab) {
  const { $, state } = lab;
  const on = (id, type, fn) => $(id).addEventListener(type, fn);
  on('ttl', 'input', (e) => {
    state.ttl = Number(e.target.value);
    lab.changed();
  });
  on('pause', 'input', (e) => {
    state.pause = Number(e.target.value);
    lab.changed();
  });
  const settled = () => lab.o.onChange && lab.o.onChange(true);
  for (const id of ['ttl', 'pause', 'extra-list']) on(id, 'change', settled);
  // The scenario's own extra sliders (rebuilt per scenario): one listener on their container.
  on('extra-list', 'input', (e) => {
    if (!e.target.dataset.param) return;
    state.extra[e.target.dataset.param] = Number(e.target.value);
    lab.changed();
  });
  on('compare', 'toggle', (e) => {
    state.sideBySide = e.target.open;
    lab.changed();
  });
  const choice = (id, set) =>
    on(id, 'change', (e) => {
      set(e.target);
      lab.changed({ now: true });
    });
  // As often as the catalogue's `+retry` expectations say (the crate's EXPECT_RETRIES, via start.json).
  choice('retries', (t) => (state.retries = t.checked ? lab.core.retriesOn : 0));
  choice('naive', (t) => (state.naive = t.checked));
  choice('fencing', (t) => (state.fencing = t.value));
  choice('scenario', (t) => {
    state.scenario = t.value;
    const s = lab.cat[state.scenario];
    Object.assign(state, defaultsOf(s), { naive: Boolean(s.naive) });
  });
  on('compare-policy', 'change', (e) => {
    state.compare = e.target.value;
    lab.changed();
  });
  on('reset', 'click', () => {
    Object.assign(state, resetOf(lab.cat[state.scenario]));
    view.fillSelects(lab.v, lab.snapshot());
    lab.changed({ now: true });
  });
  on('lang', 'change', (e) => lab.switchLang(e.target.value).catch((err) => lab.showError(err)));
  on('notice-close', 'click', () => {
    $('notice').hidden = true;
    // The button vanishes; keep focus in the lab, at its first control that is shown.
    const first = [...lab.root.querySelectorAll('#lab select, #lab input, #lab button, #lab summary')].find((x) => x.offsetParent);
    if (first) first.focus();
  });
}

/** Copy link, copy snippets, export. */
export function wireShare(lab) {
  const { $, state } = lab;
  const on = (id, type, fn) => $(id).addEventListener(type, fn);
  on('copy-link', 'click', () => {
    if (lab.o.onChange) lab.o.onChange(true);
    let href = '';
    try {
      href = lab.o.link();
    } catch {
      // a sandboxed iframe may refuse access to location
    }
    return lab.share(() => href, lab.d.copied, lab.d.copyByHand);
  });
  for (const [id, kind] of [['copy-embed', 'element'], ['copy-iframe', 'iframe']]) {
    on(id, 'click', () => lab.share((m) => lab.embed(m, kind), lab.d.snippetCopied, lab.d.copySnippetByHand));
  }
  for (const b of lab.root.querySelectorAll('button.export')) {
    b.addEventListener('click', async () => {
      const base = `leaselab-${state.scenario}-${state.fencing}`;
      try {
        const { exportRun } = await import('./share.js');
        await exportRun(b.dataset.kind, lab.run, $('svg'), base);
        $('share-status').textContent = fmt(lab.d.exported, { kind: b.textContent });
      } catch (e) {
        $('share-status').textContent = e.message;
      }
    });
  }
}

/** The player: play/stop, step, scrub, speed, the keys, and the diagram's width. */
export function wirePlayer(lab) {
  const { $, playback } = lab;
  const on = (id, type, fn) => $(id).addEventListener(type, fn);
  on('play', 'click', () => {
    if (playback.on) playback.stop();
    else playback.start();
    playback.seek(playback.t);
  });
  on('next', 'click', () => playback.step(1));
  on('back', 'click', () => playback.step(-1));
  on('scrub', 'input', (e) => {
    playback.stop();
    playback.seek(Number(e.target.value));
  });
  on('speed', 'change', (e) => {
    playback.speed = Number(e.target.value);
  });
  // Keyboard shortcuts, scoped to this lab (never window): "." next event, "," previous event. They,
  // and the keys its controls act on, stop here: a docs site's own "," and "." must not fire too.
  scopeKeys($('lab'), { '.': 1, ',': -1 }, (dir) => playback.step(dir));
  // Re-lay the diagram out when its container changes width (it draws at 1 unit = 1 CSS pixel).
  // And when the diagram or its box changes size, whether it scrolls in its box (view.js).
  lab.resize = new ResizeObserver((entries) => {
    view.markScrolling(lab.v);
    const entry = entries.find((e) => e.target === $('chart'));
    const w = Math.round(entry ? entry.contentRect.width : lab.width);
    if (lab.run && w > 0 && Math.abs(w - lab.width) >= 1) {
      lab.width = w;
      lab.renderDiagram();
      playback.seek(playback.t);
    }
  });
  lab.resize.observe($('chart'));
  lab.resize.observe($('svg'));
}

/**
 * On paper the diagram is laid out again at a print column's width (PRINT_WIDTH_PX), so its labels
 * print at their own size: drawn 1,130 px wide for a wide screen, it would be shrunk to about 60 % on
 * A4 (12.5 px labels printing at 5.6 pt). Browsers fire beforeprint before they lay the page out for
 * paper, and afterprint when done: then back to the screen's width. A diagram drawn narrower (a phone)
 * prints as drawn. Print events exist on window only; a lab no longer in the page ignores them.
 */
export function wirePrint(lab) {
  const relayout = (width) => {
    if (!lab.run || !lab.$('chart').isConnected || width === lab.width) return;
    lab.width = width;
    lab.renderDiagram();
    lab.playback.seek(lab.playback.t);
  };
  let screenWidth = 0;
  addEventListener('beforeprint', () => {
    screenWidth = lab.width;
    relayout(Math.min(lab.width, PRINT_WIDTH_PX));
  });
  addEventListener('afterprint', () => {
    if (screenWidth) relayout(screenWidth);
    screenWidth = 0;
  });
}
