#!/bin/sh
# floor.sh - bench/floor runs every shape right (its own check) at 1 to 3
# servers and rejects bad options with one line and exit 2; scripts/floor
# passes a count within its baseline, fails one that rose above it (a
# baseline set lower, as a slower change would meet it), and names a shape
# it does not know.  The counts themselves are scripts/run-tests' stage.
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
floor=./bench/floor
[ -x "$floor" ] || { echo "bench/floor is not built"; exit 99; }

for s in $("$floor" --shape=list); do
    # Lace's knapsack updates its bound with a data race, as Lace's does:
    # one server only.
    servers="1 2 3"
    [ "$s" = knapsack ] && servers=1
    for p in $servers; do
        out=$("$floor" --shape="$s" --reps=2 --servers="$p") || fail "--shape=$s --servers=$p: exit $?"
        case $out in
        "shape=$s reps=2 per="[1-9]*" check=ok") ;;
        *) fail "--shape=$s --servers=$p: $out" ;;
        esac
    done
done

for args in "--bogus" "--shape=nosuch" "--shape=pi --reps=0" "--shape=pi --servers=x" "" \
    "--shape=pi extra"; do
    # shellcheck disable=SC2086
    "$floor" $args >/dev/null 2>"${TMPDIR:-/tmp}/floor.err.$$"
    rc=$?
    [ $rc = 2 ] || fail "floor $args: exit $rc, not 2"
    [ "$(wc -l <"${TMPDIR:-/tmp}/floor.err.$$")" = 1 ] || fail "floor $args: not one line"
done
rm -f "${TMPDIR:-/tmp}/floor.err.$$"

# scripts/floor needs valgrind, which cannot run a sanitized build.
build_compiler
if [ -z "$san" ] && command -v valgrind >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    scratch floor
    run_floor() { python3 "$srcdir/scripts/floor" --builddir . --baseline "$tmp/base" --shapes fib-sync "$@"; }
    run_floor --update >/dev/null || fail "scripts/floor --update: exit $?"
    run_floor >"$tmp/out" || fail "scripts/floor against its own figures: exit $?"
    grep -q '^fib-sync .* ok$' "$tmp/out" || fail "scripts/floor: no ok line: $(cat "$tmp/out")"
    # A baseline 10 % lower: the count rose past it.
    awk '$1 == "fib-sync" { $2 = $2 * 0.9 } { print }' "$tmp/base" >"$tmp/lower" &&
        mv "$tmp/lower" "$tmp/base"
    run_floor >"$tmp/out"
    [ $? = 1 ] || fail "scripts/floor with a rise of 10 %: not exit 1"
    grep -q '^fib-sync .* ROSE$' "$tmp/out" || fail "scripts/floor: no ROSE line: $(cat "$tmp/out")"
    python3 "$srcdir/scripts/floor" --builddir . --shapes nosuch >/dev/null 2>&1
    [ $? = 2 ] || fail "scripts/floor --shapes nosuch: not exit 2"
fi
finish
