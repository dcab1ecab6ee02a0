#!/bin/sh
# speedup-tables.sh - scripts/speedup-tables without timing anything: the
# tables, Markdown and CSV rebuilt from a recorded raw.txt (medians and
# speedups against tests/data/expected/), the whole run driven through
# tests/data/fake-app (size choice, interleaving, the raw lines), the
# failures that must stop a table, a variant whose answer depends on the
# CPU count checked against its own reference (quad's static), the
# options that must exit 2, the sh start without python3, --ranks
# through a stand-in for mpirun, and --noise: its busy loop (scripts/noise)
# said in every title and redrawn by --from-raw, its options, and that no
# loop outlives the tables, after a failing app, Ctrl-C, SIGTERM or SIGKILL.
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
need python3
runner=$srcdir/scripts/speedup-tables
data=$srcdir/tests/data
scratch speedup-tables

# --- 1. tables from recorded lines: exactly the expected text
if ! "$runner" --from-raw "$data/raw-sample.txt" --out "$tmp/raw" --no-charts >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "--from-raw raw-sample.txt exited non-zero"
fi
for f in matmul.txt jacobi.txt matmul.md jacobi.md results.csv; do
    diff -u "$data/expected/$f" "$tmp/raw/$f" || fail "$f differs from tests/data/expected/$f"
done
for app in matmul jacobi; do
    grep -q "^## $app\$" "$tmp/raw/README.md" || fail "README.md has no $app section"
done

# --- 1b. peers' ratio columns; two tables of one program (taskpool, f=40 and f=1)
if ! "$runner" --from-raw "$data/raw-peers.txt" --out "$tmp/peers" --no-charts >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "--from-raw raw-peers.txt exited non-zero"
fi
# matmul at 2 CPUs: fil 0.625, omp 0.50 (0.80 of ours), omp-llvm 0.70 (1.12).
grep -q "OMP/F  *LLVM/F" "$tmp/peers/matmul.txt" || fail "matmul: no ratio columns"
grep -q "^2  *0.62  *1.68  *0.50  *2.10  *0.70  *1.50  .* 0.80  *1.12\$" "$tmp/peers/matmul.txt" ||
    fail "matmul 2-CPU row with ratios: $(grep '^2 ' "$tmp/peers/matmul.txt")"
grep -q "^1  .* 2.00  *-\$" "$tmp/peers/matmul.txt" || fail "matmul 1-CPU row: no omp-llvm at 1"
grep -q "f=40, k=20   Sequential time: 0.80 sec" "$tmp/peers/taskpool.txt" ||
    fail "taskpool header: $(head -1 "$tmp/peers/taskpool.txt")"
grep -q "f=1, k=29   Sequential time: 1.00 sec" "$tmp/peers/taskpool-f1.txt" ||
    fail "taskpool-f1 header: $(head -1 "$tmp/peers/taskpool-f1.txt")"
grep -q "^2  *0.80  *1.25  *2.00  *0.50 " "$tmp/peers/taskpool-f1.txt" || fail "taskpool-f1 row"
grep -q "1.96 on 2 threads" "$tmp/peers/taskpool.txt" || fail "taskpool: Korch and Rauber's figures"
grep -q "^taskpool-f1,fil,2,29,.*,1.2500\$" "$tmp/peers/results.csv" || fail "results.csv taskpool-f1"

# --- 2. a failed check or another digest than seq's stops that table, exit 1
mangle() {  # first line matching $1: replace $2 by $3
    awk -v re="$1" -v a="$2" -v b="$3" '!done && $0 ~ re { sub(a, b); done = 1 } { print }' \
        "$data/raw-sample.txt" >"$tmp/bad.txt"
}
expect_failure() {  # $1: what, $2: text the message must hold
    if "$runner" --from-raw "$tmp/bad.txt" --out "$tmp/bad" --no-charts >"$tmp/log" 2>&1; then
        fail "$1: exit 0"
    fi
    grep -q "jacobi: FAILED.*$2" "$tmp/log" || { cat "$tmp/log"; fail "$1: no message with '$2'"; }
    grep -q "^FAILED: .*$2" "$tmp/bad/jacobi.txt" || fail "$1: jacobi.txt does not say FAILED"
    grep -q "F Spread" "$tmp/bad/jacobi.txt" && fail "$1: jacobi.txt still has a table"
    diff "$data/expected/matmul.txt" "$tmp/bad/matmul.txt" >/dev/null ||
        fail "$1: the matmul table changed"
    grep -q "^jacobi" "$tmp/bad/results.csv" && fail "$1: results.csv has jacobi rows"
}
mangle "app=jacobi impl=fil servers=2" "check=ok" "check=FAIL"
expect_failure "check=FAIL" "check=FAIL"
mangle "app=jacobi impl=cg servers=2" "digest=9f3a12c4e5d6b7a8" "digest=0000000000000000"
expect_failure "digest" "digest 0000000000000000, seq printed 9f3a12c4e5d6b7a8"

# --- 3. a whole run through the fake app (its seconds are made up)
mkdir -p "$tmp/apps/matmul" "$tmp/apps/jacobi"
cp "$data/fake-app" "$tmp/apps/matmul/matmul"
cp "$data/fake-app" "$tmp/apps/jacobi/jacobi"
chmod +x "$tmp/apps/matmul/matmul" "$tmp/apps/jacobi/jacobi"
run() { "$runner" --no-setup --no-charts --apps-dir "$tmp/apps" --apps matmul,jacobi --cpus 1,2 "$@"; }
if ! run --target 0.5 --runs 3 --out "$tmp/fake" >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "a run with the fake apps exited non-zero"
fi
# Sizes: matmul n^3 ns = 0.5 s: n = 794, a multiple of 16: 800; jacobi stops
# at 1024 and takes 0.5e9 / 1024^2 = 477 iterations instead of 100.
grep -q "matrix size 800   Sequential time: 0.51 sec" "$tmp/fake/matmul.txt" ||
    fail "matmul size: $(head -1 "$tmp/fake/matmul.txt")"
grep -q "Jacobi size 1024, 477 iterations   Sequential time: 0.50 sec" "$tmp/fake/jacobi.txt" ||
    fail "jacobi size: $(head -1 "$tmp/fake/jacobi.txt")"
# fil = 1.25 seq / CPUs, cg = seq / CPUs.
grep -q "^2  *0.32  *1.60  *0.26  *2.00 " "$tmp/fake/matmul.txt" || fail "matmul 2-CPU row"
# Interleaved: seq once per round, then every variant at every CPU count.
grep "^app=matmul" "$tmp/fake/raw.txt" | awk '{ print $2, $3 }' >"$tmp/order"
printf '%s\n' "impl=seq servers=1" "impl=fil servers=1" "impl=cg servers=1" \
    "impl=fil servers=2" "impl=cg servers=2" >"$tmp/round"
cat "$tmp/round" "$tmp/round" "$tmp/round" | diff - "$tmp/order" >/dev/null ||
    fail "matmul runs not interleaved: $(tr '\n' ';' <"$tmp/order")"
[ "$(grep -c '^app=jacobi' "$tmp/fake/raw.txt")" = 24 ] || fail "jacobi: not 3 x 8 runs"
grep -q "^\[ *1/15\] matmul  *seq .*run 1/3" "$tmp/log" || fail "no progress lines"
# The raw lines alone give the same tables.
run --from-raw "$tmp/fake/raw.txt" --out "$tmp/again" >/dev/null 2>&1 || fail "--from-raw of a run"
for f in matmul.txt jacobi.txt results.csv; do
    diff "$tmp/fake/$f" "$tmp/again/$f" >/dev/null || fail "--from-raw rebuilt another $f"
done

# --- 4. failing runs: that table stops, the others go on, exit 1 at the end
expect_run_failure() {  # $1: environment setting, $2: text the message must hold
    if env "$1" "$runner" --no-setup --no-charts --apps-dir "$tmp/apps" --apps matmul,jacobi \
        --cpus 1,2 --runs 1 \
        --size matmul=100,jacobi=100:10 --out "$tmp/bad" >"$tmp/log" 2>&1; then
        fail "$1: exit 0"
    fi
    grep -q "matmul: FAILED.*$2" "$tmp/log" || { cat "$tmp/log"; fail "$1: no message with '$2'"; }
    grep -q "F Spread" "$tmp/bad/jacobi.txt" || fail "$1: jacobi did not go on"
    grep -q "^app=matmul impl=cg servers=2" "$tmp/bad/raw.txt" && fail "$1: ran on after it"
    grep -q "^# failed: matmul: .*$2" "$tmp/bad/raw.txt" || fail "$1: raw.txt has no failed line"
}
expect_run_failure FAKE_FAIL=matmul:fil:2 "check=FAIL"
expect_run_failure FAKE_CRASH=matmul:fil:2 "killed by SIGSEGV"
expect_run_failure FAKE_DIGEST=matmul:fil:2 "digest fedcba9876543210, seq printed 0123456789abcdef"
rm -rf "$tmp/apps/jacobi"
if run --runs 1 --size matmul=100,jacobi=100 --out "$tmp/bad" >"$tmp/log" 2>&1; then
    fail "a missing app: exit 0"
fi
grep -q "jacobi: FAILED.*is not built" "$tmp/log" || fail "a missing app: no message"

# --- 4b. a variant whose answer depends on the CPU count (quad's static):
# at c > 1 CPUs its line says segments=c and its digest is another, checked
# against seq --segments=c (run once per count, kept as "# reference:");
# every other variant stays bitwise seq's
mkdir -p "$tmp/apps/quad"
cp "$data/fake-app" "$tmp/apps/quad/quad"
chmod +x "$tmp/apps/quad/quad"
quad() { "$runner" --no-setup --no-charts --apps-dir "$tmp/apps" --apps quad --size quad=20 "$@"; }
if ! quad --cpus 1,2,3 --runs 2 --out "$tmp/quad" >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "quad with its static variant at 1, 2 and 3 CPUs exited non-zero"
fi
[ "$(grep -c '^# reference: app=quad impl=seq servers=1 size=20 segments=[23] ' \
    "$tmp/quad/raw.txt")" = 2 ] || fail "quad: not one reference line per CPU count above 1"
grep -q "^3  " "$tmp/quad/quad.txt" || fail "quad: no row 3"
grep -q "^Static (--impl=static): its answer depends on the CPU count" "$tmp/quad/quad.txt" ||
    fail "quad: no note on the static column"
quad --from-raw "$tmp/quad/raw.txt" --out "$tmp/quad2" >/dev/null 2>&1 || fail "quad: --from-raw"
diff "$tmp/quad/quad.txt" "$tmp/quad2/quad.txt" >/dev/null || fail "quad: --from-raw differs"
if FAKE_DIGEST=quad:static:3 quad --cpus 1,3 --runs 1 --out "$tmp/bad" >"$tmp/log" 2>&1; then
    fail "quad: a wrong static digest: exit 0"
fi
grep -q "quad: FAILED.*digest fedcba9876543210, seq --segments=3 printed 0000000000000003" \
    "$tmp/log" || { cat "$tmp/log"; fail "quad: a wrong static digest: no message"; }
if FAKE_DIGEST=quad:fil:3 quad --cpus 1,3 --runs 1 --out "$tmp/bad" >"$tmp/log" 2>&1; then
    fail "quad: a wrong fil digest: exit 0"
fi
grep -q "quad: FAILED.*fil on 3 CPUs.*digest fedcba9876543210, seq printed" "$tmp/log" ||
    fail "quad: a wrong fil digest: no message"
# From raw lines: a static line that says segments=1 at 3 CPUs, a fil line
# that says segments=3, a missing reference.
bad_quad_raw() {  # $1: a sed script for raw.txt, $2: text the message must hold
    sed "$1" "$tmp/quad/raw.txt" >"$tmp/bad.txt"
    if quad --from-raw "$tmp/bad.txt" --out "$tmp/bad" >"$tmp/log" 2>&1; then
        fail "quad --from-raw after '$1': exit 0"
    fi
    grep -q "quad: FAILED.*$2" "$tmp/log" || { cat "$tmp/log"; fail "quad: no message '$2'"; }
}
bad_quad_raw "s/\(impl=static servers=3 size=20\) segments=3/\1 segments=1/" \
    "static on 3 CPUs says segments=1, not 3"
bad_quad_raw "s/\(impl=fil servers=3 size=20\) segments=1/\1 segments=3/" \
    "fil on 3 CPUs says segments=3, not 1"
bad_quad_raw "/^# reference: .*segments=3/d" "no reference line (seq --segments=3)"

# --- 5. bad options: one line on stderr, exit 2
for args in "--bogus" "--runs 0" "--runs x" "--apps nosuch" "--cpus 1,x" "--cpus 0" \
    "--cpus 1,1025" "--size matmul=abc" "--size nosuch=10" "--size matmul=10:5" "--quick --paper" \
    "--impls nosuch" "--target -1" "extra" "--noise 0" "--noise 101" "--noise x" "--noise=" \
    "--noise 50.5" "--noise" "--noise 50 --from-raw raw.txt"; do
    # shellcheck disable=SC2086
    "$runner" --no-setup $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] || fail "'$args': exit $rc, not 2"
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "'$args': not one line: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "'$args': printed on stdout"
done

# --- 6. the file is sh first: without python3 it would install it, but
# --no-setup installs nothing and says so in one line, exit 1; and python3
# runs the same file directly, as the 16-core runs call it
PATH=/nonexistent "$runner" --no-setup >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || fail "no python3, --no-setup: exit $rc, not 1"
grep -q "^speedup-tables: python3 not found, and --no-setup installs nothing\$" "$tmp/err" &&
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "no python3, --no-setup: '$(cat "$tmp/err")'"
python3 "$runner" --from-raw "$data/raw-sample.txt" --out "$tmp/py" --no-charts >/dev/null 2>&1 ||
    fail "python3 scripts/speedup-tables --from-raw exited non-zero"
diff "$data/expected/matmul.txt" "$tmp/py/matmul.txt" >/dev/null ||
    fail "python3 scripts/speedup-tables: another matmul.txt"

# --- 7. --ranks through tests/data/fake-mpirun: a row per CPU count and
# rank count that divides it, each MPI program where it runs, the ratios;
# --from-raw rebuilds it; the apps without MPI programs fail their table;
# where MPI is not built, one line and exit 2
mkdir -p "$tmp/apps/jacobi"  # section 4 removed it
cp "$data/fake-app" "$tmp/apps/jacobi/jacobi"
chmod +x "$tmp/apps/jacobi/jacobi"
ranks() { MPIRUN=$data/fake-mpirun "$runner" --no-setup --no-charts --apps-dir "$tmp/apps" \
    --runs 2 --size matmul=400,jacobi=400:50 "$@"; }
if ! ranks --apps matmul,jacobi --cpus 1,2 --ranks 1,2 --out "$tmp/ranks" >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "--ranks 1,2 with the fake apps exited non-zero"
fi
# jacobi: seq 400^2 x 50 ns = 0.008 s; mpi-fil on 2 ranks x 1: 1.25 x 0.008 / 2
# + 0.01 = 0.015 (speedup 0.53), mpi 0.014 (0.57), without overlap 0.025 and
# 0.024; fil on 2 servers 0.005 (1.60): H/F 3.00, H/M 1.07, HN/H 1.67, MN/M 1.71.
grep -q "^CPUs  Ranks  Filament Time  F Speedup  Hybrid Time  H Speedup  MPI Time" \
    "$tmp/ranks/jacobi.txt" || fail "--ranks: jacobi header: $(sed -n 3p "$tmp/ranks/jacobi.txt")"
grep -q "^2  *2  *-  *-  *0.01  *0.53  *0.01  *0.57  *0.03  *0.32  *0.02  *0.33  .* 3.00  *1.07  *1.67  *1.71\$" \
    "$tmp/ranks/jacobi.txt" || fail "--ranks: jacobi row 2 x 2: $(grep '^2  *2 ' "$tmp/ranks/jacobi.txt")"
grep -q "^2  *1  *0.01  *1.60  *0.01  *1.60  *-  *-  *-  *-  *-  *- " "$tmp/ranks/jacobi.txt" ||
    fail "--ranks: jacobi row 2 x 1: $(grep '^2  *1 ' "$tmp/ranks/jacobi.txt")"
grep -q "^CPUs  Ranks  Filament Time  F Speedup  Hybrid Time  H Speedup  MPI Time  M Speedup  F Spread" \
    "$tmp/ranks/matmul.txt" || fail "--ranks: matmul has other columns than F, H, M"
grep -q "^jacobi,mpi-fil,2,2,1,400,iters=50,2,0.015000," "$tmp/ranks/results.csv" ||
    fail "--ranks: results.csv has no jacobi mpi-fil 2 x 1 row"
[ "$(grep -c '^app=jacobi impl=mpi-fil-nooverlap .* ranks=1' "$tmp/ranks/raw.txt")" = 0 ] ||
    fail "--ranks: the no-overlap program ran at one rank"
"$runner" --from-raw "$tmp/ranks/raw.txt" --out "$tmp/ranks2" --no-charts >/dev/null 2>&1 ||
    fail "--ranks: --from-raw exited non-zero"
diff "$tmp/ranks/jacobi.txt" "$tmp/ranks2/jacobi.txt" >/dev/null || fail "--ranks: --from-raw differs"
if FAKE_NOMPI=1 ranks --apps jacobi --cpus 1,2 --ranks 1,2 --out "$tmp/nompi" >"$tmp/log" 2>&1; then
    fail "--ranks, apps without MPI programs: exit 0"
fi
grep -q "jacobi: FAILED.*has no MPI program here" "$tmp/log" || fail "--ranks without MPI programs"
for args in "--ranks 1,2 --apps fib" "--ranks 0" "--ranks 4 --cpus 1,2" "--ranks x"; do
    # shellcheck disable=SC2086
    MPIRUN=$data/fake-mpirun "$runner" --no-setup --apps-dir "$tmp/apps" $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] ||
        fail "'$args': exit $rc, '$(cat "$tmp/err")'"
done
MPIRUN=/nonexistent "$runner" --no-setup --apps-dir "$tmp/apps" --ranks 1,2 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^speedup-tables: --ranks: MPI is not built" \
    "$tmp/err" || fail "--ranks without MPI: exit $rc, '$(cat "$tmp/err")'"

# --- 8. --noise: the tables beside scripts/noise's busy loop on the last CPU
# (nothing timed: the fake apps' seconds are made up)
last=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
what="busy loop at 50 % on CPU $last"
noisy() { "$runner" --no-setup --apps-dir "$tmp/apps" --apps matmul,jacobi --cpus 1,2 --runs 1 \
    --size matmul=100,jacobi=100:10 "$@"; }
# within COMMAND: run COMMAND every 0.2 s until it succeeds, for at most
# 30 s (a python3 at nice 10 can take seconds to start on a busy machine);
# 1 if it never did
within() {
    n=0
    while [ $n -lt 150 ]; do
        "$@" && return 0
        sleep 0.2
        n=$((n + 1))
    done
    return 1
}
# ended PID: the process has ended (a zombie has: its parent reaps it later)
ended() {
    ! kill -0 "$1" 2>/dev/null || grep -q "^State:[[:space:]]*Z" "/proc/$1/status" 2>/dev/null
}
# gone PID: the process ends within 30 s (the loop looks at its parent ten
# times a second, and init reaps it); if not, it is killed, and 1
gone() { within ended "$1" || { kill "$1" 2>/dev/null; return 1; }; }
# noise_pid LOG: the loop's pid, from the line "noise: ... (scripts/noise, pid N)"
noise_pid() { sed -n 's/^noise: busy loop .*(scripts\/noise, pid \([0-9]*\))$/\1/p' "$1"; }
if ! noisy --no-charts --noise 50 --out "$tmp/noise" >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    fail "--noise 50 exited non-zero"
fi
pid=$(noise_pid "$tmp/log")
[ -n "$pid" ] || fail "--noise 50: no line with the loop's pid"
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null || fail "--noise 50: the loop outlived the tables"
grep -q "^# noise: $what\$" "$tmp/noise/raw.txt" || fail "--noise: raw.txt does not say '$what'"
grep -q "^# noise-ran: $what ran [0-9.]* % of [0-9.]* s\$" "$tmp/noise/raw.txt" ||
    fail "--noise: raw.txt does not say how much the loop ran"
for app in matmul jacobi; do
    head -n 1 "$tmp/noise/$app.txt" | grep -q "2 cores; $what): " ||
        fail "--noise: $app.txt's title: $(head -n 1 "$tmp/noise/$app.txt")"
    grep -q "^\*\*.*; $what): " "$tmp/noise/$app.md" || fail "--noise: $app.md's title"
done
grep -q "^# Speedup tables beside a $what\$" "$tmp/noise/README.md" || fail "--noise: index title"
grep -q "^- Noisy neighbour: $what (\`scripts/noise\`, \`--noise=50\`).* ran [0-9.]* % of" \
    "$tmp/noise/README.md" || fail "--noise: the index has no line on the noise"
noisy --from-raw "$tmp/noise/raw.txt" --no-charts --out "$tmp/noise2" >/dev/null 2>&1 ||
    fail "--noise: --from-raw exited non-zero"
for f in matmul.txt jacobi.md README.md; do
    diff "$tmp/noise/$f" "$tmp/noise2/$f" >/dev/null || fail "--noise: --from-raw redrew another $f"
done
if command -v gnuplot >/dev/null 2>&1; then
    noisy --from-raw "$tmp/noise/raw.txt" --out "$tmp/noise3" >/dev/null 2>&1 ||
        fail "--noise: --from-raw with charts exited non-zero"
    grep -q "set title \".*; $what): Jacobi" "$tmp/noise3/jacobi.gp" || fail "--noise: chart title"
fi
# Without --noise, not a word of it.
grep -qi "noise" "$tmp/fake/raw.txt" "$tmp/fake/matmul.txt" && fail "noise said without --noise"

# A failing app: its table stops, the loop goes on for the next and is
# stopped at the end, exit 1.
if FAKE_FAIL=matmul:fil:2 noisy --no-charts --noise=100% --out "$tmp/noisebad" >"$tmp/log" 2>&1
then
    fail "--noise, a failing app: exit 0"
fi
grep -q "matmul: FAILED" "$tmp/log" || fail "--noise, a failing app: no FAILED line"
grep -q "F Spread" "$tmp/noisebad/jacobi.txt" || fail "--noise, a failing app: jacobi did not go on"
pid=$(noise_pid "$tmp/log")
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null ||
    fail "--noise, a failing app: the loop outlived the tables"

# One CPU: the loop shares it with every program, and the index says so.
if command -v taskset >/dev/null 2>&1; then
    taskset -c "$last" "$runner" --no-setup --no-charts --apps-dir "$tmp/apps" --apps matmul \
        --cpus 1 --runs 1 --size matmul=100 --noise 50 --out "$tmp/one" >"$tmp/log" 2>&1 ||
        { cat "$tmp/log"; fail "--noise on one CPU exited non-zero"; }
    grep -q "1 cores; $what): " "$tmp/one/matmul.txt" || fail "--noise on one CPU: title"
    grep -q "This run had one CPU: the loop shared it with every program" "$tmp/one/README.md" ||
        fail "--noise on one CPU: the index does not say so"
fi

# Interrupted while an app runs (a seq that sleeps, its pid in slow.pid):
# SIGINT (Ctrl-C) and SIGTERM stop the app and the loop, exit 130; after
# SIGKILL the loop sees its parent gone.
mkdir -p "$tmp/slow/matmul"
{
    echo '#!/bin/sh'
    echo "case \" \$* \" in *\" --impl=seq \"*) echo \$\$ >'$tmp/slow.pid'; exec sleep 60 ;; esac"
    echo "exec '$data/fake-app' \"\$@\""
} >"$tmp/slow/matmul/matmul"
chmod +x "$tmp/slow/matmul/matmul"
for sig in INT TERM KILL; do
    rm -f "$tmp/slow.pid"
    # SIGINT as a terminal sends it: sh starts a background job with it ignored.
    python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$runner" --no-setup --no-charts --apps-dir "$tmp/slow" \
        --apps matmul --cpus 1,2 --runs 1 --size matmul=100 --noise 50 --out "$tmp/int" \
        >"$tmp/log" 2>&1 &
    runner_pid=$!
    within test -s "$tmp/slow.pid"
    pid=$(noise_pid "$tmp/log")
    app=$(cat "$tmp/slow.pid" 2>/dev/null)
    [ -n "$pid" ] && [ -n "$app" ] || fail "SIG$sig: the app or the loop did not start"
    kill -s "$sig" "$runner_pid"
    wait "$runner_pid"
    rc=$?
    if [ "$sig" != KILL ]; then
        [ $rc = 130 ] || fail "SIG$sig: exit $rc, not 130"
        grep -q "interrupted: the lines so far are in" "$tmp/log" || fail "SIG$sig: no message"
        [ -z "$app" ] || gone "$app" || fail "SIG$sig: the app outlived the runner"
    fi
    [ -n "$app" ] && kill "$app" 2>/dev/null  # SIGKILL leaves the app to us
    [ -z "$pid" ] || gone "$pid" || fail "SIG$sig: the loop (pid $pid) outlived the runner"
done
# The loop ended under the tables (killed here): the runner says so, exit 1.
rm -f "$tmp/slow.pid"
"$runner" --no-setup --no-charts --apps-dir "$tmp/slow" --apps matmul --cpus 1,2 --runs 1 \
    --size matmul=100 --noise 50 --out "$tmp/int" >"$tmp/log" 2>&1 &
runner_pid=$!
within test -s "$tmp/slow.pid"
pid=$(noise_pid "$tmp/log")
[ -n "$pid" ] && kill "$pid"
[ -n "$pid" ] && within ended "$pid"
kill "$(cat "$tmp/slow.pid")"
wait "$runner_pid"
rc=$?
[ $rc = 1 ] || fail "the loop killed under the tables: exit $rc, not 1"
grep -q "^speedup-tables: --noise: the busy loop ended before the tables did: $what ran " \
    "$tmp/log" || { cat "$tmp/log"; fail "the loop killed under the tables: no message"; }

# --- 9. scripts/noise by hand: its options (one line, exit 2), a command's
# exit status and output, the loop's CPU, its lines on stderr
noise=$srcdir/scripts/noise
for args in "" "--share=0" "--share=101" "--share=x" "--share=50 --cpu=x" "--share=50 --cpu=4096" \
    "--bogus" "--share=50 cmd" "--share=50 --" "--share"; do
    # shellcheck disable=SC2086
    "$noise" $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] ||
        fail "noise '$args': exit $rc, '$(cat "$tmp/err")'"
done
"$noise" --share=50 -- sh -c 'echo out; exit 3' >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] || fail "noise -- COMMAND: exit $rc, not the command's 3"
[ "$(cat "$tmp/out")" = out ] || fail "noise -- COMMAND: stdout '$(cat "$tmp/out")'"
grep -q "^noise: $what (pid [0-9]*)\$" "$tmp/err" &&
    grep -q "^noise: stopped: $what ran " "$tmp/err" ||
    fail "noise -- COMMAND: stderr '$(cat "$tmp/err")'"
# (a file of its own: the background job's redirection may come after within's first look)
"$noise" --share=50 --cpu="$last" 2>"$tmp/loop.err" &
loop=$!
within test -s "$tmp/loop.err"
if [ -e "/proc/$loop/status" ]; then
    grep -q "^Cpus_allowed_list:[[:space:]]*$last\$" "/proc/$loop/status" ||
        fail "noise: the loop is not pinned to CPU $last"
fi
kill "$loop"
wait "$loop"
rc=$?
[ $rc = 0 ] || fail "noise, SIGTERM: exit $rc"
grep -q "^noise: stopped: $what ran [0-9.]* % of [0-9.]* s\$" "$tmp/loop.err" ||
    fail "noise, SIGTERM: '$(cat "$tmp/loop.err")'"

finish
