/*
 * quicksort-fil.c - the Filaments quicksort [paper §3.4]: a fork/join
 * filament per subarray a[i, j).  One larger than the cutoff is
 * partitioned and forks a filament for each part, then joins them; one
 * of at most `cutoff` elements is sorted sequentially.  The library's
 * pruning threshold applies (F_PRUNE_AUTO unless FILAMENTS_PRUNE says
 * otherwise): a pruned fork is a call.  The subarrays are disjoint, so
 * the children share nothing but the array, and the join is where the
 * parent learns that its subarray is sorted.
 */
#include <filaments.h>

#include "app.h"
#include "quicksort.h"

static void sort(long lo, long hi, void *arg)
{
    struct qsort *s = arg;
    if (hi - lo <= s->cutoff) {
        qsort_seq_sort(s->a, lo, hi);
        return;
    }
    long p = qsort_partition(s->a, lo, hi);
    if (f_fork(sort, lo, p, s) < 0)
        sort(lo, p, s);
    if (f_fork(sort, p, hi, s) < 0)
        sort(p, hi, s);
    f_join();
}

void qsort_fil(void *problem, int servers)
{
    struct qsort *s = problem;
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_fork(sort, 0, s->n, s), "f_fork");
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}
