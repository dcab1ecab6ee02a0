#!/bin/sh
# speedup-quick.sh - scripts/speedup-tables --quick end to end on the real,
# built apps: two small ones (matmul, and the task-pool algorithm, whose size
# is --k and whose f is fixed per table) at 1 and 2 CPUs, three rounds, tiny
# explicit sizes, and --trace.  Checks the tables' shape, the traces and
# their links, and that nothing failed; no time is compared with anything.
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
need python3
[ -x ./apps/matmul/matmul ] && [ -x ./apps/taskpool/taskpool ] ||
    { echo "the apps are not built"; exit 99; }
scratch speedup-quick

if ! "$srcdir/scripts/speedup-tables" --quick --no-setup --no-charts --no-micro \
    --apps-dir ./apps --apps matmul,taskpool-f1 --cpus 1,2 --runs 3 \
    --size matmul=48,taskpool-f1=12 --trace --out "$tmp/out" >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "exit non-zero"
fi
grep -q "matrix size 48   Sequential time: " "$tmp/out/matmul.txt" ||
    fail "matmul header: $(head -1 "$tmp/out/matmul.txt")"
grep -q "synthetic algorithm (Korch-Rauber), f=1, k=12   Sequential time: " \
    "$tmp/out/taskpool-f1.txt" || fail "taskpool header: $(head -1 "$tmp/out/taskpool-f1.txt")"
for app in matmul taskpool-f1; do
    for c in 1 2; do
        grep -q "^$c  *[0-9.]*  *[0-9.]*  *[0-9.]* " "$tmp/out/$app.txt" || fail "$app: no row $c"
    done
    grep -q FAILED "$tmp/out/$app.txt" && fail "$app: FAILED"
    grep -q "^## $app\$" "$tmp/out/README.md" || fail "README.md has no $app section"
    grep -q '"servers":2,' "$tmp/out/traces/$app.json" || fail "$app: no trace at 2 CPUs"
    grep -q "^server 1 " "$tmp/out/traces/$app.txt" || fail "$app: no trace table"
    grep -q "(traces/$app.json)" "$tmp/out/README.md" || fail "README.md: no $app trace"
done
# The traced runs are not timings: 3 rounds of fil at 2 CPUs.
[ "$(grep -c '^app=matmul impl=fil servers=2 ' "$tmp/out/raw.txt")" = 3 ] ||
    fail "matmul: not 3 runs of fil at 2 CPUs"
# 3 rounds of seq, fil and cg (at 1 and 2 CPUs): 3 x 5 lines.
[ "$(grep -c '^app=taskpool .* f=1 ' "$tmp/out/raw.txt")" = 15 ] || fail "taskpool: not 15 runs"
grep -q "^\[ *1/[0-9]*\] matmul  *seq .*run 1/3 .*about .* to go in all" "$tmp/log" ||
    fail "no progress line"
grep -q "Korch and Rauber" "$tmp/out/taskpool-f1.txt" || fail "taskpool: the paper's figures"
grep -q "Micro-overheads" "$tmp/out/README.md" || fail "README.md: no micro-overheads section"
# Peers, where built: a ratio column per peer.
if ./apps/matmul/matmul --help | grep -q "^ *omp "; then
    grep -q "OMP/F" "$tmp/out/matmul.txt" || fail "matmul: no OMP/F column"
fi
finish
