// The safety table computed in this browser: a queue of cells (longest first, matrix-data.js's
// liveQueue) shared by one module Web Worker per core (matrix-worker.js, each loading explore's wasm),
// each worker taking the next cell as it finishes one, so the cores stay busy to the end. Cells are
// handed back as they finish; Cancel terminates the workers at once.
import { startWorker } from './worker-start.js';

/** How many workers: one per core the browser reports, at least 1, at most 8. */
export const workerCount = () => Math.max(1, Math.min(8, Number(globalThis.navigator?.hardwareConcurrency) || 1));

/**
 * Computes `jobs` ([{service, fault, fencing}]) on `workers` workers. `onCell(cell, bounds)` gets
 * each finished cell with its row's bounds. Returns { done: a promise of { cancelled, done, total },
 * rejected on a worker's error; cancel() }. Throws at once where no worker can start.
 */
export function computeLive(jobs, { workers = workerCount(), onCell }) {
  const total = jobs.length;
  const pool = [];
  let next = 0;
  let finished = 0;
  let settle;
  const done = new Promise((resolve, reject) => (settle = { resolve, reject }));
  const stop = () => pool.forEach((w) => w.terminate());
  const feed = (w) => {
    if (next < total) {
      const j = jobs[next];
      w.postMessage({ id: next++, service: j.service, fault: j.fault, fencing: j.fencing });
    }
  };
  try {
    for (let i = 0; i < Math.min(workers, Math.max(total, 1)); i++) pool.push(startWorker(new URL('./matrix-worker.js', import.meta.url)));
  } catch (e) {
    stop();
    throw e;
  }
  for (const w of pool) {
    w.onmessage = (e) => {
      const { error, table } = e.data;
      if (error !== undefined) {
        stop();
        settle.reject(new Error(error));
        return;
      }
      for (const cell of table.cells) onCell(cell, table.bounds[cell.service]);
      finished += 1;
      if (finished === total) {
        stop();
        settle.resolve({ cancelled: false, done: finished, total });
      } else feed(w);
    };
    w.onerror = (e) => {
      stop();
      settle.reject(new Error(e.message || 'a worker failed to start'));
    };
    feed(w);
  }
  if (!total) settle.resolve({ cancelled: false, done: 0, total });
  return {
    done,
    cancel() {
      stop();
      settle.resolve({ cancelled: true, done: finished, total });
    },
  };
}
