// Which keys a lab keeps to itself. A lab sits inside someone else's page (a docs site), whose own
// shortcuts listen on document or window: MkDocs Material's "," and "." (previous and next page),
// mdBook's ← and →, search on "/" or "s". A key the lab acts on must not reach them, or stepping
// through the events leaves the page. Keys the lab does not act on pass through untouched, so the
// host's shortcuts still work while a button of the lab has focus.
//
// Pure: it reads a keydown event's key, modifiers and target and says what to do; lab.js and lesson.js
// act on the answer.

/** Keys a focused native control acts on itself (its default action): the host must not act too. */
const CONTROL_KEYS = {
  range: /^(Arrow(Left|Right|Up|Down)|Home|End|PageUp|PageDown)$/,
  // A menu also jumps to an option by its first letters (type-ahead).
  select: /^(Arrow(Left|Right|Up|Down)|Home|End|PageUp|PageDown| |Enter|.)$/u,
  toggle: /^ $/,
  button: /^( |Enter)$/,
  link: /^Enter$/,
};

/** The kind of control a key event's target is, for CONTROL_KEYS; 'text' for text entry; or null. */
function controlOf(t) {
  const tag = t && t.tagName;
  if (tag === 'TEXTAREA' || t?.isContentEditable) return 'text';
  if (tag === 'SELECT') return 'select';
  if (tag === 'BUTTON' || tag === 'SUMMARY') return 'button';
  if (tag === 'A') return 'link';
  if (tag !== 'INPUT') return null;
  if (t.type === 'range') return 'range';
  if (t.type === 'checkbox' || t.type === 'radio') return 'toggle';
  return 'text';
}

/**
 * What a lab does with a keydown event, given its shortcuts ({ key: action }, e.g. { '.': 'next' }):
 *  - { action } — a shortcut of the lab's: act, preventDefault and stopPropagation;
 *  - { own: true } — the focused control's own key (a slider's arrows, a menu's letters, text being
 *    typed): stopPropagation only, so the control still acts and the host does not;
 *  - null — not the lab's: let it through (Tab, Escape, the host's shortcuts on a button, Ctrl+…).
 * A shortcut does not fire where the focused control takes the key itself (a menu's type-ahead, typing).
 */
export function keyRole(e, shortcuts) {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  const kind = controlOf(e.target);
  if (kind === 'text') return { own: true };
  if (kind && CONTROL_KEYS[kind].test(e.key)) return { own: true };
  // Shift+arrow extends a selection: not a shortcut. (Shift may be how a layout types "," or ".".)
  const action = (e.shiftKey && e.key.length > 1) || !Object.hasOwn(shortcuts, e.key) ? undefined : shortcuts[e.key];
  return action ? { action } : null;
}

/**
 * Listens for keydown on `el` (the lab's own element: never window or document) and runs
 * `act(action, e)` for its shortcuts, keeping them and its controls' keys from the host page.
 */
export function scopeKeys(el, shortcuts, act) {
  el.addEventListener('keydown', (e) => {
    const role = keyRole(e, shortcuts);
    if (!role) return;
    e.stopPropagation();
    if (!role.action) return;
    e.preventDefault();
    act(role.action, e);
  });
}
