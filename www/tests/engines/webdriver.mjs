// A small W3C WebDriver client over fetch, for the engine smoke suite (smoke.test.mjs): it starts a
// driver (geckodriver, WebKitWebDriver) on a free loopback port in a process group of its own, opens one
// session, runs scripts in the page, and stops the driver's whole group — browser, Xvfb and all — on close,
// on a failed test and on interruption; a PID namespace around each tree (../pid-namespace.mjs) reaps what its
// dying parents leave. No npm package: the few endpoints the suite needs fit here.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on loopback (the OS picks it; closed again before the driver binds it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Every driver's process group still running (its leader's pid → a promise of the leader's exit), so an
// interrupted run leaves nothing behind.
const groups = new Map();
const stopGroup = (pid, signal = 'SIGTERM') => {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
};
process.on('exit', () => {
  for (const pid of groups.keys()) stopGroup(pid, 'SIGKILL');
});
// Interrupted: SIGTERM each group and give its leader a moment to end and be reaped here (exiting at
// once would leave it to pid 1, which may never reap it), then SIGKILL what is left.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, async () => {
    for (const pid of groups.keys()) stopGroup(pid);
    await Promise.race([Promise.all(groups.values()), sleep(3000)]);
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}


const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `command args` (which must listen on `port`) and waits until its /status says ready. */
export async function startDriver(command, args, port, { readyMs = 30000 } = {}) {
  const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.set(child.pid, new Promise((resolve) => child.once('exit', resolve)));
  let log = '';
  const keep = (d) => {
    log = (log + d).slice(-4000); // the tail, for an error message
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  child.once('exit', (code, signal) => {
    exited = `${command} exited (${code ?? signal})`;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    stopGroup(child.pid);
    for (let i = 0; i < 50 && exited === null; i++) await sleep(100);
    stopGroup(child.pid, 'SIGKILL'); // what ignored SIGTERM (a browser's helper process)
    groups.delete(child.pid);
  };
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (exited) throw new Error(`${exited} before it was ready:\n${log}`);
    try {
      const r = await fetch(`${url}/status`);
      if ((await r.json()).value?.ready) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command} not ready after ${readyMs} ms:\n${log}`);
    }
    await sleep(100);
  }
  return { url, stop, log: () => log };
}

/** One WebDriver command; a WebDriver error becomes a thrown Error naming the command. */
async function command(base, method, path, body) {
  const r = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply = await r.json();
  if (!r.ok || reply.value?.error) throw new Error(`WebDriver ${method} ${path}: ${reply.value?.error}: ${reply.value?.message}`);
  return reply.value;
}

/** A new session on a started driver: navigate, run a script, size the window, close. */
export async function openSession(driver, capabilities) {
  const created = await command(driver.url, 'POST', '/session', { capabilities: { alwaysMatch: capabilities } });
  const base = `${driver.url}/session/${created.sessionId}`;
  await command(base, 'POST', '/timeouts', { script: 180000, pageLoad: 60000 });
  return {
    capabilities: created.capabilities,
    goto: (url) => command(base, 'POST', '/url', { url }),
    /** Runs `body` (a function body) in the page; a returned promise is awaited (WebDriver's rule). */
    execute: (body, args = []) => command(base, 'POST', '/execute/sync', { script: body, args }),
    setWindowRect: (rect) => command(base, 'POST', '/window/rect', rect),
    /** The viewport as PNG bytes. */
    screenshot: async () => Buffer.from(await command(base, 'GET', '/screenshot'), 'base64'),
    close: () => command(base, 'DELETE', ''),
  };
}
