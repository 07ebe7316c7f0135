#!/usr/bin/env bash
# Prints the web build's sizes and fails above the budgets in wasm-pack.toml:
#   the wasm, gzipped; and everything the page loads (HTML, CSS, JS, wasm), gzipped.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
wasm_budget=$(bash tools/webcfg.sh wasm_gzip_budget)
page_budget=$(bash tools/webcfg.sh page_gzip_budget)
gz() { gzip -9 -c "$1" | wc -c; }

wasm=dist/pkg/$(bash tools/webcfg.sh out_name)_bg.wasm
[ -f "$wasm" ] || { echo "size-check: $wasm missing; run tools/build-web.sh first" >&2; exit 1; }
wasm_raw=$(wc -c <"$wasm")
wasm_gz=$(gz "$wasm")

# What index.html loads: itself, its stylesheets and scripts (and their imports), and the wasm.
page_files=$(cd dist && find . -maxdepth 1 -type f \( -name 'index.html' -o -name '*.css' -o -name '*.js' \) | sort; echo ./pkg/*.js ./pkg/*.wasm)
page_gz=0
for f in $page_files; do
  page_gz=$((page_gz + $(gz "dist/$f")))
done

fail=0
echo "wasm_bytes: $wasm_raw B"
echo "wasm_gzip_bytes: $wasm_gz B (budget $wasm_budget B)"
echo "page_gzip_bytes: $page_gz B (budget $page_budget B) — $(echo $page_files | wc -w) files"
if [ "$wasm_gz" -gt "$wasm_budget" ]; then echo "size-check: FAIL wasm over budget" >&2; fail=1; fi
if [ "$page_gz" -gt "$page_budget" ]; then echo "size-check: FAIL page over budget" >&2; fail=1; fi
[ "$fail" = 0 ] && echo "size-check: ok"
exit $fail
