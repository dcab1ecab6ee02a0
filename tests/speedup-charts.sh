#!/bin/sh
# speedup-charts.sh - scripts/speedup-tables draws a PNG and an SVG chart per
# app with gnuplot and embeds them in README.md.  Skipped without gnuplot.
set -u
srcdir=${srcdir:-.}
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not found: skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/speedup-charts.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$srcdir/scripts/speedup-tables" --from-raw "$srcdir/tests/data/raw-sample.txt" \
    --out "$tmp" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "exit non-zero"; }
for app in matmul jacobi; do
    [ "$(head -c 4 "$tmp/$app.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] ||
        fail "$app.png is not a PNG"
    grep -q "<svg" "$tmp/$app.svg" 2>/dev/null || fail "$app.svg is not an SVG"
    grep -q "ideal" "$tmp/$app.svg" 2>/dev/null || fail "$app.svg has no ideal line"
    grep -q "^!\[$app speedup\]($app.png)" "$tmp/README.md" || fail "README.md lacks $app.png"
done
[ $fails = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok"
