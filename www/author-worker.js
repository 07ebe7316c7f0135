// author.html's Web Worker (a module worker): runs the text's expectation lines off the main thread, so
// typing never waits for them — each is a run, and one that runs into the event limit takes most of a
// second. Only the newest text is checked: texts that arrive while a check runs replace each other.
//   in:  {seq, text}
//   out: {seq, checked: {"expects": [...]} or {"errors": [...]}} or {seq, error}
import init, { checkScenario } from './pkg/leaselab_user.js';

const ready = init();
let newest = null;
let scheduled = false;

async function checkNewest() {
  scheduled = false;
  await ready;
  const { seq, text } = newest;
  try {
    self.postMessage({ seq, checked: JSON.parse(checkScenario(text)) });
  } catch (e) {
    self.postMessage({ seq, error: String((e && e.message) || e) });
  }
}

self.onmessage = ({ data }) => {
  newest = data;
  // A task later, not now: messages queued behind a long check all arrive first, and only the last runs.
  if (!scheduled) {
    scheduled = true;
    setTimeout(checkNewest, 0);
  }
};
