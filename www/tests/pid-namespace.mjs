// A PID namespace around a browser or a driver, so that nothing it starts outlives it: the engine smoke
// suite's drivers (engines/webdriver.mjs) and every headless Chromium the tests launch (helpers.mjs's
// launch(): Chromium's crash handler outlived each browser, adopted by pid 1).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * `[command, args]` to run `command args` in a PID namespace of its own, when this machine lets us make
 * one (util-linux's unshare; root, as `make test` is here), else unchanged. Why: a driver's tree
 * (xvfb-run → WebKitWebDriver → MiniBrowser → WebKit's web and network processes) dies together when
 * its group is stopped, and a process whose parent died first is adopted by pid 1 — which in a container
 * may not reap it (zombies that outlive the suite). In the namespace, orphans are adopted by its first
 * process, a shell that waits for `command`; when that shell ends (`command` done, or the group's
 * SIGTERM, which it traps), the kernel kills and reaps whatever is left in the namespace. unshare (our
 * child, reaped by Node) ignores the SIGTERM and waits for the shell; `--kill-child` takes the namespace
 * down if unshare itself is killed. `command` is not the namespace's first process because a first
 * process gets no signal it does not handle, and xvfb-run waits for Xvfb's "ready" signal, which Xvfb
 * does not send to a parent with pid 1.
 */
export function inPidNamespace(command, args) {
  canUnshare ??= spawnSync('unshare', [...UNSHARE, 'true'], { stdio: 'ignore' }).status === 0;
  return canUnshare ? ['unshare', [...UNSHARE, 'sh', '-c', NAMESPACE_INIT, 'namespace-init', command, ...args]] : [command, args];
}
const UNSHARE = ['--pid', '--fork', '--kill-child'];
const NAMESPACE_INIT = 'trap "exit 143" TERM INT HUP; "$@" & wait $!';
let canUnshare = null;

/**
 * An executable that runs `binary` as inPidNamespace does, for a launcher that takes a path and no
 * command prefix (playwright's executablePath): a two-line script in a temporary folder, removed when
 * this process exits. `binary` itself where no namespace can be made.
 */
export function inPidNamespaceExecutable(binary) {
  const [command, args] = inPidNamespace(binary, []);
  if (command === binary) return binary;
  scriptDir ??= mkdtempSync(join(tmpdir(), 'leaselab-pidns-'));
  const script = join(scriptDir, basename(binary));
  const quote = (word) => `'${word.replaceAll("'", `'\\''`)}'`;
  writeFileSync(script, `#!/bin/sh\nexec ${[command, ...args].map(quote).join(' ')} "$@"\n`, { mode: 0o755 });
  return script;
}
let scriptDir = null;
process.on('exit', () => scriptDir && rmSync(scriptDir, { recursive: true, force: true }));
