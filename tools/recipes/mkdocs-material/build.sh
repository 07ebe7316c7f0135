#!/usr/bin/env bash
# Builds docs/recipes/mkdocs-material.md's site with MkDocs Material at the version the recipe names:
# a virtualenv under target/recipes-tools/ (made once, rebuilt if deleted), the page's files, the
# package unpacked into docs/leaselab/, `mkdocs build --strict`.
#   bash tools/recipes/mkdocs-material/build.sh WORKDIR TARBALL
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:?usage: build.sh WORKDIR TARBALL}
tarball=$(realpath "${2:?usage: build.sh WORKDIR TARBALL}")
mkdocs_version=1.6.1
material_version=9.8.1
venv="$root/target/recipes-tools/mkdocs-$mkdocs_version-material-$material_version"
if ! "$venv/bin/mkdocs" --version >/dev/null 2>&1; then
  echo "mkdocs-material: pip install mkdocs==$mkdocs_version mkdocs-material==$material_version" >&2
  rm -rf "$venv"
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    echo "$(basename "$(dirname "$0")"): apt-get install python3 python3-venv" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-venv >&2
  fi
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "mkdocs==$mkdocs_version" "mkdocs-material==$material_version" >&2
fi
mkdir -p "$work"
rm -rf "$work/site"
node "$root/tools/recipes/extract.mjs" "$root/docs/recipes/mkdocs-material.md" "$work/site"
tar -xzf "$tarball" -C "$work/site/docs"
mv "$work/site/docs/package" "$work/site/docs/leaselab"
# NO_MKDOCS_2_WARNING: Material 9.8 prints a banner about MkDocs 2 on every build; not this recipe's concern.
# SITE_URL: the address check.mjs serves the site on (mkdocs.yml reads it with !ENV; see the recipe).
(cd "$work/site" && SITE_URL="http://127.0.0.1:${RECIPE_PORT:-8000}/" NO_MKDOCS_2_WARNING=1 "$venv/bin/mkdocs" build --strict --site-dir public >&2)
echo "mkdocs-material: built $work/site/public" >&2
