# tests/app-test.sh - what the end-to-end application tests share (sourced
# by tests/apps.sh, apps2.sh, apps3.sh, fjapps.sh and loopapps.sh;
# apps/common/app.h).
#
# compare runs a program's parallel impls at 1, 2, 3, 4 and 8 servers (3
# leaves remainders; 8 oversubscribes a small machine on purpose), many at
# 1024, with --verify: exit status 0, one line, check=ok, and the same line
# as the sequential program's apart from impl=, servers=, seconds= and the
# library's counters (forks= pruned= steals= peak=), so the same digest.
# bad runs a program with a bad option: exit status 2, one line on stderr
# naming the app, nothing on stdout.
# A program is APP or APP-llvm (the peers built with clang and libomp).
# Run from the top of the build tree.

set -u
apps=./apps
timeout=
command -v timeout >/dev/null 2>&1 && timeout="timeout 120"
tmp=${TMPDIR:-/tmp}/$(basename "$0" .sh)-test.$$
trap 'rm -f "$tmp".out "$tmp".err' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# The program's path: APP-llvm lives in apps/APP/.
path() {
    echo "$apps/${1%-llvm}/$1"
}

# The line without the fields that differ between impls, in $stripped
# (the shell's own loop: a run costs two processes, not ten).
strip() {
    stripped=
    for field in $1; do
        case $field in
        impl=* | servers=* | ranks=* | seconds=* | forks=* | pruned=* | steals=* | peak=*) ;;
        *) stripped="$stripped $field" ;;
        esac
    done
}

# The parallel impls PROG lists in --help: not seq*, nor those whose help
# says "sequential" (jacobi's calls); the peers only where built; not the
# MPI programs (mpi*), which mpirun starts (tests/mpiapps.sh).
listed_impls() {
    "$(path "$1")" --help | sed -n '/^      [a-z][-a-z]*  *sequential/d
        s/^      \([a-z][-a-z]*\) .*/\1/p' | grep -v -e '^seq' -e '^mpi'
}

# The peers' impls PROG lists in --help (OpenMP, oneTBB), if any.
peer_impls() {
    listed_impls "$1" | grep -E '^(omp|tbb)' || true
}

# run PROG ARGS...: run once, check the exit status, one line and
# check=ok; the line in $line.
run() {
    prog=$1
    shift
    $timeout "$(path "$prog")" "$@" >"$tmp.out" 2>"$tmp.err"
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

# The server counts compare runs at (compare_at sets others for one call).
all_counts="1 2 3 4 8"
counts=$all_counts

# compare PROG IMPLS ARGS...: every impl of IMPLS (all: listed_impls) at
# every server count of $counts against seq.  One impl's answer depends on
# the server count: quad's static program adds the recursions over one
# equal segment per server (apps/quad/quad.h).  Its line says segments=N,
# and at N > 1 servers it is compared with the line of `seq --segments=N`,
# which computes that sum on its own; every other line says segments=1, as
# seq's does.
compare() {
    prog=$1
    impls=$2
    shift 2
    [ "$impls" = all ] && impls=$(listed_impls "$prog")
    run "$prog" --impl=seq "$@" || return
    strip "$line"
    want=$stripped
    for impl in $impls; do
        for servers in $counts; do
            ref=$want by=seq
            if [ "$impl" = static ] && [ "$servers" -ne 1 ]; then
                run "$prog" --impl=seq --segments="$servers" "$@" || continue
                strip "$line"
                ref=$stripped by="seq --segments=$servers"
            fi
            run "$prog" --impl="$impl" --servers="$servers" --verify "$@" || continue
            strip "$line"
            [ "$stripped" = "$ref" ] ||
                fail "$prog --impl=$impl --servers=$servers $*: '$stripped', $by: '$ref'"
        done
    done
}

# compare_at COUNTS PROG IMPLS ARGS...: compare at the server counts COUNTS.
compare_at() {
    counts=$1
    shift
    compare "$@"
    counts=$all_counts
}

# many PROG ARGS...: compare every parallel impl at 1024 servers, the most
# the apps and the library take: far more servers than the small problem
# ARGS has rows, points or tasks.  On 2 busy cores (2026-11-26) every app's
# took 31 s in the plain build and 77 s with ASan+UBSan; ThreadSanitizer
# takes some 13 s to start and stop 1024 servers, 10 minutes and more in
# all, so its build (SAN_CFLAGS in the Makefile here) leaves them out.
many() {
    grep -q '^SAN_CFLAGS = .*-fsanitize=thread' Makefile 2>/dev/null && return
    prog=$1
    shift
    compare_at 1024 "$prog" all "$@"
}

# bad PROG ARGS...: exit status 2, one line on stderr naming the app,
# nothing on stdout.
bad() {
    prog=$1
    shift
    $timeout "$(path "$prog")" "$@" >"$tmp.out" 2>"$tmp.err"
    rc=$?
    if [ $rc -ne 2 ] || [ -s "$tmp.out" ] || [ "$(wc -l <"$tmp.err")" -ne 1 ] ||
        ! grep -q "^${prog%-llvm}: " "$tmp.err"; then
        fail "$prog $*: exit status $rc (want 2)," \
            "stderr '$(cat "$tmp.err")', stdout '$(cat "$tmp.out")'"
    fi
}

# helps PROG...: --help exits 0 with the usage on stdout.
helps() {
    for prog in "$@"; do
        "$(path "$prog")" --help >"$tmp.out" 2>&1 &&
            grep -q "^usage: ${prog%-llvm}" "$tmp.out" || fail "$prog --help"
    done
}

# The -llvm program of APP, where clang and libomp were found.
llvm() {
    [ -x "$apps/$1/$1-llvm" ] && echo "$1-llvm"
}

# finish NAME: the verdict, as the exit status.
finish() {
    [ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
    echo "$1: all passed"
}
