#!/bin/sh
# mpi-model.sh - scripts/mpi-model and scripts/speedup-tables --ranks.
# Everywhere: the model's formulas (doc/mpi-model.md) on made-up inputs
# (tests/data/mpi-model-raw.txt), against answers worked out by hand; a
# failed run in the inputs stops it; bad options exit 2.  Where configure
# found MPI (bench/mpi-pingpong is built): the ping-pong's bad options, and
# a short live run of the model (ping-pong, rates, the points at 1 and 2
# ranks) and, where the apps have MPI programs, of speedup-tables --ranks
# 1,2.  Nothing is timed against anything.
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
# The live runs under AddressSanitizer: LeakSanitizer reports Open MPI's own
# allocations from MPI_Init, as in tests/mpi.sh; leaks are not checked here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
need python3
model=$srcdir/scripts/mpi-model
scratch mpi-model

# --- 1. the formulas.  Inputs: t_node(b) = 100 us + (b - 8) ns, allreduce
# 200 us, tau_s = 100 ns, tau_f = 200 ns a point; Jacobi 100 x 100, 10
# iterations.  Hybrid 2 x 1: rows 50, w = 20 us, I = 49 w = 980 us, Bd = w,
# H = t_node(816) = 100.808 us: pass max(I, H) + Bd = 1000 us, iteration
# 1200 us with the allreduce, 0.0120 s; no overlap: 1300.808 us, 0.0130 s.
# MPI 2 x 1 at 100 ns: 0.0070 s and 0.0080 s.  On 2 nodes of 2 cores at
# 2 us and 100 Gb/s: the hybrid's pass is 49 w / 2 + w = 510 us, its
# allreduce 2.00064 us, 0.00512001 s, speedup 1.953; MPI alone at 4 ranks:
# pass 23 w + 2 w at 100 ns = 250 us, allreduce 200 + 2.00064 us, 0.00452001 s.
if ! "$model" --from-raw "$srcdir/tests/data/mpi-model-raw.txt" --apps jacobi --nodes 1,2 \
    --cores 2 --size jacobi=100:10 --out "$tmp/m" --no-charts >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "--from-raw tests/data/mpi-model-raw.txt exited non-zero"
fi
expect() {  # $1: a regular expression that must match a line of $2
    grep -q "$1" "$2" || fail "no line '$1' in $2"
}
expect "^jacobi  *fil  *-  *1  *0\.0200  *0\.0200  *1\.00  *1\$" "$tmp/m/mpi-model.txt"
expect "^jacobi  *fil  *-  *2  *0\.0100  *0\.0110  *1\.10 " "$tmp/m/mpi-model.txt"
expect "^jacobi  *mpi-fil  *2  *1  *0\.0120  *0\.0132  *1\.10 " "$tmp/m/mpi-model.txt"
expect "^jacobi  *mpi-fil-nooverlap  *2  *1  *0\.0130  *0\.0130  *1\.00 " "$tmp/m/mpi-model.txt"
expect "^jacobi  *mpi  *2  *1  *0\.0070  *0\.0070  *1\.00 " "$tmp/m/mpi-model.txt"
expect "^jacobi  *mpi-nooverlap  *2  *1  *0\.0080  *0\.0088  *1\.10 " "$tmp/m/mpi-model.txt"
expect "^jacobi  *mpi-fil  *1  *2  *0\.0100  *-  *-  *not measured\$" "$tmp/m/mpi-model.txt"
expect "^jacobi,hybrid,2,2,2,2,0\.00512001,1\.953\$" "$tmp/m/mpi-model.csv"
expect "^jacobi,MPI,2,2,4,1,0\.00452001,2\.212\$" "$tmp/m/mpi-model.csv"
expect "^jacobi,MPI no-overlap,1,2,2,1,0\.00800808,1\.249\$" "$tmp/m/mpi-model.csv"
expect "latency 100 us (8 B)" "$tmp/m/mpi-model.txt"
expect "no overlap hides: not measured" "$tmp/m/mpi-model.txt"
# The receiver's part, which no overlap hides: 40 us at every size (the
# ping-pong's late wait).  Hybrid 2 x 1: pass max(I, H - 40 us) + 40 us + Bd
# = 1040 us, 0.0124 s; without overlap as before, 0.0130 s.  Beyond this
# machine the stated network has none: 0.00512001 s again.
{ cat "$srcdir/tests/data/mpi-model-raw.txt"
  echo "what=arrived ranks=2 bytes=8 reps=64 seconds=4e-05 min=4e-05 max=4e-05"
  echo "what=arrived ranks=2 bytes=8388608 reps=64 seconds=4e-05 min=4e-05 max=4e-05"
} >"$tmp/arrived.txt"
if ! "$model" --from-raw "$tmp/arrived.txt" --apps jacobi --nodes 1,2 --cores 2 \
    --size jacobi=100:10 --out "$tmp/a" --no-charts >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "--from-raw with what=arrived lines exited non-zero"
fi
expect "^jacobi  *mpi-fil  *2  *1  *0\.0124  *0\.0132  *1\.06 " "$tmp/a/mpi-model.txt"
expect "^jacobi  *mpi-fil-nooverlap  *2  *1  *0\.0130  *0\.0130  *1\.00 " "$tmp/a/mpi-model.txt"
expect "^jacobi,hybrid,2,2,2,2,0\.00512001,1\.953\$" "$tmp/a/mpi-model.csv"
expect "no overlap hides: 40 us at 8 B" "$tmp/a/mpi-model.txt"
# A wrong answer among the inputs is not a time: exit 1, one line naming it.
cp "$srcdir/tests/data/mpi-model-raw.txt" "$tmp/bad.txt"
echo "app=jacobi impl=mpi servers=1 size=100 ranks=2 iters=10 seconds=1 check=ok digest=bb" \
    >>"$tmp/bad.txt"
"$model" --from-raw "$tmp/bad.txt" --apps jacobi --out "$tmp/bad" --no-charts >/dev/null \
    2>"$tmp/err"
rc=$?
[ $rc = 1 ] || fail "a wrong digest in the inputs: exit $rc, not 1"
grep -q "jacobi: a failed run .*digest bb; seq printed 00000000000000aa" "$tmp/err" ||
    fail "a wrong digest: '$(cat "$tmp/err")'"
# The chart, where gnuplot is.
if command -v gnuplot >/dev/null 2>&1; then
    "$model" --from-raw "$srcdir/tests/data/mpi-model-raw.txt" --apps jacobi \
        --out "$tmp/c" >/dev/null 2>&1 || fail "with the chart: exit non-zero"
    [ "$(head -c 4 "$tmp/c/mpi-model.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] ||
        fail "mpi-model.png is not a PNG"
    grep -q "<svg" "$tmp/c/mpi-model.svg" 2>/dev/null || fail "mpi-model.svg is not an SVG"
fi

# --- 2. bad options: one line, exit 2
for args in "--bogus" "--latency -1" "--latency x" "--bandwidth 0" "--nodes 0" "--cores 0" \
    "--size nosuch=10" "--size jacobi=x" "--size matmul=100:5" "--measure-size sor=1" \
    "--apps nosuch" "--runs 0" "extra"; do
    # shellcheck disable=SC2086
    "$model" $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] || fail "mpi-model '$args': exit $rc, not 2"
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "mpi-model '$args': not one line: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "mpi-model '$args': printed on stdout"
done
# Without MPI and without --from-raw, it says so in one line and exits 2.
MPIRUN=/nonexistent "$model" --out "$tmp/none" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "MPI is not built" "$tmp/err" ||
    fail "no MPI: exit $rc, '$(cat "$tmp/err")'"

# --- 3. live, where MPI is built.  The programs are this build's, which
# need not be the tree the scripts are in (an out-of-tree build, make
# distcheck): --builddir and --apps-dir name them.
if [ ! -x ./bench/mpi-pingpong ]; then
    finish "ok (MPI not built: the live runs skipped)"
fi
for args in "--rounds=0" "--ms=0" "--min-bytes=x" "--min-bytes=10 --max-bytes=9" "--bogus"; do
    # shellcheck disable=SC2086
    ./bench/mpi-pingpong $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] ||
        fail "mpi-pingpong '$args': exit $rc, '$(cat "$tmp/err")'"
done
if ! "$model" --builddir "$(pwd)" --apps jacobi --measure-size jacobi=64:5 --size jacobi=256:10 --runs 1 \
    --pingpong-ms 1 --nodes 1,2 --out "$tmp/live" --no-charts >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "a live run of the model exited non-zero"
fi
grep -q "^what=pingpong ranks=2 bytes=4194304 " "$tmp/live/mpi-model-raw.txt" ||
    fail "no ping-pong lines in mpi-model-raw.txt"
expect "^jacobi  *fil  *-  *2  *[0-9.]*  *[0-9.]*  *[0-9.]*  *1\$" "$tmp/live/mpi-model.txt"
if ./apps/jacobi/jacobi --help | grep -q "^ *mpi-fil "; then
    expect "^jacobi  *mpi-fil  *2  *1  *[0-9.]*  *[0-9.]*  *[0-9.]*  *1\$" \
        "$tmp/live/mpi-model.txt"
    if ! "$srcdir/scripts/speedup-tables" --no-setup --no-charts --apps-dir ./apps \
        --apps jacobi --cpus 1,2 --ranks 1,2 --runs 1 --size jacobi=64:5 --out "$tmp/ranks" >"$tmp/log" 2>&1; then
        cat "$tmp/log"
        fail "speedup-tables --ranks 1,2 exited non-zero"
    fi
    grep -q "^2  *2  *-  *-  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]* " "$tmp/ranks/jacobi.txt" ||
        fail "speedup-tables --ranks: no row of 2 CPUs, 2 ranks: $(cat "$tmp/ranks/jacobi.txt")"
    [ "$(grep -c '^app=jacobi impl=mpi-fil .* ranks=2 ' "$tmp/ranks/raw.txt")" = 1 ] ||
        fail "speedup-tables --ranks: not one mpi-fil line at 2 ranks"
fi
finish
