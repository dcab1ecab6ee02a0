#!/bin/sh
# tests/trace-chart.sh - an app run with FILAMENTS_TRACE gets its result
# right and writes a trace that scripts/trace-chart reads: a row for the main
# thread and each server, each row's shares adding up to 100 %, work on the
# servers; with gnuplot, a PNG and an SVG; two files (as two MPI ranks
# write them) make one table and chart with the rows of both.  --passes on
# a run whose strips' ends move every pass (FILAMENTS_TEST_MOVES=1): a row
# per server, the moves counted, and with gnuplot its chart, the moves
# marked; bad values exit 2 and a trace without passes 1, in one line.
# Skipped without python3.
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

FILAMENTS_TEST_MOVES=1 FILAMENTS_TRACE="$tmp/moves.json" ./apps/jacobi/jacobi --impl=fil \
    --servers=2 --size=64 --iters=20 >"$tmp/out" 2>&1
grep -q "check=ok" "$tmp/out" || fail "jacobi with FILAMENTS_TEST_MOVES=1: $(cat "$tmp/out")"
"$srcdir/scripts/trace-chart" --passes --no-chart "$tmp/moves.json" >"$tmp/passes" 2>&1 ||
    fail "trace-chart --passes: $(cat "$tmp/passes")"
grep -q "^phase 0: 20 passes" "$tmp/passes" || fail "not phase 0's 20 passes: $(cat "$tmp/passes")"
for row in "server 0" "server 1"; do
    # A row: the server, its 20 passes, ..., the moves of its strip's ends (not 0), runs gained.
    grep "^$row " "$tmp/passes" | awk '$3 == 20 && $(NF - 1) > 0 { ok = 1 } END { exit !ok }' ||
        fail "--passes: no row '$row' with 20 passes and moves: $(cat "$tmp/passes")"
done
grep -q "[1-9][0-9]* moves of a strip's end" "$tmp/passes" ||
    fail "--passes: no moves counted: $(cat "$tmp/passes")"
"$srcdir/scripts/trace-chart" --passes=0 --no-chart "$tmp/jacobi0.json" >"$tmp/passes" 2>&1 ||
    fail "trace-chart --passes=0: $(cat "$tmp/passes")"

# bad CODE ARGS...: trace-chart ARGS exits CODE with one line on stderr.
bad() {
    code=$1
    shift
    "$srcdir/scripts/trace-chart" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err"
    rc=$?
    if [ "$rc" != "$code" ] || [ "$(wc -l <"$tmp/bad.err")" != 1 ]; then
        fail "trace-chart $* exits $rc, not $code with one line: $(cat "$tmp/bad.err")"
    fi
}
bad 2 --passes=x "$tmp/moves.json"
bad 2 --passes=-1 "$tmp/moves.json"
bad 2 --passes= "$tmp/moves.json"
bad 2 --passes "$tmp/moves.json" "$tmp/jacobi0.json"
bad 1 --passes=7 --no-chart "$tmp/moves.json"
echo '{"traceEvents": []}' >"$tmp/empty.json"
bad 1 --passes --no-chart "$tmp/empty.json"

if command -v gnuplot >/dev/null 2>&1; then
    "$srcdir/scripts/trace-chart" "$tmp/jacobi0.json" "$tmp/jacobi1.json" >"$tmp/log" 2>&1 ||
        fail "trace-chart: $(cat "$tmp/log")"
    [ "$(head -c 4 "$tmp/jacobi0.all.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] ||
        fail "jacobi0.all.png is not a PNG"
    grep -q "<svg" "$tmp/jacobi0.all.svg" 2>/dev/null || fail "jacobi0.all.svg is not an SVG"
    "$srcdir/scripts/trace-chart" --passes "$tmp/moves.json" >"$tmp/log" 2>&1 ||
        fail "trace-chart --passes: $(cat "$tmp/log")"
    [ "$(head -c 4 "$tmp/moves.passes.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] ||
        fail "moves.passes.png is not a PNG"
    grep -q "<svg" "$tmp/moves.passes.svg" 2>/dev/null || fail "moves.passes.svg is not an SVG"
    [ -s "$tmp/moves.passes.dat" ] || fail "no moves.passes.dat"
    grep -q "^set arrow" "$tmp/moves.passes.gp" 2>/dev/null || fail "moves.passes.gp marks no move"
fi
finish
