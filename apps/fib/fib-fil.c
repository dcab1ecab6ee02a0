/*
 * fib-fil.c - the Filaments Fibonacci programs [paper §2.3, §3.4, §4.5]:
 * every call fib(n), n >= 2, forks fib(n - 1), calls fib(n - 2) and joins.
 * The variants differ in how the child's result comes back and in pruning:
 *
 *   fil             f_fork/f_join, the result through a pointer into the
 *                   parent's frame; pruning off (f_set_prune(0)): every
 *                   fork makes a filament, the finest grain there is.
 *   fil-auto        the same code with F_PRUNE_AUTO: a fork is a call while
 *                   the server has enough work and no idle server asks.
 *   fil-seq         f_fork_seq naming the sequential version (fib_seq_ptr,
 *                   fib-seq.c): a pruned fork runs the whole subtree with no
 *                   fork or join at all [paper §4.5]; F_PRUNE_AUTO.
 *   fil-typed       f_fork_long/f_sync_long: the child's value comes back
 *                   from the sync as from a call; pruning off.
 *   fil-typed-auto  the same with F_PRUNE_AUTO.
 *
 * No fork needs a fallback (f_fork(3)).  The untyped programs' root is an
 * f_fork from the main thread, joined by f_parallel; the typed ones' is
 * f_run_long.  The library's counters over the run are kept for the output
 * line (forks= pruned= steals= peak=).
 */
#include <filaments.h>

#include "app.h"
#include "fib.h"

static void fib_fork(long n, long unused, void *result)
{
    long a, b;
    if (n < 2) {
        *(long *)result = n;
        return;
    }
    f_fork(fib_fork, n - 1, 0, &a);
    fib_fork(n - 2, 0, &b);
    f_join();
    *(long *)result = a + b;
}

static void fib_fork_seq(long n, long unused, void *result)
{
    long a, b;
    if (n < 2) {
        *(long *)result = n;
        return;
    }
    f_fork_seq(fib_fork_seq, fib_seq_ptr, n - 1, 0, &a);
    fib_fork_seq(n - 2, 0, &b);
    f_join();
    *(long *)result = a + b;
}

static long fib_typed(f_frame fr, long n, long unused, void *unused2)
{
    if (n < 2)
        return n;
    f_fork_long(&fr, fib_typed, n - 1, 0, NULL);
    long b = fib_typed(fr, n - 2, 0, NULL);
    return f_sync_long(&fr, fib_typed) + b;
}

/* An untyped root, or (NULL) the typed program's. */
static void run(struct fib *p, int servers, long prune, f_func root)
{
    app_check_f(f_initialize(servers), "f_initialize");
    f_set_prune(prune);
    if (root != NULL) {
        /* Out of line: from the main thread a fork always goes to the
         * library, and the inline path's call of root, copied into each
         * caller of run, made gcc stop splitting the leaf test out of
         * fib_fork (29.4 instead of 22.8 instructions per pruned call). */
        app_check_f((f_fork)(root, p->n, 0, &p->result), "f_fork");
        app_check_f(f_parallel(), "f_parallel");
    } else {
        app_check_f(f_run_long(fib_typed, p->n, 0, NULL, &p->result), "f_run_long");
    }
    app_stats_take(&p->stats);
    f_finalize();
}

void fib_fil(void *problem, int servers)
{
    run(problem, servers, 0, fib_fork);
}

void fib_fil_auto(void *problem, int servers)
{
    run(problem, servers, F_PRUNE_AUTO, fib_fork);
}

void fib_fil_seq(void *problem, int servers)
{
    run(problem, servers, F_PRUNE_AUTO, fib_fork_seq);
}

void fib_fil_typed(void *problem, int servers)
{
    run(problem, servers, 0, NULL);
}

void fib_fil_typed_auto(void *problem, int servers)
{
    run(problem, servers, F_PRUNE_AUTO, NULL);
}
