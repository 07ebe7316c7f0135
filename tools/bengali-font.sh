#!/usr/bin/env bash
# Regenerates the Bengali webfont subset the site ships (www/fonts/), for readers whose system has no
# Bengali font (style.css loads it only for Bengali letters, and only when no local font has them).
# Run it by hand after adding Bengali text that uses a letter the subset lacks (a test says so); the
# build and the tests never run it, and need neither network nor Python.
#
# It takes Noto Sans Bengali (SIL OFL 1.1) from the npm registry (@fontsource/noto-sans-bengali, its
# Bengali-block files), fonttools and brotli from PyPI into a throwaway venv, and keeps only the
# characters the site's sources use, with every layout feature (GSUB/GPOS: conjuncts, reph, vowel-sign
# reordering and mark positioning all live there), so any word made of those letters still shapes right.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
FONT_PKG=@fontsource/noto-sans-bengali@5.3.0
WEIGHTS=(400) # one weight: the bold of headings and the verdict is synthesised (half the download)
out=www/fonts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every character of the Bengali block the site can show (page, lessons, explore, scenario texts),
# plus the danda (U+0964-5, shared with Devanagari), ZWNJ/ZWJ (they steer conjunct forms) and the
# dotted circle (the shaper's base for a stray vowel sign).
chars=$(cat www/*.js www/i18n/*.js www/i18n/services/*.js www/*.html crate/scenarios/*.txt |
  grep -oP '[\x{0980}-\x{09FF}\x{0964}\x{0965}\x{200C}\x{200D}]' | sort -u | tr -d '\n')
mkdir -p "$out"
printf '%s\n' "$chars" >"$out/bengali-chars.txt"

(cd "$tmp" && npm pack --silent "$FONT_PKG" >/dev/null && tar xzf ./*.tgz)
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install --quiet fonttools brotli
cp "$tmp/package/LICENSE" "$out/OFL.txt"
for w in "${WEIGHTS[@]}"; do
  "$tmp/venv/bin/pyftsubset" "$tmp/package/files/noto-sans-bengali-bengali-$w-normal.woff2" \
    --text-file="$out/bengali-chars.txt" --unicodes=U+200C,U+200D,U+25CC \
    --layout-features='*' --layout-scripts='*' --no-hinting --desubroutinize \
    --name-IDs='*' --name-languages='*' --flavor=woff2 --output-file="$out/noto-sans-bengali-$w.woff2"
  echo "bengali-font: $out/noto-sans-bengali-$w.woff2 $(wc -c <"$out/noto-sans-bengali-$w.woff2") bytes"
done
