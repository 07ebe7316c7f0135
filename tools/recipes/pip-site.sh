#!/usr/bin/env bash
# Builds the minimal site of a pip-installed recipe (mkdocs-material, sphinx-furo, python-markdown) from its
# page, docs/recipes/TOOL.md, as a writer would: the tool at exact pinned versions in a virtualenv, the
# page's files, the leaselab package unpacked where the page says, then the tool's own build command.
#
#   bash tools/recipes/pip-site.sh TOOL WORKDIR TARBALL PKGDIR NAME==VERSION... -- COMMAND [ARG...]
#
# PKGDIR: the folder of the site (relative to its root) that receives the package as PKGDIR/leaselab/.
# NAME==VERSION: the pip packages, each pinned exactly (anything else is refused: the build must be
# reproducible). COMMAND: an executable of the virtualenv, run in WORKDIR/site with this environment (so
# a build.sh passes settings such as SITE_URL by setting them before calling this script).
#
# The virtualenv lives in target/recipes-tools/, named after the pins, made once and rebuilt if it is
# deleted or broken (a new pin makes a new one); it is the only thing kept between runs. The site is
# written afresh under WORKDIR/site. Progress on stderr only.
set -euo pipefail

usage='usage: pip-site.sh TOOL WORKDIR TARBALL PKGDIR NAME==VERSION... -- COMMAND [ARG...]'
TOOL=${1:?$usage}
WORKDIR=${2:?$usage}
TARBALL=$(realpath "${3:?$usage}")
PKGDIR=${4:?$usage}
shift 4
SPECS=()
while [[ $# -gt 0 && $1 != -- ]]; do
  [[ $1 =~ ^[A-Za-z0-9._-]+==[A-Za-z0-9.]+$ ]] || { echo "$TOOL: '$1' is not pinned as NAME==VERSION" >&2; exit 2; }
  SPECS+=("$1")
  shift
done
[[ ${#SPECS[@]} -gt 0 && $# -ge 2 && $1 == -- ]] || { echo "$usage" >&2; exit 2; }
shift
COMMAND=("$@")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
RECIPE="$ROOT/docs/recipes/$TOOL.md"
[[ -f $RECIPE ]] || { echo "$TOOL: missing $RECIPE" >&2; exit 1; }

log() { echo "$TOOL: $*" >&2; }

# The pins name the virtualenv (mkdocs==1.6.1 mkdocs-material==9.8.1 → mkdocs-1.6.1-mkdocs-material-9.8.1).
venv_name=$(printf '%s-' "${SPECS[@]}")
venv="$ROOT/target/recipes-tools/${venv_name%-}"
venv=${venv//==/-}
if ! "$venv/bin/${COMMAND[0]}" --version >/dev/null 2>&1; then
  log "pip install ${SPECS[*]}"
  rm -rf "$venv"
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    log "apt-get install python3 python3-venv"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-venv >&2
  fi
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${SPECS[@]}" >&2
fi

log "site files from docs/recipes/$TOOL.md"
mkdir -p "$WORKDIR"
rm -rf "$WORKDIR/site"
node "$ROOT/tools/recipes/extract.mjs" "$RECIPE" "$WORKDIR/site"
# The tarball's single folder is package/; the page refers to it as PKGDIR/leaselab/.
mkdir -p "$WORKDIR/site/$PKGDIR"
tar -xzf "$TARBALL" -C "$WORKDIR/site/$PKGDIR"
mv "$WORKDIR/site/$PKGDIR/package" "$WORKDIR/site/$PKGDIR/leaselab"

log "${COMMAND[*]}"
(cd "$WORKDIR/site" && "$venv/bin/${COMMAND[0]}" "${COMMAND[@]:1}" >&2)
log "built"
