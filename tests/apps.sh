#!/bin/sh
# tests/apps.sh - the applications end to end (apps/, STYLE §12).
#
# Every app, every impl, at 1, 2, 3, 4 and 8 servers (8 oversubscribes a
# small machine on purpose), with --verify: exit status 0, check=ok, and
# the same line as the sequential program's apart from impl=, servers= and
# seconds= (so the same digest, iteration count and maxdiff).  Then bad
# options: exit status 2, one line on stderr, nothing on stdout.
#
# Run by `make check` from the top of the build tree; small sizes, a few
# seconds on two cores.

set -u
apps=./apps
timeout=
command -v timeout >/dev/null 2>&1 && timeout="timeout 120"
tmp=${TMPDIR:-/tmp}/apps-test.$$
trap 'rm -f "$tmp".out "$tmp".err' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# The line without the fields that differ between impls.
strip() {
    echo "$1" | sed -e 's/ impl=[^ ]*//' -e 's/ servers=[^ ]*//' -e 's/ seconds=[^ ]*//'
}

# run APP ARGS...: run once, check the exit status and check=ok; the line in $line.
run() {
    app=$1
    shift
    $timeout "$apps/$app/$app" "$@" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    line=$(cat "$tmp.out")
    if [ $rc -ne 0 ] || [ "$(wc -l <"$tmp.out")" -ne 1 ]; then
        fail "$app $*: exit status $rc, output '$line', $(cat "$tmp.err")"
        return 1
    fi
    case $line in
    *" check=ok "*) ;;
    *) fail "$app $*: $line"; return 1 ;;
    esac
    return 0
}

# compare APP "IMPLS" ARGS...: every impl at every server count against seq.
compare() {
    app=$1
    impls=$2
    shift 2
    run "$app" --impl=seq "$@" || return
    want=$(strip "$line")
    for impl in $impls; do
        for servers in 1 2 3 4 8; do
            run "$app" --impl="$impl" --servers="$servers" --verify "$@" || continue
            got=$(strip "$line")
            [ "$got" = "$want" ] ||
                fail "$app --impl=$impl --servers=$servers $*: '$got', seq: '$want'"
        done
    done
}

compare matmul "cg fil" --size=64
compare matmul "cg fil" --size=5
compare jacobi "cg fil fil-norange" --size=40 --iters=30
compare jacobi "cg fil fil-norange" --size=3 --iters=7
compare jacobi "cg fil fil-norange" --size=12 --iters=100000 --epsilon=1e-4
compare sor "cg fil" --size=41 --iters=30
compare sor "cg fil" --size=2 --iters=7 --omega=1.2
compare sor "cg fil" --size=1 --iters=3
compare sor "cg fil" --size=12 --iters=100000 --epsilon=1e-4

# The OpenMP and oneTBB peers, where configure found them (BENCHMARKS.md):
# in the app's program, or in APP-llvm for clang's libomp.
peer_args() {
    if [ "$1" = matmul ]; then echo --size=37; else echo --size=23 --iters=15; fi
}
for app in matmul jacobi; do
    peers=
    for impl in omp omp-for tbb; do
        "$apps/$app/$app" --help 2>/dev/null | grep -q "^ *$impl " && peers="$peers $impl"
    done
    # shellcheck disable=SC2046
    [ -n "$peers" ] && compare $app "$peers" $(peer_args $app)
    prog=$apps/$app/$app-llvm
    [ -x "$prog" ] || continue
    # shellcheck disable=SC2046
    run $app --impl=seq $(peer_args $app) || continue
    want=$(strip "$line")
    for impl in omp-llvm omp-llvm-for; do
        for servers in 1 2 3; do
            # shellcheck disable=SC2046
            got=$($timeout "$prog" --impl=$impl --servers=$servers --verify $(peer_args $app))
            [ "$(strip "$got")" = "$want" ] || fail "$app-llvm --impl=$impl: '$got', seq: '$want'"
        done
    done
done

# The sequential variants besides seq.
run jacobi --impl=calls --size=40 --iters=30 --verify

# bad APP ARGS...: exit status 2, one line on stderr naming the app, nothing on stdout.
bad() {
    app=$1
    shift
    $timeout "$apps/$app/$app" "$@" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    if [ $rc -ne 2 ] || [ -s "$tmp.out" ] || [ "$(wc -l <"$tmp.err")" -ne 1 ] ||
        ! grep -q "^$app: " "$tmp.err"; then
        fail "$app $*: exit status $rc (want 2)," \
            "stderr '$(cat "$tmp.err")', stdout '$(cat "$tmp.out")'"
    fi
}

bad matmul --size=abc
bad matmul --size=0
bad matmul --size=-3
bad matmul --size=
bad matmul --size=99999999999999999999
bad matmul --size=100000
bad matmul --servers=0
bad matmul --servers=two
bad matmul --impl=nope
bad matmul --impl=seq --servers=2
bad matmul --bogus
bad matmul --size
bad matmul --verify=yes
bad matmul extra
bad jacobi --iters=0
bad jacobi --iters=1.5
bad jacobi --epsilon=-1
bad jacobi --epsilon=nan
bad jacobi --epsilon=1e999
bad sor --omega=2
bad sor --omega=0
bad sor --impl=fil-norange

# --help: exit status 0, usage on stdout.
for app in matmul jacobi sor; do
    "$apps/$app/$app" --help >"$tmp.out" 2>&1 && grep -q "^usage: $app" "$tmp.out" ||
        fail "$app --help"
done

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "apps: all passed"
