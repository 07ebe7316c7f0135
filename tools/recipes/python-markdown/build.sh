#!/usr/bin/env bash
# Builds docs/recipes/python-markdown.md's pages with Python-Markdown at the version the recipe names
# (tools/recipes/pip-site.sh: a virtualenv under target/recipes-tools/, the page's files, the package
# unpacked into public/leaselab/), then the page's own `python build.py`.
#   bash tools/recipes/python-markdown/build.sh WORKDIR TARBALL
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: build.sh WORKDIR TARBALL}
tarball=${2:?usage: build.sh WORKDIR TARBALL}
bash "$here/../pip-site.sh" python-markdown "$work" "$tarball" public markdown==3.11.3 -- python build.py
