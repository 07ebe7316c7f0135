#!/usr/bin/env bash
# Builds docs/recipes/hugo.md's site with Debian's Hugo (installed with apt-get if missing; the recipe
# was proven with 0.111, and any later one must build it too), the page's files, the package unpacked
# into static/leaselab/, `hugo` into public/ for the sub-path /docs/ that baseURL names.
#   bash tools/recipes/hugo/build.sh WORKDIR TARBALL
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:?usage: build.sh WORKDIR TARBALL}
tarball=$(realpath "${2:?usage: build.sh WORKDIR TARBALL}")
min_version=0.111
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v hugo >/dev/null; then
  echo "hugo: apt-get install hugo" >&2
  as_root apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends hugo >&2
fi
have=$(hugo version | sed -E 's/^hugo v([0-9.]+).*/\1/')
if [ "$(printf '%s\n%s\n' "$min_version" "$have" | sort -V | head -n 1)" != "$min_version" ]; then
  echo "hugo: $have is older than $min_version, which the recipe needs" >&2
  exit 1
fi
mkdir -p "$work"
rm -rf "$work/site"
node "$root/tools/recipes/extract.mjs" "$root/docs/recipes/hugo.md" "$work/site"
mkdir -p "$work/site/static"
tar -xzf "$tarball" -C "$work/site/static"
mv "$work/site/static/package" "$work/site/static/leaselab"
(cd "$work/site" && hugo --quiet --destination public >&2)
echo "hugo: built $work/site/public with Hugo $have" >&2
