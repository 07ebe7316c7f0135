#!/usr/bin/env bash
# The engine's cost per run as an instruction count, which unlike a time is the same on a busy machine:
# callgrind runs examples/every_cell_once (the 256 × 256 seed sweep, every cell run event by event) and
# this prints the instructions per run (the total ÷ 65,536 runs; the setup is a few thousand).
# `make bench` runs it; valgrind comes from tools/setup.sh bench.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v valgrind >/dev/null; then
  echo "instructions: valgrind missing; run tools/setup.sh bench" >&2
  exit 1
fi
cargo build --release --quiet --example every_cell_once
bin="${CARGO_TARGET_DIR:-target}/release/examples/every_cell_once"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" >"$tmp/stdout" 2>"$tmp/stderr"
total=$(sed -n 's/^summary: \([0-9]*\)$/\1/p' "$tmp/cg.out")
runs=$(sed -n 's/^every_cell_runs: \([0-9]*\) runs.*/\1/p' "$tmp/stdout")
[ -n "$total" ] && [ -n "$runs" ] || { echo "instructions: no count from callgrind" >&2; cat "$tmp/stderr" >&2; exit 1; }
echo "every_cell_instructions: $total instructions ($runs runs)"
echo "instructions_per_run_native: $((total / runs)) instructions"
