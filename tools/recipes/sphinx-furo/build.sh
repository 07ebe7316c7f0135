#!/usr/bin/env bash
# Builds docs/recipes/sphinx-furo.md's site with Sphinx and furo at the versions the recipe names
# (tools/recipes/pip-site.sh: a virtualenv under target/recipes-tools/, the page's files, the package
# unpacked into _static/leaselab/), then `sphinx-build -W` (warnings are errors).
#   bash tools/recipes/sphinx-furo/build.sh WORKDIR TARBALL
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: build.sh WORKDIR TARBALL}
tarball=${2:?usage: build.sh WORKDIR TARBALL}
bash "$here/../pip-site.sh" sphinx-furo "$work" "$tarball" _static sphinx==9.0.4 furo==2025.12.19 \
  -- sphinx-build -q -W -b html . _build/html
