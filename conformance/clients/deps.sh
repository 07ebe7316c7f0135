#!/usr/bin/env bash
# conformance/clients/deps.sh TARGET_DIR — the lock client libraries the library rows and
# conformance/clients/run.sh run, installed under TARGET_DIR and never system-wide: the Python ones in
# the venv TARGET_DIR/clients-venv (pinned by requirements.txt), npm's redlock and its redis client in
# TARGET_DIR/clients-node (npm ci from package-lock.json). Each keeps a copy of the file it was made
# from as its stamp, so a change of pin makes it again and an unchanged one costs nothing. One script
# for conformance/setup.sh and clients/run.sh, so the two cannot drift apart.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
target=${1:?usage: deps.sh TARGET_DIR}
say() { printf 'clients deps: %s\n' "$*" >&2; }

venv="$target/clients-venv"
if ! cmp -s "$here/requirements.txt" "$venv/.requirements" 2>/dev/null; then
  say "pip install -r conformance/clients/requirements.txt (in $venv)"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
  cp "$here/requirements.txt" "$venv/.requirements"
fi

node_dir="$target/clients-node"
if ! cmp -s "$here/package-lock.json" "$node_dir/package-lock.json" 2>/dev/null; then
  say "npm ci conformance/clients/package-lock.json (in $node_dir)"
  rm -rf "$node_dir"
  mkdir -p "$node_dir"
  cp "$here/package.json" "$here/package-lock.json" "$node_dir/"
  (cd "$node_dir" && npm ci --no-audit --no-fund --silent)
fi
