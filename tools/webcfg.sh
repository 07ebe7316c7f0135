#!/usr/bin/env bash
# webcfg KEY — prints one value from wasm-pack.toml (strings unquoted). Fails if the key is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
key=$1
line=$(grep -E "^${key}[[:space:]]*=" "$root/wasm-pack.toml" | head -n 1) || {
  echo "webcfg: no key '$key' in wasm-pack.toml" >&2
  exit 1
}
value=${line#*=}
value=$(echo "$value" | sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//; s/^"(.*)"$/\1/')
printf '%s\n' "$value"
