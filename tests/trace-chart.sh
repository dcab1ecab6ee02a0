#!/bin/sh
# tests/trace-chart.sh - an app run with FILAMENTS_TRACE gets its result
# right and writes a trace that scripts/trace-chart reads: a row for the main
# thread and each server, each row's shares adding up to 100 %, work on the
# servers; with gnuplot, a PNG and an SVG; two files (as two MPI ranks
# write them) make one table and chart with the rows of both.  Skipped
# without python3.
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
need python3
scratch trace-chart

for k in 0 1; do
    FILAMENTS_TRACE="$tmp/jacobi$k.json" ./apps/jacobi/jacobi --impl=fil --servers=2 \
        --size=64 >"$tmp/out$k" 2>&1 || fail "jacobi with FILAMENTS_TRACE: $(cat "$tmp/out$k")"
    grep -q "check=ok" "$tmp/out$k" || fail "jacobi with FILAMENTS_TRACE: $(cat "$tmp/out$k")"
done

# table FILE...: scripts/trace-chart --no-chart's table in $tmp/table.
table() {
    "$srcdir/scripts/trace-chart" --no-chart "$@" >"$tmp/table" 2>&1 ||
        fail "trace-chart $*: $(cat "$tmp/table")"
    awk '/%/ { s = 0; for (k = 1; k <= NF; ++k) if ($k ~ /%$/) s += $k;
               if (s < 99.5 || s > 100.5) { print "a row sums to " s ": " $0; bad = 1 } }
         END { exit bad }' "$tmp/table" || fail "shares: $(cat "$tmp/table")"
}

table "$tmp/jacobi0.json"
for row in main "server 0" "server 1"; do
    grep -q "^$row " "$tmp/table" || fail "no row '$row': $(cat "$tmp/table")"
done
grep -q "work" "$tmp/table" || fail "no work: $(cat "$tmp/table")"
table "$tmp/jacobi0.json" "$tmp/jacobi1.json"
[ "$(grep -c '^jacobi[01]: ' "$tmp/table")" = 6 ] || fail "two files, not 6 rows: $(cat "$tmp/table")"

if command -v gnuplot >/dev/null 2>&1; then
    "$srcdir/scripts/trace-chart" "$tmp/jacobi0.json" "$tmp/jacobi1.json" >"$tmp/log" 2>&1 ||
        fail "trace-chart: $(cat "$tmp/log")"
    [ "$(head -c 4 "$tmp/jacobi0.all.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] ||
        fail "jacobi0.all.png is not a PNG"
    grep -q "<svg" "$tmp/jacobi0.all.svg" 2>/dev/null || fail "jacobi0.all.svg is not an SVG"
fi
finish
