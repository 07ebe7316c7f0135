#!/usr/bin/env bash
# tools/service-sizes.sh — what each lock service costs the full wasm, gzipped: the full build (every
# service) against the full build without that one service's cargo feature, each built as
# tools/build-web.sh builds the full wasm (opt-level and wasm-opt flags from wasm-pack.toml). Prints
# figures, fails on nothing: `make size-services` (a build per service: minutes, so not in `make test`).
# The services are the cargo features of crate/Cargo.toml's default set.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
level=$(bash tools/webcfg.sh opt_level)
wasm_opt=$(bash tools/webcfg.sh wasm_opt_bin)
read -r -a opt <<<"$(bash tools/webcfg.sh wasm_opt_flags)"
[ -x "$wasm_opt" ] || { echo "service-sizes: $wasm_opt missing; run tools/setup.sh web first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The gzipped size of the full wasm built with these cargo arguments.
full_gz() {
  CARGO_PROFILE_RELEASE_OPT_LEVEL=$level wasm-pack --quiet build crate --release --target web \
    --out-dir "$work/pkg" --out-name s --no-typescript --no-pack -- "$@" >/dev/null
  "$wasm_opt" "${opt[@]}" "$work/pkg/s_bg.wasm" -o "$work/s.wasm"
  gzip -9 -c "$work/s.wasm" | wc -c
}

defaults=$(sed -n 's/^services = \[\(.*\)\]$/\1/p' crate/Cargo.toml | tr -d '" ' | tr ',' ' ')
all=$(full_gz --no-default-features --features services)
echo "full_wasm_gzip_bytes: $all B (every service)"
for s in $defaults; do
  others=$(printf '%s\n' $defaults | grep -vx "$s" | paste -sd, -)
  without=$(full_gz --no-default-features --features "$others")
  echo "service_gzip_bytes $s: $((all - without)) B"
done
