#!/usr/bin/env bash
# Builds docs/recipes/plain-html.md's site: its files, extracted from the page, and the package unpacked
# into leaselab/ beside them, as the recipe says. No generator to install.
#   bash tools/recipes/plain-html/build.sh WORKDIR TARBALL
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:?usage: build.sh WORKDIR TARBALL}
tarball=$(realpath "${2:?usage: build.sh WORKDIR TARBALL}")
mkdir -p "$work"
rm -rf "$work/site"
node "$root/tools/recipes/extract.mjs" "$root/docs/recipes/plain-html.md" "$work/site"
# The recipe's `tar -xzf leaselab-X.tgz && mv package leaselab`, in the site's folder.
tar -xzf "$tarball" -C "$work/site"
mv "$work/site/package" "$work/site/leaselab"
echo "plain-html: built $work/site" >&2
