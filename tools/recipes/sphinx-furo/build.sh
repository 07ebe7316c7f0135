#!/usr/bin/env bash
# Builds docs/recipes/sphinx-furo.md's site with Sphinx and furo at the versions the recipe names: a
# virtualenv under target/recipes-tools/ (made once, rebuilt if deleted), the page's files, the package
# unpacked into _static/leaselab/, `sphinx-build -W` (warnings are errors).
#   bash tools/recipes/sphinx-furo/build.sh WORKDIR TARBALL
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:?usage: build.sh WORKDIR TARBALL}
tarball=$(realpath "${2:?usage: build.sh WORKDIR TARBALL}")
sphinx_version=9.0.4
furo_version=2025.12.19
venv="$root/target/recipes-tools/sphinx-$sphinx_version-furo-$furo_version"
if ! "$venv/bin/sphinx-build" --version >/dev/null 2>&1; then
  echo "sphinx-furo: pip install sphinx==$sphinx_version furo==$furo_version" >&2
  rm -rf "$venv"
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    echo "$(basename "$(dirname "$0")"): apt-get install python3 python3-venv" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-venv >&2
  fi
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "sphinx==$sphinx_version" "furo==$furo_version" >&2
fi
mkdir -p "$work"
rm -rf "$work/site"
node "$root/tools/recipes/extract.mjs" "$root/docs/recipes/sphinx-furo.md" "$work/site"
mkdir -p "$work/site/_static"
tar -xzf "$tarball" -C "$work/site/_static"
mv "$work/site/_static/package" "$work/site/_static/leaselab"
(cd "$work/site" && "$venv/bin/sphinx-build" -q -W -b html . _build/html >&2)
echo "sphinx-furo: built $work/site/_build/html" >&2
