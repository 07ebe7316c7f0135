#!/usr/bin/env bash
# Builds docs/recipes/markdown-it.md's pages with markdown-it at the lockfile's version (npm-site.sh: the
# page's files, `npm ci`, the leaselab TARBALL, the page's own `npm run build` into public/).
#   bash tools/recipes/markdown-it/build.sh WORKDIR TARBALL
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../npm-site.sh" markdown-it "$@"
