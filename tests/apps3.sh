#!/bin/sh
# tests/apps3.sh - multigrid, LU, the expression tree and the task pool end
# to end (apps/, STYLE §12), as tests/apps.sh does the first apps.
#
# Every impl at 1, 2, 3, 4 and 8 servers (8 oversubscribes a small machine
# on purpose), with --verify: exit status 0, check=ok, and the same line as
# the sequential program's apart from impl=, servers= and seconds= (so the
# same digest, and the same cycles, residuals and task counts).  The task
# pool's counts are also checked here against Korch and Rauber's Table 4.
# Then bad options: exit status 2, one line on stderr, nothing on stdout.
#
# Run by `make check` from the top of the build tree; small sizes, some
# seconds on two cores.

set -u
apps=./apps
timeout=
command -v timeout >/dev/null 2>&1 && timeout="timeout 120"
tmp=${TMPDIR:-/tmp}/apps3-test.$$
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

compare multigrid "cg fil" --size=32 --iters=4
compare multigrid "cg fil" --size=2 --iters=3
compare multigrid "cg fil" --size=4 --iters=2 --sweeps=1
compare multigrid "cg fil" --size=16 --iters=100 --epsilon=1e-12 --sweeps=1
compare lu "cg fil" --size=40
compare lu "cg fil" --size=7
compare lu "cg fil" --size=2
compare lu "cg fil" --size=1
compare exprtree "cg fil fil-tree" --shape=8x20
compare exprtree "cg fil fil-tree" --shape=16x5
compare exprtree "cg fil fil-tree" --shape=2x1
compare exprtree "cg fil fil-tree" --leaves=4 --size=3
compare taskpool "cg fil fil-typed" --k=15 --f=1
compare taskpool "cg fil fil-typed" --k=20 --f=0
compare taskpool "cg fil fil-typed" --k=1 --f=3
compare taskpool "cg fil fil-typed" --k=2 --f=0

# Korch and Rauber's Table 4, on the line of every impl: k=15, 20, 25 and
# 32 (18 million tasks, under a second with f=0).
for impl in seq cg fil fil-typed; do
    servers=2
    [ $impl = seq ] && servers=1
    for kt in 15:5149 20:57290 25:635593 32:18454894; do
        run taskpool --impl=$impl --servers=$servers --k="${kt%:*}" --f=0 || continue
        case $line in
        *" tasks=${kt#*:} "*) ;;
        *) fail "taskpool --impl=$impl --k=${kt%:*}: want tasks=${kt#*:}: $line" ;;
        esac
    done
done

# The paper's two expression trees, at their own sizes.
for shape in 128x25 8x100; do
    run exprtree --shape=$shape --impl=fil --servers=2 --verify
    case $line in
    *" size=${shape#*x} leaves=${shape%x*} "*) ;;
    *) fail "exprtree --shape=$shape: $line" ;;
    esac
done

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

bad multigrid --size=48
bad multigrid --size=1
bad multigrid --size=3 --impl=fil
bad multigrid --sweeps=0
bad multigrid --iters=0
bad multigrid --epsilon=-1
bad lu --size=0
bad lu --impl=fil-tree
bad lu --servers=0
bad exprtree --shape=3x25
bad exprtree --shape=8x
bad exprtree --shape=x8
bad exprtree --shape=8x100x2
bad exprtree --shape=8x0
bad exprtree --shape
bad exprtree --leaves=6
bad exprtree --leaves=1
bad exprtree --size=0
bad taskpool --k=0
bad taskpool --k=61
bad taskpool --f=-1
bad taskpool --size=2
bad taskpool --impl=fil-tree
bad taskpool --impl=seq --servers=2

# --help: exit status 0, usage on stdout.
for app in multigrid lu exprtree taskpool; do
    "$apps/$app/$app" --help >"$tmp.out" 2>&1 && grep -q "^usage: $app" "$tmp.out" ||
        fail "$app --help"
done

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "apps3: all passed"
