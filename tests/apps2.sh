#!/bin/sh
# tests/apps2.sh - the second set of applications end to end (apps/,
# STYLE §12): adjoint convolution, Mandelbrot, 2-D FFT, Gaussian
# elimination [paper §3.4].
#
# As tests/apps.sh: every app, every impl, at 1, 2, 3, 4 and 8 servers (8
# oversubscribes a small machine on purpose), with --verify: exit status 0,
# check=ok, and the same line as the sequential program's apart from
# impl=, servers= and seconds= (so the same digest, and the same inside=
# or residual=).  Sizes include the degenerate ones (1 point, fewer points
# or columns than servers).  Then bad options: exit status 2, one line on
# stderr, nothing on stdout.
#
# Run by `make check` from the top of the build tree; small sizes, a few
# seconds on two cores.

set -u
apps=./apps
timeout=
command -v timeout >/dev/null 2>&1 && timeout="timeout 120"
tmp=${TMPDIR:-/tmp}/apps2-test.$$
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

compare convolution "cg cg-cyclic fil fil-any" --size=3000
compare convolution "cg cg-cyclic fil fil-any" --size=5
compare convolution "cg cg-cyclic fil fil-any" --size=1
compare mandelbrot "cg fil fil-any" --size=96 --iters=300
compare mandelbrot "cg fil fil-any" --size=5 --iters=20
compare mandelbrot "cg fil fil-any" --size=1
compare fft "cg fil" --size=128
compare fft "cg fil" --size=4
compare fft "cg fil" --size=1
compare gauss "cg fil" --size=100
compare gauss "cg fil" --size=7
compare gauss "cg fil" --size=1

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

bad convolution --size=0
bad convolution --size=10000001
bad convolution --impl=nope
bad convolution --impl=fil --servers=0
bad convolution --impl=seq --servers=2
bad convolution --iters=5
bad mandelbrot --iters=0
bad mandelbrot --iters=1.5
bad mandelbrot --iters=2147483648
bad mandelbrot --iters=
bad mandelbrot --size=abc
bad fft --size=12
bad fft --size=3
bad fft --impl=fil --servers=2 --size=1000
bad fft --size=0
bad fft --impl=fil-any
bad gauss --size=-1
bad gauss --impl=fil-any
bad gauss --verify=yes
bad gauss extra

# --help: exit status 0, usage on stdout.
for app in convolution mandelbrot fft gauss; do
    "$apps/$app/$app" --help >"$tmp.out" 2>&1 && grep -q "^usage: $app" "$tmp.out" ||
        fail "$app --help"
done

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "apps2: all passed"
