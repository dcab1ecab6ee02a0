#!/bin/sh
# speedup-charts.sh - scripts/speedup-tables draws a PNG and an SVG chart per
# app with gnuplot and embeds them in README.md.  Skipped without gnuplot.
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
need python3
need gnuplot
scratch speedup-charts

"$srcdir/scripts/speedup-tables" --from-raw "$srcdir/tests/data/raw-sample.txt" \
    --out "$tmp" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "exit non-zero"; }
for app in matmul jacobi; do
    [ "$(head -c 4 "$tmp/$app.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] ||
        fail "$app.png is not a PNG"
    grep -q "<svg" "$tmp/$app.svg" 2>/dev/null || fail "$app.svg is not an SVG"
    grep -q "ideal" "$tmp/$app.svg" 2>/dev/null || fail "$app.svg has no ideal line"
    grep -q "^!\[$app speedup\]($app.png)" "$tmp/README.md" || fail "README.md lacks $app.png"
done
finish
