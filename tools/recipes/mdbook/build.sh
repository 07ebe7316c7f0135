#!/usr/bin/env bash
# Builds docs/recipes/mdbook.md's book with mdBook at the version the recipe names: installed from
# crates.io with `cargo install --locked` into target/recipes-tools/ (once; rebuilt if deleted), without
# the serve and watch features, which a build does not use and which double the compile time; the
# page's files; the package unpacked into src/leaselab/; `mdbook build`.
#   bash tools/recipes/mdbook/build.sh WORKDIR TARBALL
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=${1:?usage: build.sh WORKDIR TARBALL}
tarball=$(realpath "${2:?usage: build.sh WORKDIR TARBALL}")
version=0.5.4
prefix="$root/target/recipes-tools/mdbook-$version"
export PATH="$HOME/.cargo/bin:$PATH"
if [ "$("$prefix/bin/mdbook" --version 2>/dev/null)" != "mdbook v$version" ]; then
  echo "mdbook: cargo install mdbook --version $version --locked (a few minutes, once)" >&2
  cargo install mdbook --version "$version" --locked --quiet --no-default-features --features search --root "$prefix" >&2
fi
mkdir -p "$work"
rm -rf "$work/site"
node "$root/tools/recipes/extract.mjs" "$root/docs/recipes/mdbook.md" "$work/site"
tar -xzf "$tarball" -C "$work/site/src"
mv "$work/site/src/package" "$work/site/src/leaselab"
(cd "$work/site" && "$prefix/bin/mdbook" build >&2)
echo "mdbook: built $work/site/book" >&2
