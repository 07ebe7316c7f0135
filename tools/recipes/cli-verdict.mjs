// The verdict a fence's lab must show, from the native CLI and not from a table: `leaselab run` on the
// fence's catalogue scenario, or `leaselab run --file` on its scenario of one's own, with the fencing and
// the ttl/pause the fence sets. `leaselab run` exits 1 when an update was lost, 0 when not, 2 on bad input.
import { existsSync } from 'node:fs';
import { CLI, runCli } from '../../www/tests/helpers.mjs';

// The same binary the e2e tests ask (CARGO_TARGET_DIR respected), which `make test-recipes` builds.
export { CLI };
/** Fence attributes that are `leaselab run` options of the same name; the rest only dress the lab. */
const RUN_OPTIONS = ['ttl', 'pause', 'fencing'];

/** The arguments of `leaselab run` for a fence (fenceParts), and the file its scenario goes in, if any. */
export function runArgs(parts, file) {
  const args = ['run'];
  if (parts.scenario != null) args.push('--file', file);
  else args.push('--scenario', parts.attrs.scenario || 'seed-gc-pause');
  for (const name of RUN_OPTIONS) if (parts.attrs[name] != null) args.push(`--${name}`, parts.attrs[name]);
  return args;
}

/** 'lost-update' or 'safe', as `leaselab run` says for the fence; an Error for anything else (the
 * e2e tests' runCli runs it). */
export function cliVerdict(parts) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it with cargo build --release -p leaselab`);
  return runCli((file) => runArgs(parts, file), parts.scenario).lost ? 'lost-update' : 'safe';
}
