#!/usr/bin/env bash
# setup.sh [web|test|bench] — installs what is missing on a fresh machine, and nothing that is there.
#   web:   the wasm32 target, wasm-pack, the wasm-bindgen CLI at the version Cargo.lock pins, Node.js
#          and the page's npm dev tools (wasm-opt from the binaryen package; serving needs only Node)
#   test:  web + Chromium and ChromeDriver (headless browser tests) + the page's npm dev tools, and for
#          the engine smoke suite Firefox ESR with geckodriver (crates.io, pinned) and WebKitGTK's
#          WebKitWebDriver and MiniBrowser with Xvfb
#   bench: test (the page benchmark drives Chromium) + valgrind (the engine's instruction count)
# Needs root (or sudo) for apt-get. Safe to run again: each step checks first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
what=${1:-web}
say() { printf 'setup: %s\n' "$*"; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=
apt_install() {
  if [ -z "$apt_updated" ]; then
    say "apt-get update"
    as_root apt-get update -qq
    apt_updated=1
  fi
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

export PATH="$HOME/.cargo/bin:$PATH"

# Rust's wasm target.
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# clippy: `make test` lints the crate (and holds functions to clippy.toml's length limit).
if ! cargo clippy --version >/dev/null 2>&1; then
  say "rustup component add clippy"
  rustup component add clippy
fi

# wasm-pack (from crates.io: its own installer downloads from elsewhere).
if ! command -v wasm-pack >/dev/null; then
  say "cargo install wasm-pack (a few minutes, once)"
  cargo install wasm-pack --locked --quiet
fi

# The wasm-bindgen CLI must match the wasm-bindgen library version in Cargo.lock exactly.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ -n "$want" ] && [ "$have" != "$want" ]; then
  say "cargo install wasm-bindgen-cli $want (a few minutes, once)"
  # Not --locked: that lock file names a crate version the registry mirror here lacks.
  cargo install wasm-bindgen-cli --version "$want" --quiet
fi

# Node.js serves the page and runs the browser tests.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt_install nodejs npm
fi

# The page's dev tools from the npm registry: wasm-opt (binaryen, for every web build), and for tests
# playwright-core and axe-core (no browser download: tests drive Debian's Chromium).
if [ ! -x www/node_modules/binaryen/bin/wasm-opt ] || [ ! -d www/node_modules/playwright-core ] ||
  [ www/package-lock.json -nt www/node_modules/.package-lock.json ]; then
  say "npm ci (www/)"
  (cd www && npm ci --no-audit --no-fund --loglevel=error)
fi

if [ "$what" = test ] || [ "$what" = bench ]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt_install chromium chromium-driver
  fi
fi
# `make bench` counts the engine's instructions per run with callgrind (tools/instructions.sh).
if [ "$what" = bench ] && ! command -v valgrind >/dev/null; then
  apt_install valgrind
fi
# The print test reads the PDF Chromium prints with pdftotext (www/tests/print.test.mjs).
if [ "$what" = test ] && ! command -v pdftotext >/dev/null; then
  apt_install poppler-utils
fi
# The engine smoke suite (www/tests/engines/): Firefox ESR and WebKitGTK over WebDriver. MiniBrowser
# comes with libwebkit2gtk-4.1-0, which webkit2gtk-driver depends on; WebKit needs an X server: Xvfb.
if [ "$what" = test ]; then
  if ! command -v firefox-esr >/dev/null || ! command -v WebKitWebDriver >/dev/null || ! command -v xvfb-run >/dev/null; then
    apt_install firefox-esr webkit2gtk-driver xvfb xauth
  fi
  # geckodriver from crates.io at a pinned version (Mozilla's release binaries come from elsewhere).
  geckodriver_want=0.36.0
  if [ "$(geckodriver --version 2>/dev/null | awk 'NR == 1 { print $2 }')" != "$geckodriver_want" ]; then
    say "cargo install geckodriver $geckodriver_want (a few minutes, once)"
    cargo install geckodriver --version "$geckodriver_want" --locked --quiet
  fi
fi
say "ready ($what)"
