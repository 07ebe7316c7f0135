#!/usr/bin/env bash
# Builds docs/recipes/mkdocs-material.md's site with MkDocs Material at the versions the recipe names
# (tools/recipes/pip-site.sh: a virtualenv under target/recipes-tools/, the page's files, the package
# unpacked into docs/leaselab/), then `mkdocs build --strict`.
#   bash tools/recipes/mkdocs-material/build.sh WORKDIR TARBALL
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: build.sh WORKDIR TARBALL}
tarball=${2:?usage: build.sh WORKDIR TARBALL}
# NO_MKDOCS_2_WARNING: Material 9.8 prints a banner about MkDocs 2 on every build; not this recipe's concern.
# SITE_URL: the address check.mjs serves the site on (mkdocs.yml reads it with !ENV; see the recipe).
SITE_URL="http://127.0.0.1:${RECIPE_PORT:-8000}/" NO_MKDOCS_2_WARNING=1 \
  bash "$here/../pip-site.sh" mkdocs-material "$work" "$tarball" docs mkdocs==1.6.1 mkdocs-material==9.8.1 pymdown-extensions==13.1.2 \
  -- mkdocs build --strict --site-dir public
