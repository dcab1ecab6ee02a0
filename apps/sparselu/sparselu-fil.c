/*
 * sparselu-fil.c - the blocked sparse LU with Filaments (sparselu.h): one
 * root filament runs BOTS's loop nest, forks a fork/join filament per
 * block update with f_fork in the loops and joins each phase with one
 * f_join [paper §2.3], as an OpenMP program writes `omp task` and
 * `omp taskwait`.  The updates of a phase are hundreds of children of one
 * parent, each some microseconds: the second server's only work is what it
 * steals from the root's server, and what the library's pruning turns
 * into calls on the root's server (F_PRUNE_AUTO unless FILAMENTS_PRUNE
 * says otherwise) it cannot steal.  The line's steals= says how many it
 * took; FILAMENTS_STATS=1 prints each server's share.
 *
 * The root is an f_fork from the main thread, joined by f_parallel.  No
 * fork needs a fallback or a check (f_fork(3)).  A child's block is (i /
 * NB, i % NB), its step j.
 */
#include <filaments.h>

#include "app.h"
#include "sparselu.h"

static void update(long block, long kk, void *arg)
{
    struct sparselu *m = arg;
    sparselu_update(m, kk, block / m->nb, block % m->nb);
}

static void fork_update(struct sparselu *m, long kk, long ii, long jj)
{
    f_fork(update, ii * m->nb + jj, kk, m);
}

static void join(void)
{
    f_join();
}

static void factor(long unused, long unused2, void *arg)
{
    sparselu_factor(arg, fork_update, join);
}

void sparselu_fil(void *problem, int servers)
{
    struct sparselu *m = problem;
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_fork(factor, 0, 0, m), "f_fork");
    app_check_f(f_parallel(), "f_parallel");
    app_stats_take(&m->stats);
    f_finalize();
}
