#!/bin/sh
# tests/fjapps.sh - the fork/join applications end to end: fib, quad and
# quicksort, with their OpenMP and oneTBB peers where they were built
# (apps/, STYLE §12).
#
# Every parallel impl that a program lists in --help, at 1, 2, 3, 4 and 8
# servers (8 oversubscribes a small machine on purpose), with --verify:
# exit status 0, check=ok, and the same line as the sequential program's
# apart from impl=, servers=, seconds= and the library's counters (forks=
# pruned= steals= peak=), so the same digest.  quad's static program is
# the exception: its area is the sum over its segments (apps/quad/quad.h),
# so it must equal seq at 1 server only, and elsewhere pass --verify, which
# compares it with the sequential recursion over the same segments.  Then
# bad options: exit status 2, one line on stderr, nothing on stdout.
#
# Run by `make check` from the top of the build tree; small sizes, some
# 20 seconds on two busy cores.

set -u
apps=./apps
timeout=
command -v timeout >/dev/null 2>&1 && timeout="timeout 120"
tmp=${TMPDIR:-/tmp}/fjapps-test.$$
trap 'rm -f "$tmp".out "$tmp".err' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# The line without the fields that differ between impls, in $stripped
# (the shell's own loop: a run costs two processes, not ten).
strip() {
    stripped=
    for field in $1; do
        case $field in
        impl=* | servers=* | seconds=* | forks=* | pruned=* | steals=* | peak=*) ;;
        *) stripped="$stripped $field" ;;
        esac
    done
}

# The parallel impls PROG lists in --help (the peers only where built).
impls() {
    "$apps/${1%-llvm}/$1" --help | sed -n 's/^      \([a-z][-a-z]*\) .*/\1/p' | grep -v '^seq'
}

# run PROG ARGS...: run once, check the exit status, one line and
# check=ok; the line in $line.
run() {
    prog=$1
    shift
    $timeout "$apps/${prog%-llvm}/$prog" "$@" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    line=
    more=
    { IFS= read -r line; IFS= read -r more; } <"$tmp.out"
    if [ $rc -ne 0 ] || [ -z "$line" ] || [ -n "$more" ]; then
        fail "$prog $*: exit status $rc, output '$(cat "$tmp.out")', $(cat "$tmp.err")"
        return 1
    fi
    case $line in
    *" check=ok "*) ;;
    *) fail "$prog $*: $line"; return 1 ;;
    esac
    return 0
}

# compare PROG ARGS...: every parallel impl at every server count against seq.
compare() {
    prog=$1
    shift
    run "$prog" --impl=seq "$@" || return
    strip "$line"
    want=$stripped
    for impl in $(impls "$prog"); do
        for servers in 1 2 3 4 8; do
            run "$prog" --impl="$impl" --servers="$servers" --verify "$@" || continue
            [ "$impl" = static ] && [ "$servers" -ne 1 ] && continue
            strip "$line"
            [ "$stripped" = "$want" ] ||
                fail "$prog --impl=$impl --servers=$servers $*: '$stripped', seq: '$want'"
        done
    done
}

# The -llvm programs exist where clang and libomp were found.
llvm() {
    [ -x "$apps/$1/$1-llvm" ] && echo "$1-llvm"
}

for prog in fib $(llvm fib); do
    compare "$prog" --size=18
    compare "$prog" --size=2
done
compare fib --size=0
compare fib --size=1
run fib --impl=seq-ptr --size=20 --verify

for prog in quad $(llvm quad); do
    compare "$prog" --size=12 --epsilon=1e-4
done
compare quad --size=2 --epsilon=1e-3
compare quad --size=12 --epsilon=1e10    # the whole interval is one leaf

compare quicksort --size=20000 --cutoff=100
compare quicksort --size=5000 --keys=3 --cutoff=2    # many equal keys, the finest grain
compare quicksort --size=1

# bad PROG ARGS...: exit status 2, one line on stderr naming the app, nothing on stdout.
bad() {
    prog=$1
    shift
    $timeout "$apps/${prog%-llvm}/$prog" "$@" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    if [ $rc -ne 2 ] || [ -s "$tmp.out" ] || [ "$(wc -l <"$tmp.err")" -ne 1 ] ||
        ! grep -q "^${prog%-llvm}: " "$tmp.err"; then
        fail "$prog $*: exit status $rc (want 2)," \
            "stderr '$(cat "$tmp.err")', stdout '$(cat "$tmp.out")'"
    fi
}

bad fib --size=93
bad fib --size=-1
bad fib --impl=static
bad fib --impl=seq-ptr --servers=2
bad fib --epsilon=1
bad quad --size=1
bad quad --size=201
bad quad --epsilon=0
bad quad --epsilon=-1e-9
bad quad --epsilon=inf
bad quad --impl=cg
bad quicksort --size=0
bad quicksort --cutoff=1
bad quicksort --keys=-1
bad quicksort --impl=bag
for prog in $(llvm fib) $(llvm quad); do
    bad "$prog" --impl=omp
    bad "$prog" --impl=fil
done

# --help: exit status 0, usage on stdout.
for prog in fib quad quicksort $(llvm fib) $(llvm quad); do
    "$apps/${prog%-llvm}/$prog" --help >"$tmp.out" 2>&1 &&
        grep -q "^usage: ${prog%-llvm}" "$tmp.out" || fail "$prog --help"
done

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "fjapps: all passed"
