// Benchmark (not a test): slider input → re-simulated and re-rendered, and navigation → verdict shown,
// in headless Chromium against dist/. Prints one `name: value unit` line per figure.
//   node www/tests/bench.mjs        (after `bash tools/build-web.sh`)
import { setup, openPage } from './helpers.mjs';

const INPUTS = 300;
const NAVIGATIONS = 12;

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const print = (name, v, unit) => console.log(`${name}: ${v.toFixed(2)} ${unit}`);

const env = await setup();
try {
  const { page, context } = await openPage(env.browser);
  await page.goto(env.url);
  await page.locator('[data-testid=outcome][data-outcome]').waitFor();
  // Each sample: set the Pause slider, dispatch `input`, and time until the handler has re-simulated
  // and rebuilt the DOM (synchronous), then until the next frame has been produced.
  const samples = await page.evaluate(async (n) => {
    const el = document.querySelector('#pause');
    const box = document.querySelector('[data-testid=outcome]');
    const lo = Number(el.min);
    const hi = Number(el.max);
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const dom = [];
    const toFrame = [];
    let flips = 0;
    for (let i = 0; i < n; i++) {
      const v = Math.round(lo + ((hi - lo) * ((i * 37) % n)) / (n - 1));
      const before = box.dataset.outcome;
      const t0 = performance.now();
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      const t1 = performance.now();
      await frame();
      toFrame.push(performance.now() - t0);
      dom.push(t1 - t0);
      if (box.dataset.outcome !== before) flips++;
    }
    return { dom, toFrame, flips };
  }, INPUTS);
  print('slider_rerender_median_ms', quantile(samples.dom, 0.5), 'ms');
  print('slider_rerender_p95_ms', quantile(samples.dom, 0.95), 'ms');
  print('slider_to_next_frame_median_ms', quantile(samples.toFrame, 0.5), 'ms');
  console.log(`slider_inputs: ${INPUTS} inputs (${samples.flips} verdict flips)`);
  await context.close();

  // Navigation: from navigation start to the moment the page marks its first verdict.
  const nav = [];
  for (let i = 0; i < NAVIGATIONS; i++) {
    const { page: p, context: c } = await openPage(env.browser);
    await p.goto(env.url);
    await p.locator('[data-testid=outcome][data-outcome]').waitFor();
    nav.push(await p.evaluate(() => performance.getEntriesByName('leaselab:verdict')[0].startTime));
    await c.close();
  }
  print('navigation_to_verdict_median_ms', quantile(nav, 0.5), 'ms');
  print('navigation_to_verdict_max_ms', Math.max(...nav), 'ms');
} finally {
  await env.close();
}
