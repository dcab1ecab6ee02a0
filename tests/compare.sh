#!/bin/sh
# tests/compare.sh - scripts/compare runs its commands in rotated order
# (each round starting one command further on), reads seconds= and a peer's
# "Time: X" (or the --field asked for), prints each command's median and
# paired ratio to the first's, and stops with one line and exit status 1 on
# a run that fails, prints check=FAIL, or prints no time or a time of 0.
# Skipped without python3.
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
need python3
scratch compare

# A stand-in program: appends NAME to the log and prints LINE.
cat >"$tmp/prog" <<'PROG'
#!/bin/sh
echo "$1" >>"${0%/*}/log"
shift
echo "$*"
PROG
chmod +x "$tmp/prog"
p=$tmp/prog

"$srcdir/scripts/compare" --runs=4 "$p a x seconds=2.0 check=ok" "$p b Time: 3.0" \
    "$p c seconds=1.0 Time: 9" >"$tmp/out" 2>&1 || fail "compare: $(cat "$tmp/out")"
order=$(tr -d '\n' <"$tmp/log")
[ "$order" = abcbcacababc ] || fail "order of the runs: $order (want abc bca cab abc)"
# ratios NAME: the ratio and the paired ratio of command NAME to the first.
ratios() { awk -v name="$1" '$2 == name { print $(NF - 3), $(NF - 2) }' "$tmp/out"; }
[ "$(ratios b)" = "1.500 1.500" ] || fail "b's ratios: $(cat "$tmp/out")"
[ "$(ratios c)" = "0.500 0.500" ] || fail "c's ratios: $(cat "$tmp/out")"

"$srcdir/scripts/compare" --runs=1 --field=wall "$p a seconds=1 wall=4" \
    "$p b wall: 2" >"$tmp/out" 2>&1 || fail "compare --field=wall: $(cat "$tmp/out")"
[ "$(ratios b)" = "0.500 0.500" ] || fail "--field=wall: $(cat "$tmp/out")"

# refused COMMAND...: exit status 1, one line, naming the command.
refused() {
    "$srcdir/scripts/compare" --runs=2 "$p a seconds=1" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qF "'$*'" "$tmp/err"; then
        fail "$*: exit status $rc (want 1), stderr '$(cat "$tmp/err")'"
    fi
}
refused "$p b seconds=1 check=FAIL"
refused "$p b no time here"
refused "$p b Time: 0"
refused "$p b seconds=0.0"
refused "sh -c 'exit 3'; $p"
refused "$tmp/absent $p"

finish
