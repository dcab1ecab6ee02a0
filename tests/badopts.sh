#!/bin/sh
# tests/badopts.sh - every app, benchmark and script rejects bad option
# values (negative, zero where the range starts at 1, absurdly large,
# non-numeric, empty) and unknown options or arguments with exit status 2,
# one line on stderr and nothing on stdout.  The apps' numeric options and
# their lower bounds are read from each app's --help, so a new option is
# tried without a change here.
set -u
srcdir=${srcdir:-.}
timeout=
command -v timeout >/dev/null 2>&1 && timeout="timeout 60"
tmp=${TMPDIR:-/tmp}/badopts-test.$$
trap 'rm -f "$tmp".*' EXIT
status=0
tries=0

# bad PROGRAM ARGS...: exit status 2, one line on stderr, nothing on stdout.
bad() {
    tries=$((tries + 1))
    $timeout "$@" >"$tmp.out" 2>"$tmp.err" </dev/null
    rc=$?
    if [ $rc -ne 2 ] || [ -s "$tmp.out" ] || [ "$(wc -l <"$tmp.err")" -ne 1 ]; then
        echo "FAIL: $*: exit status $rc (want 2), stderr '$(cat "$tmp.err")'," \
            "stdout '$(head -c 200 "$tmp.out")'"
        status=1
    fi
}

huge=99999999999999999999
for app in matmul jacobi sor convolution mandelbrot fft gauss multigrid lu exprtree taskpool \
        fib quad quicksort uts knapsack sparselu allpairs floorplan nw blu; do
    prog=./apps/$app/$app
    [ -x "$prog" ] || { echo "FAIL: $prog not built"; status=1; continue; }
    # "  --size=N      problem size, 1 to 100000": the option, its kind (N a
    # whole number, X a real one) and, where the help gives a range, its start.
    "$prog" --help | sed -n 's/^  \(--[a-z-]*\)=\([NX]\) .*/\1 \2 &/p' >"$tmp.opts"
    while read -r opt kind line; do
        low=$(echo "$line" | sed -n 's/.*[^0-9.]\([0-9][0-9.]*\) to [0-9].*/\1/p')
        for v in -1 abc "" 1x 5junk; do
            bad "$prog" "$opt=$v"
        done
        if [ "$kind" = N ]; then
            bad "$prog" "$opt=$huge"
            bad "$prog" "$opt=-$huge"
            bad "$prog" "$opt=1.5"
        else
            bad "$prog" "$opt=1e999"
            bad "$prog" "$opt=nan"
        fi
        case $low in [1-9]*) bad "$prog" "$opt=0" ;; esac
    done <"$tmp.opts"
    bad "$prog" --impl=nope
    bad "$prog" --bogus
    bad "$prog" stray-argument
done

for what in rtc barrier; do
    for v in -1 0 abc "" "$huge"; do
        bad ./bench/micro --what="$what" --count="$v"
        bad ./bench/micro --what="$what" --servers="$v"
    done
done
bad ./bench/micro --what=nope
for o in servers sleep-ms stretch-ms; do
    for v in -1 0 abc "" "$huge"; do
        bad ./bench/idle --"$o=$v"
    done
done
bad ./bench/idle --bogus
for o in servers children rounds us; do
    for v in -1 0 abc "" "$huge"; do
        [ "$o$v" = us0 ] || bad ./bench/forkloop --"$o=$v"    # --us=0: children of no work
    done
done
bad ./bench/forkloop --bogus
bad ./bench/forkloop stray-argument
for o in seconds count; do
    for v in -1 0 abc "" "$huge"; do
        bad ./tests/soak --"$o=$v"
    done
done
bad ./tests/soak --seed=-1
bad ./tests/soak stray-argument

for v in -1 0 abc "" "$huge"; do
    bad "$srcdir/scripts/oversubscription" --repeat="$v"
    bad "$srcdir/scripts/speedup-tables" --no-setup --runs="$v"
    bad "$srcdir/scripts/micro-overheads" --count="$v"
    bad "$srcdir/scripts/mpi-model" --runs="$v"
    bad "$srcdir/scripts/speedup-tables" --no-setup --ranks="$v"
    bad "$srcdir/scripts/compare" --runs="$v" true
    bad "$srcdir/scripts/noise" --share="$v" true
    bad "$srcdir/scripts/speedup-tables" --no-setup --noise="$v"
done
bad "$srcdir/scripts/noise" --bogus
bad "$srcdir/scripts/compare" --bogus true
bad "$srcdir/scripts/compare" --field="" true
bad "$srcdir/scripts/compare"
bad "$srcdir/scripts/mpi-model" --bogus
bad "$srcdir/scripts/oversubscription" --bogus
bad "$srcdir/scripts/run-tests" --bogus
bad "$srcdir/scripts/setup" --bogus
bad "$srcdir/scripts/debian-check" --bogus
bad "$srcdir/scripts/cross-tests" --bogus
bad "$srcdir/scripts/cross-tests" i386 . _build/i386 tests/check_queue
bad "$srcdir/tests/installed.sh" --bogus
bad "$srcdir/scripts/trace-chart" --bogus x.json
bad "$srcdir/scripts/trace-chart"
echo "badopts: $tries bad command lines tried"
exit $status
