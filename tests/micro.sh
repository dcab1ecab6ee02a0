#!/bin/sh
# micro.sh - bench/micro runs every benchmark it lists and prints one
# well-formed line for each (tiny counts; the numbers are not looked at), and
# rejects bad options with one line and exit 2.  bench/omp-barrier likewise,
# where it is built, and bench/epcc with its OpenMP twins.
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
micro=./bench/micro
[ -x "$micro" ] || { echo "bench/micro is not built"; exit 99; }

for w in $("$micro" --what=list); do
    [ "$w" = list ] && continue
    out=$("$micro" --what="$w" --count=1000 --servers=2 --rounds=1 --passes=2 --row=10) ||
        fail "--what=$w: exit $?"
    [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "--what=$w: not one line: $out"
    case $out in
    "what=$w servers=2 count=1000 "*" ns_per="[0-9]*) ;;
    "what=parallel servers=2 count=1000 "*" us_per="[0-9]*) ;;
    "what=bytes servers=2 count=1000 rtc="[0-9]*" iter_alone="[0-9]*" iter_run="[0-9]*) ;;
    *) fail "--what=$w: $out" ;;
    esac
done
out=$("$micro" --what=barrier --count=100 --servers=2 --rounds=1)
case $out in
*" ns_per="*" pthread_ns_per="*" spin_ns_per="*) ;;
*) fail "--what=barrier lacks a peer: $out" ;;
esac

for args in "--bogus" "--what=nosuch" "--what=rtc --count=0" "--what=rtc --servers=x" \
    "--what=rtc --rounds=0" "" "--what=rtc extra"; do
    # shellcheck disable=SC2086
    "$micro" $args >/dev/null 2>"${TMPDIR:-/tmp}/micro.err.$$"
    rc=$?
    [ $rc = 2 ] || fail "micro $args: exit $rc, not 2"
    [ "$(wc -l <"${TMPDIR:-/tmp}/micro.err.$$")" = 1 ] || fail "micro $args: not one line"
done
rm -f "${TMPDIR:-/tmp}/micro.err.$$"

if [ -x ./bench/omp-barrier ]; then
    out=$(./bench/omp-barrier --servers=2 --count=100 --rounds=1) || fail "omp-barrier: exit $?"
    case $out in
    "what=omp-barrier servers=2 count=100 "*" ns_per="[0-9]*) ;;
    *) fail "omp-barrier: $out" ;;
    esac
    ./bench/omp-barrier --bogus >/dev/null 2>&1
    [ $? = 2 ] || fail "omp-barrier --bogus: not exit 2"
fi

# bench/epcc and its OpenMP twins, where built: a line per construct, and
# bad options refused with exit 2.
for e in ./bench/epcc ./bench/epcc-omp ./bench/epcc-llvm; do
    [ -x "$e" ] || continue
    out=$("$e" --threads=2 --reps=10 --outer=1) || fail "$e: exit $?"
    [ "$(printf '%s\n' "$out" | grep -c '^bench=epcc .* test=.* overhead_us=[-0-9]')" = 3 ] ||
        fail "$e: not a line per construct: $out"
    for args in "--test=nosuch" "--threads=0" "--bogus"; do
        "$e" $args >/dev/null 2>&1
        [ $? = 2 ] || fail "$e $args: not exit 2"
    done
done
finish
