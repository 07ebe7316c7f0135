#!/usr/bin/env bash
# Builds the wasm with wasm-pack and wasm-opt, then assembles dist/ (a static folder, index.html at its
# root). Every setting comes from wasm-pack.toml.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cfg() { bash tools/webcfg.sh "$1"; }

target=$(cfg target)
out_dir=$(cfg out_dir)
out_name=$(cfg out_name)
opt_level=$(cfg opt_level)
read -r -a opt_flags <<<"$(cfg wasm_opt_flags)"
mc_opt_level=$(cfg mc_opt_level)
read -r -a mc_opt_flags <<<"$(cfg mc_wasm_opt_flags)"
wasm_opt=$(cfg wasm_opt_bin)
[ -x "$wasm_opt" ] || { echo "build-web: $wasm_opt missing; run tools/setup.sh web" >&2; exit 1; }

# One wasm-pack build: NAME OUT_DIR OPT_LEVEL "WASM_OPT_FLAGS" [CARGO ARGS...], then wasm-opt.
build_wasm() {
  local name=$1 dir=$2 level=$3 flags=$4
  shift 4
  local -a opt
  read -r -a opt <<<"$flags"
  echo "build-web: wasm-pack $name (target $target, opt-level $level${*:+, $*})"
  CARGO_PROFILE_RELEASE_OPT_LEVEL=$level \
    wasm-pack --quiet build crate --release --target "$target" --out-dir "$root/$dir" \
    --out-name "$name" --no-typescript --no-pack -- "$@"
  local w="$dir/${name}_bg.wasm" before
  before=$(wc -c <"$w")
  "$wasm_opt" "${opt[@]}" "$w" -o "$w.opt"
  mv "$w.opt" "$w"
  echo "build-web: wasm-opt $name $before → $(wc -c <"$w") bytes"
}

# The lab page's first wasm: the core engine only (lease, session, redis: the seed's and most of the
# catalogue's services), so a reader of the seed downloads no more (crate/src/services/mod.rs).
build_wasm "$out_name" "$out_dir" "$opt_level" "${opt_flags[*]}" --no-default-features
wasm="$out_dir/${out_name}_bg.wasm"
# The full engine, every service: the lab loads it when a scenario needs it (the catalogue's `engine`).
# Beside the core in www/pkg (the layout's unit tests run every scenario on it).
full_dir=$out_dir
full_name=${out_name}_full
build_wasm "$full_name" "$full_dir" "$opt_level" "${opt_flags[*]}" --no-default-features --features services
full_wasm="$full_dir/${full_name}_bg.wasm"
# A user's own scenario (a <lease-lab> with inline or src text, author.html): every service plus the
# parser and the expectation check (the cargo feature `user-scenario`), for size like the core. Loaded
# only by pages with a custom scenario, so the core and full builds carry no parser.
user_name=${out_name}_user
build_wasm "$user_name" "$out_dir" "$opt_level" "${opt_flags[*]}" --no-default-features --features services,user-scenario
user_wasm="$out_dir/${user_name}_bg.wasm"
# A catalogue scenario whose clients call a lock library (`library=`: kazoo, redis-py, …; issue 44):
# every service and the libraries' engine half (the cargo feature `libraries`), loaded only for such a
# scenario (the catalogue's `engine` "clients": www/engine.js), so the core and full builds carry none
# of the libraries' code.
clients_name=${out_name}_clients
build_wasm "$clients_name" "$out_dir" "$opt_level" "${opt_flags[*]}" --no-default-features --features services,libraries
clients_wasm="$out_dir/${clients_name}_bg.wasm"
# explore.html's wasm: the full crate with the cargo features `estimate` (the phase diagram's sweeps and
# the Monte Carlo estimator) and `speed` (the hot handlers inline), built for speed and loaded only by
# explore.html, its Web Worker and the search's workers, so the lab page's wasm stays within its budget.
# With `table` too: the safety table's base scenarios and `matrixTable` (matrix.html's workers) and
# injected simulations (a table cell's link in the lab).
# Built outside www/ (target/) and copied into dist/pkg/ under its own name. The default features but
# `libraries` (the client libraries, issue 44: the command line's; no page build carries them yet).
mc_dir=target/web-mc
mc_name=${out_name}_mc
build_wasm "$mc_name" "$mc_dir" "$mc_opt_level" "${mc_opt_flags[*]}" --no-default-features --features services,cut,estimate,speed,table
mc_wasm="$mc_dir/${mc_name}_bg.wasm"

rm -rf dist
mkdir -p dist/pkg
# The page: everything under www/ except its tests, tooling and the raw pkg folder — index.html, embed.html,
# lease-lab.js and the modules, i18n/ (one dictionary per language), examples/ (the docs page) and fonts/
# (the Bengali subset and its licence, made by tools/bengali-font.sh and committed: no network here).
(cd www && find . -type f \( -name '*.html' -o -name '*.js' -o -name '*.css' -o -name '*.svg' -o -name '*.png' -o -name '*.txt' -o -name '*.woff2' \) \
  -not -path './tests/*' -not -path './pkg/*' -not -path './node_modules/*' -print0 |
  xargs -0 -I{} cp --parents {} ../dist/)
# Scenario prose stays out of the wasm (size budget; English titles excepted): the native CLI, which
# carries it, writes one file per language for the page to load beside the wasm.
echo "build-web: scenario texts (en, bn) from the native CLI"
# The client libraries' scenarios' prose is in them too: tools/prerender.mjs moves it to
# pkg/clients.LANG.json, which only a page showing such a scenario fetches (issue 44).
for lang in en bn; do
  cargo run --release --quiet --bin leaselab -- scenarios --json --lang "$lang" >"$out_dir/scenarios.$lang.json"
done
cp "$out_dir/$out_name.js" "$wasm" "$out_dir/$full_name.js" "$full_wasm" "$out_dir"/scenarios.*.json dist/pkg/
cp "$out_dir/$user_name.js" "$user_wasm" dist/pkg/
cp "$out_dir/$clients_name.js" "$clients_wasm" dist/pkg/
# The catalogue's files as written, for author.html's "start from" picker (the wasm carries the parsed
# data, not the text).
mkdir -p dist/scenarios
cp crate/scenarios/*.txt dist/scenarios/
cp "$mc_dir/$mc_name.js" "$mc_wasm" dist/pkg/
# The safety table at its default bounds, as `leaselab matrix --json` computes it natively (the same
# as the wasm's: a test of matrix.html computes it live and compares), for matrix.html's first view.
echo "build-web: the safety table (leaselab matrix --json)"
cargo run --release --quiet --bin leaselab -- matrix --json >dist/pkg/matrix.json
# The first verdict without the wasm: every scenario's run at its defaults, computed by this build's
# wasm, and the catalogue the lab starts from (tools/prerender.mjs; www/engine.js reads them).
node tools/prerender.mjs dist
# The no-JS fallback, from this build: the pictures the pages ask for (fallback/<scenario>-<policy>.svg)
# and the transcripts they show (<pre data-transcript="…">), in dist/ only.
node tools/fallback.mjs dist
# Then shrink the shipped JavaScript (www/ keeps the readable source): terser, module by module.
node tools/minify.mjs dist
# Then flatten the import waterfall: preload links in every page and bare imports in every entry module,
# computed from the module graph as built (no hand-kept lists).
node tools/preload.mjs dist
echo "build-web: dist/ ready ($(find dist -type f | wc -l) files)"
