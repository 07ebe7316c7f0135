// Probability mode's Web Worker (a module worker): runs the Monte Carlo estimator of the wasm built with
// the `estimate` feature (pkg/leaselab_mc.js, not the page's wasm) in chunks of about CHUNK_MS, posting
// progress after each and yielding between them so a `cancel` message is seen at once.
//   in:  {type: 'run', id, args: [policy, ttlMs, retryMs, workMs, dist, a, b, ratePerS, seed], ops}
//        {type: 'cancel', id}
//   out: {type: 'progress' | 'done' | 'cancelled', id, result: [ops, lost, simulated, overRange, p, low, high, analytic]}
//        {type: 'error', id, message}
import init, { Estimator } from './pkg/leaselab_mc.js';

const CHUNK_MS = 20;
const ready = init();
let current = 0; // the id of the run in progress; a cancel or a new run changes it

const tick = () => new Promise((r) => setTimeout(r, 0));

async function run({ id, args, ops }) {
  current = id;
  await ready;
  const est = new Estimator(...args);
  try {
    let done = 0;
    let chunk = 10000;
    while (done < ops) {
      if (current !== id) return post('cancelled', id, est);
      const n = Math.min(chunk, ops - done);
      const t0 = performance.now();
      est.step(n);
      done += n;
      const dt = performance.now() - t0;
      // Aim each chunk at CHUNK_MS, growing at most fourfold at a time (the cost per operation varies).
      chunk = Math.max(1000, Math.min(chunk * 4, Math.round((n * CHUNK_MS) / Math.max(dt, 0.5))));
      post('progress', id, est);
      await tick();
    }
    post('done', id, est);
  } finally {
    est.free();
  }
}

function post(type, id, est) {
  postMessage({ type, id, result: Array.from(est.result()) });
}

onmessage = (e) => {
  const m = e.data;
  if (m.type === 'cancel') {
    if (current === m.id) current = 0;
  } else if (m.type === 'run') {
    run(m).catch((err) => postMessage({ type: 'error', id: m.id, message: String(err && err.message ? err.message : err) }));
  }
};
