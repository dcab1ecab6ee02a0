/*
 * quicksort.h - sorting n pseudo-random longs by quicksort [paper §3.4].
 *
 * Every program partitions with qsort_partition() (Hoare's scheme around
 * the median of three) and sorts subarrays of at most `cutoff` elements
 * with the sequential quicksort qsort_seq_sort() (quicksort-seq.c), which
 * finishes runs of at most QSORT_INSERTION elements by insertion sort.
 * A sorted array of longs is unique, so the results are bitwise equal
 * whatever the schedule; what the programs differ in is how they share
 * the partitioning, which is sequential at the top: the first partition
 * alone reads the whole array.
 */
#ifndef QUICKSORT_H
#define QUICKSORT_H

#include <stdint.h>

struct qsort {
    long n;
    long *a;          /* the keys; sorted in place */
    long cutoff;      /* the parallel programs sort subarrays this small sequentially */
    uint64_t keysum;  /* the input's multiset checksum (quicksort-common.c) */
};

#define QSORT_INSERTION 16

/* Sort a[lo, hi) by insertion. */
static inline void qsort_insertion(long *a, long lo, long hi)
{
    for (long i = lo + 1; i < hi; ++i) {
        long v = a[i], j = i;
        for (; j > lo && a[j - 1] > v; --j)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static inline void qsort_swap(long *a, long i, long j)
{
    long t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/*
 * Partition a[lo, hi), hi - lo >= 3, around the median of a[lo], a[mid]
 * and a[hi - 1]; return p, lo < p < hi, such that every element of
 * a[lo, p) is <= every element of a[p, hi).  The median of three leaves
 * a sentinel at each end, so neither scan leaves the subarray.
 */
static inline long qsort_partition(long *a, long lo, long hi)
{
    long mid = lo + (hi - lo) / 2;
    if (a[mid] < a[lo])
        qsort_swap(a, mid, lo);
    if (a[hi - 1] < a[mid]) {
        qsort_swap(a, hi - 1, mid);
        if (a[mid] < a[lo])
            qsort_swap(a, mid, lo);
    }
    long pivot = a[mid], i = lo - 1, j = hi;
    for (;;) {
        do
            ++i;
        while (a[i] < pivot);
        do
            --j;
        while (a[j] > pivot);
        if (i >= j)
            return j + 1;
        qsort_swap(a, i, j);
    }
}

/* quicksort-seq.c: sort a[lo, hi) sequentially. */
void qsort_seq_sort(long *a, long lo, long hi);

/* The programs: run(problem, servers), as struct app_impl wants. */
void qsort_seq(void *problem, int servers);
void qsort_cg(void *problem, int servers);
void qsort_fil(void *problem, int servers);

#endif /* QUICKSORT_H */
