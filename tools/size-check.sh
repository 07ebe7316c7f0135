#!/usr/bin/env bash
# Prints the web build's sizes and fails above the budgets in wasm-pack.toml:
#   the core wasm and the full one, gzipped; everything the English page loads at start (index.html, its stylesheets, the
#   module graph of its scripts, the wasm), gzipped; and the same for a host page's first <lease-lab>
#   (lease-lab.js's module graph, the stylesheet it links, the wasm). Also printed, not budgeted: what
#   lang=bn adds (its dictionary and scenario texts), what loads only on demand (share.js, each lock
#   service's words beyond the core's) and the
#   Bengali webfont (only where the system has no Bengali font). And the user-scenario wasm (the parser:
#   only pages with a custom scenario load it, instead of the core or full one), budgeted, with the
#   total such a page's first <lease-lab> loads, and what the editor (author.html) loads. And the clients
#   wasm (the client libraries: only a scenario with `library=` loads it, instead of the full one),
#   budgeted, with the libraries' words.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
wasm_budget=$(bash tools/webcfg.sh wasm_gzip_budget)
full_budget=$(bash tools/webcfg.sh full_wasm_gzip_budget)
page_budget=$(bash tools/webcfg.sh page_gzip_budget)
user_budget=$(bash tools/webcfg.sh user_wasm_gzip_budget)
clients_budget=$(bash tools/webcfg.sh clients_wasm_gzip_budget)
out_name=$(bash tools/webcfg.sh out_name)
gz() { gzip -9 -c "dist/$1" | wc -c; }

wasm=pkg/${out_name}_bg.wasm
[ -f "dist/$wasm" ] || { echo "size-check: dist/$wasm missing; run tools/build-web.sh first" >&2; exit 1; }

# What one file loads at start, as paths under dist/: an HTML file's module scripts, stylesheets and
# modulepreloads; a module's static imports (import() loads on demand and is not followed).
deps() {
  local f=$1
  case "$f" in
    *.html) grep -oE '<(script|link)[^>]*>' "dist/$f" | grep -E 'type="module"|rel="stylesheet"|rel="modulepreload"' |
      grep -oE '(src|href)="[^"]+"' | sed -E 's/^(src|href)="(.*)"$/\2/' || true ;;
    # Static imports, in readable or minified form (import{a}from"./x.js";import"./y.js"); import( is not one.
    *.js) grep -oE "(import|export)[ {*][^'\"();]*from ?['\"][^'\"]+['\"]|import ?['\"][^'\"]+['\"]" "dist/$f" |
      grep -oE "['\"][^'\"]+['\"]$" | tr -d "'\"" || true ;;
  esac | while read -r p; do realpath -m --relative-to=dist "dist/$(dirname "$f")/$p"; done
  # wasm-bindgen's glue fetches the wasm next to itself.
  [ "$f" != "pkg/$out_name.js" ] || echo "$wasm"
  return 0
}

# The closure of deps over the given files, one path a line, sorted.
graph() {
  local todo=("$@") seen=" " f
  while [ ${#todo[@]} -gt 0 ]; do
    f=${todo[0]}
    todo=("${todo[@]:1}")
    case "$seen" in *" $f "*) continue ;; esac
    [ -f "dist/$f" ] || { echo "size-check: dist/$f (loaded at start) missing" >&2; exit 1; }
    seen="$seen$f "
    while read -r d; do [ -n "$d" ] && todo+=("$d"); done < <(deps "$f")
  done
  echo $seen | tr ' ' '\n' | sort
}

sum() {
  local total=0 f
  for f in "$@"; do total=$((total + $(gz "$f"))); done
  echo $total
}

wasm_raw=$(wc -c <"dist/$wasm")
wasm_gz=$(gz "$wasm")
full=pkg/${out_name}_full_bg.wasm
[ -f "dist/$full" ] || { echo "size-check: dist/$full missing; run tools/build-web.sh first" >&2; exit 1; }
full_gz=$(gz "$full")
user=pkg/${out_name}_user_bg.wasm
[ -f "dist/$user" ] || { echo "size-check: dist/$user missing; run tools/build-web.sh first" >&2; exit 1; }
user_gz=$(gz "$user")
clients=pkg/${out_name}_clients_bg.wasm
[ -f "dist/$clients" ] || { echo "size-check: dist/$clients missing; run tools/build-web.sh first" >&2; exit 1; }
clients_gz=$(gz "$clients")
# The client libraries' words (i18n/libraries.js, both languages): fetched with the clients wasm.
library_words_gz=$(gz i18n/libraries.js)
# Where the build keeps the scenarios' English prose beside the wasm, lab.js fetches it at start.
start_data=()
[ ! -f dist/pkg/scenarios.en.json ] || start_data=(pkg/scenarios.en.json)
# The catalogue and the default scenario's first runs (tools/prerender.mjs): the lab starts from them.
[ ! -f dist/pkg/start.json ] || start_data+=(pkg/start.json)
mapfile -t page_files < <(graph index.html "${start_data[@]}")
mapfile -t element_files < <(graph lease-lab.js style.css "${start_data[@]}")
page_gz=$(sum "${page_files[@]}")
element_gz=$(sum "${element_files[@]}")
# A host page's <lease-lab> with its own scenario (inline or src): the element's graph, then what it
# loads on demand for it instead of the core or full engine — user-scenario.js and what starts its
# worker (worker-start.js), the worker that tries the text (user-scenario-worker.js), the user build's
# glue and wasm (the worker's fetch of them is answered from the cache).
user_files=("${element_files[@]}" user-scenario.js worker-start.js user-scenario-worker.js "pkg/${out_name}_user.js" "$user")
user_page_gz=$(sum "${user_files[@]}")
# author.html: its module graph, then the user build it parses and runs with, and its checking worker
# (which fetches the same wasm: from the cache).
mapfile -t author_files < <(graph author.html "${start_data[@]}")
author_files+=("pkg/${out_name}_user.js" "$user" author-worker.js)
author_gz=$(sum "${author_files[@]}")
bn_files=(i18n/bn.js pkg/scenarios.bn.json)
bn_gz=$(sum "${bn_files[@]}")
later_gz=$(sum share.js)
# Each lock service's words beyond the core's (i18n/services/<id>.js, both languages): fetched with the
# full wasm, only for a run on that service.
service_words=""
for f in dist/i18n/services/*.js; do
  [ -f "$f" ] || continue
  service_words="$service_words $(basename "$f" .js) $(gz "${f#dist/}") B,"
done
# The Bengali webfont subset (tools/bengali-font.sh): already compressed (woff2), so its bytes as they are.
font=fonts/noto-sans-bengali-400.woff2
[ -f "dist/$font" ] || { echo "size-check: dist/$font missing" >&2; exit 1; }
font_bytes=$(wc -c <"dist/$font")

fail=0
echo "wasm_bytes: $wasm_raw B"
echo "wasm_gzip_bytes: $wasm_gz B (budget $wasm_budget B) — the core engine every lab page loads"
echo "full_wasm_gzip_bytes: $full_gz B (budget $full_budget B) — every service, fetched for a scenario that needs it"
echo "page_gzip_bytes: $page_gz B (budget $page_budget B) — the English page: ${#page_files[@]} files: ${page_files[*]}"
echo "element_gzip_bytes: $element_gz B (budget $page_budget B) — a host page's first <lease-lab>: ${#element_files[@]} files"
echo "user_wasm_gzip_bytes: $user_gz B (budget $user_budget B) — every service and the parser: only for a custom scenario"
echo "clients_wasm_gzip_bytes: $clients_gz B (budget $clients_budget B) — every service and the client libraries: only for a scenario with library="
echo "library_words_gzip_bytes: $library_words_gz B — the client libraries' words (i18n/libraries.js), only with the clients wasm"
echo "user_scenario_page_gzip_bytes: $user_page_gz B — a host page's first <lease-lab> with its own scenario: ${#user_files[@]} files: ${user_files[*]}"
echo "author_page_gzip_bytes: $author_gz B — author.html, the editor: ${#author_files[@]} files"
echo "bn_extra_gzip_bytes: $bn_gz B — what lang=bn adds: ${bn_files[*]}"
echo "on_demand_gzip_bytes: $later_gz B — share.js, on the first copy or export"
echo "service_words_gzip_bytes:${service_words%,} — a service's words (i18n/services/), only for a run on it"
echo "bengali_font_bytes: $font_bytes B — $font, only for Bengali letters where the system has no Bengali font"
if [ "$wasm_gz" -gt "$wasm_budget" ]; then echo "size-check: FAIL wasm over budget" >&2; fail=1; fi
if [ "$full_gz" -gt "$full_budget" ]; then echo "size-check: FAIL full wasm over budget" >&2; fail=1; fi
if [ "$user_gz" -gt "$user_budget" ]; then echo "size-check: FAIL user-scenario wasm over budget" >&2; fail=1; fi
if [ "$clients_gz" -gt "$clients_budget" ]; then echo "size-check: FAIL clients wasm over budget" >&2; fail=1; fi
if [ "$page_gz" -gt "$page_budget" ]; then echo "size-check: FAIL page over budget" >&2; fail=1; fi
if [ "$element_gz" -gt "$page_budget" ]; then echo "size-check: FAIL element over budget" >&2; fail=1; fi
[ "$fail" = 0 ] && echo "size-check: ok"
exit $fail
