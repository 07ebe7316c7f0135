#!/usr/bin/env bash
# Builds docs/recipes/marked.md's pages with marked at the lockfile's version (npm-site.sh: the
# page's files, `npm ci`, the leaselab TARBALL, the page's own `npm run build` into public/).
#   bash tools/recipes/marked/build.sh WORKDIR TARBALL
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../npm-site.sh" marked "$@"
