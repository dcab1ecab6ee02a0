#!/bin/sh
# tests/headers.sh - the installed headers, as a program sees them: install
# the library into a temporary directory (make install DESTDIR=...), then
# compile one program that uses the inline fast paths (f_rtc_thread,
# f_fork/f_join, a typed fork and sync, a reduction, an iterative phase with
# a range version) as C99 and as C++17, each with every warning an error,
# with pkg-config's flags for the installed filaments.pc, and run both.  So
# <filaments.h> finds <filaments/inline-private.h> where it is installed,
# and neither holds what a pedantic C or C++ compiler refuses.
# Skips (77) where g++ or pkg-config is missing.
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
need g++
need pkg-config
build_compiler
scratch headers
install_into "$tmp/dest"
flags=$(pkg-config --cflags --libs filaments) || { echo "headers: pkg-config filaments failed"; exit 1; }
echo "headers: pkg-config --cflags --libs filaments: $flags"

# C99 and C++17 both: no designated initializers, casts where C++ needs them.
cat >"$tmp/prog.c" <<'EOF'
#include <filaments.h>
#include <stdio.h>

/* Every filament adds to one reduction; main checks the totals. */
static f_reduction *total;
static f_lock_t lock = F_LOCK_INITIALIZER;
static long leaves;

static void leaf(long i, long j, void *arg)
{
    (void)arg;
    f_reduce_sum(total, (double)(i + j));
    f_lock(&lock);
    leaves++;
    f_unlock(&lock);
}

/* An RTC filament that forks n leaves and joins them. */
static void parent(long n, long j, void *arg)
{
    long k;
    for (k = 0; k < n; k++)
        if (f_fork(leaf, k, j, arg) < 0)
            return;
    f_join();
}

static long fib(f_frame fr, long n, long unused, void *arg)
{
    long b;
    (void)unused;
    if (n < 2)
        return n;
    if (f_fork_long(&fr, fib, n - 1, 0, arg) < 0)
        return fib(fr, n - 1, 0, arg) + fib(fr, n - 2, 0, arg);
    b = fib(fr, n - 2, 0, arg);
    return f_sync_long(&fr, fib) + b;
}

static inline void point(long i, long j, void *arg)
{
    (void)i;
    (void)arg;
    f_reduce(total, (double)j);
}
F_RANGE_VERSION(point)

static int passes;
static int three_passes(void *arg)
{
    (void)arg;
    return ++passes == 3 ? F_DONE : F_NOTDONE;
}

static int fail(const char *what)
{
    fprintf(stderr, "headers: %s\n", what);
    return 1;
}

int main(void)
{
    long n = 0, j;
    int s, nservers;
    if (f_initialize(2) != F_OK || (total = f_new_reduction(F_SUM)) == NULL)
        return fail("f_initialize");
    nservers = f_num_servers();
    for (s = 0; s < nservers; s++)
        if (f_rtc_thread(s, parent, 10, s, NULL) != F_OK)
            return fail("f_rtc_thread");
    if (f_parallel() != F_OK || leaves != 10L * nservers ||
        f_reduction_value(total) != 45.0 * nservers + 10.0 * nservers * (nservers - 1) / 2)
        return fail("fork/join");
    if (f_run_long(fib, 20, 0, NULL, &n) != F_OK || n != 6765)
        return fail("typed fork");
    f_reduction_reset(total);
    if (f_set_range_version(point, point_range) != F_OK ||
        f_new_barrier(three_passes, NULL) != F_OK)
        return fail("phase");
    for (j = 0; j < 100; j++)
        if (f_iterative_thread(0, point, 0, j, NULL) != F_OK)
            return fail("f_iterative_thread");
    if (f_parallel() != F_OK || f_reduction_value(total) != 3 * 4950.0)
        return fail("iterative");
    f_free_reduction(total);
    f_finalize();
    return 0;
}
EOF
cp "$tmp/prog.c" "$tmp/prog.cc"

status=0
# $san and $flags are lists of words.
# shellcheck disable=SC2086
for lang in c99 c++17; do
    case $lang in
    c99) compile="$cc -std=c99 -pedantic -Wall -Wextra -Werror $san -o $tmp/prog-c $tmp/prog.c" ;;
    c++17) compile="g++ -std=c++17 -pedantic -Wall -Wextra -Werror $san -o $tmp/prog-c++ $tmp/prog.cc" ;;
    esac
    prog=$tmp/prog-${lang%%[0-9]*}
    if ! $compile $flags; then
        echo "FAIL: $lang: $compile $flags"
        status=1
    elif ! LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$prog"; then
        echo "FAIL: $lang: $prog"
        status=1
    else
        echo "ok: $lang, installed <filaments.h>, pkg-config filaments"
    fi
done
exit $status
