// matrix.html's Web Worker (a module worker; the page starts one per core, matrix-live.js): computes
// safety-table cells one at a time with the wasm built with `table` (pkg/leaselab_mc.js, explore's)
// — each cell the exact search `leaselab matrix` runs natively. The page cancels by terminating it.
//   in:  {id, service, fault, fencing}
//   out: {id, table: the JSON of `leaselab matrix --json` for that one cell} | {id, error: message}
import init, { matrixTable } from './pkg/leaselab_mc.js';

const ready = init();

onmessage = async (e) => {
  const { id, service, fault, fencing } = e.data;
  try {
    await ready;
    postMessage({ id, table: JSON.parse(matrixTable(service, fault, fencing)) });
  } catch (err) {
    postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
