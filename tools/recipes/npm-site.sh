#!/usr/bin/env bash
# Builds the minimal site of an npm-installed recipe (docusaurus, vitepress, starlight; markdown-it, marked) from
# its page, docs/recipes/TOOL.md, as a writer would: the page's files, `npm ci` against the lockfile
# pinned next to the tool's build.sh (tools/recipes/TOOL/package-lock.json: the tool's exact versions,
# reproducible), then `npm install` of the leaselab tarball and the page's own `npm run build`.
#
#   bash tools/recipes/npm-site.sh TOOL WORKDIR TARBALL
#
# Everything goes into WORKDIR/site, so nothing outside WORKDIR is written but npm's own download cache.
# Each run writes the site afresh but keeps WORKDIR/site/node_modules, the tool's install, and skips
# `npm ci` while the lockfile is the one installed (deleting node_modules only costs a reinstall).
# Progress on stderr only.
set -euo pipefail

TOOL=${1:?usage: npm-site.sh TOOL WORKDIR TARBALL}
WORKDIR=${2:?usage: npm-site.sh TOOL WORKDIR TARBALL}
TARBALL=${3:?usage: npm-site.sh TOOL WORKDIR TARBALL}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
RECIPE="$ROOT/docs/recipes/$TOOL.md"
LOCK="$HERE/$TOOL/package-lock.json"
for f in "$RECIPE" "$LOCK" "$TARBALL"; do
  [[ -f $f ]] || { echo "$TOOL: missing $f" >&2; exit 1; }
done
TARBALL=$(cd "$(dirname "$TARBALL")" && pwd)/$(basename "$TARBALL")
SITE="$WORKDIR/site"
mkdir -p "$SITE"
SITE=$(cd "$SITE" && pwd)

log() { echo "$TOOL: $*" >&2; }

log "site files from docs/recipes/$TOOL.md"
find "$SITE" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
node "$ROOT/tools/recipes/extract.mjs" "$RECIPE" "$SITE"
cp "$LOCK" "$SITE/package-lock.json"

cd "$SITE"
# npm ci starts from an empty node_modules; skip it when this very lockfile is already installed.
if ! cmp -s "$LOCK" node_modules/.recipe-lock.json 2>/dev/null; then
  log "npm ci (the lockfile's pinned versions; --engine-strict: each must run on this Node, $(node -v))"
  npm ci --engine-strict --no-audit --no-fund --loglevel=error >&2
  cp "$LOCK" node_modules/.recipe-lock.json
fi
log "npm install $(basename "$TARBALL")"
# --no-save: the lockfile stays the tool's; a writer's plain `npm install ./leaselab-VERSION.tgz` saves it.
npm install --no-save --no-audit --no-fund --loglevel=error "$TARBALL" >&2
log "npm run build"
npm run build >&2
log "built"
