/*
 * allpairs-fil.c - the all-pairs alignment with Filaments (allpairs.h): one
 * root filament runs BOTS's double loop, forks a fork/join filament per
 * pair with f_fork and joins them all with one f_join [paper §2.3], as an
 * OpenMP program writes `omp task` and one `omp taskwait`.  Every pair is
 * a child of the root: the other servers' only work is what they steal
 * from the root's server, and what the library's pruning turns into calls
 * there (F_PRUNE_AUTO unless FILAMENTS_PRUNE says otherwise) they cannot
 * steal.  The line's steals= says how many they took; FILAMENTS_STATS=1
 * prints each server's share.
 *
 * The root is an f_fork from the main thread, joined by f_parallel.  No
 * fork needs a fallback or a check (f_fork(3)).
 */
#include <filaments.h>

#include "app.h"
#include "allpairs.h"

static void align(long i, long j, void *arg)
{
    allpairs_pair(arg, i, j);
}

static void fork_pair(struct allpairs *a, long i, long j)
{
    f_fork(align, i, j, a);
}

static void join(void)
{
    f_join();
}

static void all(long unused, long unused2, void *arg)
{
    allpairs_all(arg, fork_pair, join);
}

void allpairs_fil(void *problem, int servers)
{
    struct allpairs *a = problem;
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_fork(all, 0, 0, a), "f_fork");
    app_check_f(f_parallel(), "f_parallel");
    app_stats_take(&a->stats);
    f_finalize();
}
