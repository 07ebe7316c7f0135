// A <lease-lab>'s own scenario tried off the page's main thread (user-scenario.js sends it here): the
// text parsed and run once at its defaults by the user wasm. A text that runs into the event limit
// takes most of a second to get there; here that second never freezes the page around the element.
// Requests are answered in the order they came (each run is synchronous).
//   in:  {id, text}
//   out: {id, parsed: {scenario} or {errors: [...]}, runError?: string} or {id, error}
import init, { parseScenario, Simulation } from './pkg/leaselab_user.js';

const ready = init();

/** The parser's answer for `text`, and the message of its run at defaults if that run fails (a limit). */
function tryText(text) {
  const parsed = JSON.parse(parseScenario(text));
  if (parsed.errors) return { parsed };
  try {
    const sim = Simulation.fromText(text);
    try {
      sim.runJson();
    } finally {
      sim.free();
    }
  } catch (e) {
    return { parsed, runError: String((e && e.message) || e) };
  }
  return { parsed };
}

self.onmessage = async ({ data: { id, text } }) => {
  try {
    await ready;
    self.postMessage({ id, ...tryText(text) });
  } catch (e) {
    self.postMessage({ id, error: String((e && e.message) || e) });
  }
};
