// Benchmark (not a test): the page as a reader's browser loads it. In headless Chromium against dist/
// (served gzipped, as any static host does), each load in a fresh browser context (empty cache):
//   page_kib          what the lab page transfers (every request, headers included), unthrottled;
//   page_requests     how many requests that is;
//   phone_verdict_ms  navigation start → the lab's first verdict on screen, on a phone-class profile
//                     (Chromium's CDP throttling: CPU 4× slower, 150 ms round trip, 1.6 Mbit/s each way);
//   phone_docs_verdict_ms  the same for the docs example, until both of its <lease-lab> embeds show one.
//   phone_fences_verdict_ms  the same for examples/docs-fences.html, the docs example written as
//                    ```leaselab fences, until two of its labs show one (its two catalogue labs);
//   phone_fences_own_verdict_ms  … until all three do: the third, a scenario of the page's own, runs on
//                    the user-scenario wasm (parsed and tried in a worker first).
// Medians of RUNS loads. Prints one `name value` line per figure.
//   node www/tests/phone-bench.mjs        (after `bash tools/build-web.sh`)
import { setup } from './helpers.mjs';

const RUNS = Number(process.env.PHONE_RUNS || 3);
/** The profile the issue names: a mid-range phone on a slow mobile network. */
export const PHONE = { cpu: 4, latencyMs: 150, bitsPerS: 1.6e6 };

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

/**
 * Runs in the page before any of its scripts: stamps the first animation frame at which every lab on
 * it (the page's), or `want` of its <lease-lab>s (in their shadow roots), show a verdict, as ms from
 * navigation start.
 */
function watchVerdicts(want) {
  const shown = (root) => root && root.querySelector('[data-testid=outcome][data-outcome]');
  const check = (t) => {
    const hosts = [...document.querySelectorAll('lease-lab')];
    const done = hosts.length ? hosts.filter((h) => shown(h.shadowRoot)).length >= want : shown(document);
    if (done) window.__verdictMs = t;
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/**
 * One load of `url` in a fresh context: { kib, requests, verdictMs }. With `phone`, the CPU and network
 * are throttled (set through CDP before navigating); `want` is how many labs must show a verdict.
 */
export async function load(browser, url, { phone = false, want = 1 } = {}) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (phone) {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpu });
    const bytesPerS = PHONE.bitsPerS / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE.latencyMs,
      downloadThroughput: bytesPerS,
      uploadThroughput: bytesPerS,
    });
  }
  let bytes = 0;
  const urls = [];
  cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
  cdp.on('Network.requestWillBeSent', (e) => urls.push(e.request.url));
  await page.addInitScript(watchVerdicts, want);
  await page.goto(url);
  await page.waitForFunction(() => window.__verdictMs !== undefined, null, { timeout: 60_000 });
  const verdictMs = await page.evaluate(() => window.__verdictMs);
  // Whatever the page still fetches after its verdict (a font, a late module) counts towards its weight.
  await page.waitForLoadState('networkidle');
  await context.close();
  return { kib: bytes / 1024, requests: urls.length, urls, verdictMs };
}

/** RUNS loads of each kind; returns the medians. */
export async function measure(browser, base) {
  const plain = [];
  const lab = [];
  const docs = [];
  const fences = [];
  const own = [];
  for (let i = 0; i < RUNS; i++) {
    plain.push(await load(browser, base));
    lab.push((await load(browser, base, { phone: true })).verdictMs);
    docs.push((await load(browser, `${base}examples/docs-page.html`, { phone: true, want: 2 })).verdictMs);
    fences.push((await load(browser, `${base}examples/docs-fences.html`, { phone: true, want: 2 })).verdictMs);
    own.push((await load(browser, `${base}examples/docs-fences.html`, { phone: true, want: 3 })).verdictMs);
  }
  return {
    page_kib: median(plain.map((r) => r.kib)),
    page_requests: median(plain.map((r) => r.requests)),
    phone_verdict_ms: median(lab),
    phone_docs_verdict_ms: median(docs),
    phone_fences_verdict_ms: median(fences),
    phone_fences_own_verdict_ms: median(own),
    urls: plain[0].urls,
  };
}

if (process.argv[1] && process.argv[1].endsWith('phone-bench.mjs')) {
  const env = await setup();
  try {
    const m = await measure(env.browser, env.url);
    console.log(`page_kib ${m.page_kib.toFixed(1)}`);
    console.log(`page_requests ${m.page_requests}`);
    console.log(`phone_verdict_ms ${Math.round(m.phone_verdict_ms)}`);
    console.log(`phone_docs_verdict_ms ${Math.round(m.phone_docs_verdict_ms)}`);
    console.log(`phone_fences_verdict_ms ${Math.round(m.phone_fences_verdict_ms)}`);
    console.log(`phone_fences_own_verdict_ms ${Math.round(m.phone_fences_own_verdict_ms)}`);
    if (process.env.VERBOSE) console.log(m.urls.map((u) => u.slice(env.url.length)).join('\n'));
  } finally {
    await env.close();
  }
}
