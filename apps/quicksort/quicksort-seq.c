/*
 * quicksort-seq.c - the sequential quicksort: no parallel constructs
 * [paper §3.4].  It recurses on the smaller part and loops on the larger,
 * so its stack stays O(log n) whatever the keys.
 */
#include "quicksort.h"

void qsort_seq_sort(long *a, long lo, long hi)
{
    while (hi - lo > QSORT_INSERTION) {
        long p = qsort_partition(a, lo, hi);
        if (p - lo < hi - p) {
            qsort_seq_sort(a, lo, p);
            lo = p;
        } else {
            qsort_seq_sort(a, p, hi);
            hi = p;
        }
    }
    qsort_insertion(a, lo, hi);
}

void qsort_seq(void *problem, int servers)
{
    struct qsort *s = problem;
    qsort_seq_sort(s->a, 0, s->n);
}
