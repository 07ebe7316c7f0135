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

echo "build-web: wasm-pack (target $target, opt-level $opt_level)"
CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt_level \
  wasm-pack --quiet build crate --release --target "$target" --out-dir "$root/$out_dir" \
  --out-name "$out_name" --no-typescript --no-pack
wasm="$out_dir/${out_name}_bg.wasm"
before=$(wc -c <"$wasm")
"$wasm_opt" "${opt_flags[@]}" "$wasm" -o "$wasm.opt"
mv "$wasm.opt" "$wasm"
echo "build-web: wasm-opt $before → $(wc -c <"$wasm") bytes"

# explore.html's wasm: the same crate with the cargo feature `estimate` (the phase diagram's sweeps and
# the Monte Carlo estimator), built for speed and loaded only by explore.html and its Web Worker, so the
# lab page's wasm stays within its budget.
# Built outside www/ (target/) and copied into dist/pkg/ under its own name.
mc_dir=target/web-mc
mc_name=${out_name}_mc
echo "build-web: wasm-pack --features estimate (explore.html's sweeps and worker; opt-level $mc_opt_level)"
CARGO_PROFILE_RELEASE_OPT_LEVEL=$mc_opt_level \
  wasm-pack --quiet build crate --release --target "$target" --out-dir "$root/$mc_dir" \
  --out-name "$mc_name" --no-typescript --no-pack -- --features estimate
mc_wasm="$mc_dir/${mc_name}_bg.wasm"
before=$(wc -c <"$mc_wasm")
"$wasm_opt" "${mc_opt_flags[@]}" "$mc_wasm" -o "$mc_wasm.opt"
mv "$mc_wasm.opt" "$mc_wasm"
echo "build-web: wasm-opt (estimate) $before → $(wc -c <"$mc_wasm") bytes"

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
for lang in en bn; do
  cargo run --release --quiet --bin leaselab -- scenarios --json --lang "$lang" >"$out_dir/scenarios.$lang.json"
done
cp "$out_dir/$out_name.js" "$wasm" "$out_dir"/scenarios.*.json dist/pkg/
cp "$mc_dir/$mc_name.js" "$mc_wasm" dist/pkg/
# The no-JS fallback, from this build: the pictures the pages ask for (fallback/<scenario>-<policy>.svg)
# and the transcripts they show (<pre data-transcript="…">), in dist/ only.
node tools/fallback.mjs dist
# Then shrink the shipped JavaScript (www/ keeps the readable source): terser, module by module.
node tools/minify.mjs dist
# Then flatten the import waterfall: preload links in every page and bare imports in every entry module,
# computed from the module graph as built (no hand-kept lists).
node tools/preload.mjs dist
echo "build-web: dist/ ready ($(find dist -type f | wc -l) files)"
