#!/usr/bin/env bash
# Builds docs/recipes/starlight.md's minimal site into WORKDIR/site with the leaselab TARBALL (npm-site.sh).
#   bash tools/recipes/starlight/build.sh WORKDIR TARBALL
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/../npm-site.sh" starlight "$@"
