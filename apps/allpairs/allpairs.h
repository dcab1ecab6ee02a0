/*
 * allpairs.h - all-pairs sequence alignment, in the shape of the alignment
 * benchmark of BOTS [Duran]: --size protein-like sequences, and for every
 * pair i < j the score of their best global alignment with affine gaps
 * (Gotoh's algorithm [Gotoh]), a task per pair.  One filament (or task)
 * forks every pair in a double loop and joins once, as BOTS writes it: the
 * shape of issue 46, where a thief of a library that prunes forks into
 * calls once its deque holds a few finds little to take.
 *
 * The sequences (allpairs-common.c) are generated from a fixed seed, of
 * ALLPAIRS_LEN_MIN to ALLPAIRS_LEN_MAX residues of an alphabet of 20, so
 * that a pair takes about a million cells of the dynamic program, some
 * milliseconds.  The scores are integers, each computed by one task: every
 * program's are bitwise the sequential program's.
 */
#ifndef ALLPAIRS_H
#define ALLPAIRS_H

#include "app-stats.h"

#define ALLPAIRS_LEN_MIN 500
#define ALLPAIRS_LEN_MAX 1500

struct allpairs {
    long n;                  /* sequences */
    unsigned char **residue; /* n sequences of residues 0 .. 19 */
    long *len;               /* their lengths */
    int *score;              /* the result: pair (i, j), i < j, at j (j - 1) / 2 + i */
    struct app_stats stats;  /* Filaments program: the library's counters over the run */
};

/* allpairs-seq.c: the best score of a global alignment of sequences i and j. */
int allpairs_align(const struct allpairs *a, long i, long j);

/* allpairs-seq.c: score[pair (i, j)] = allpairs_align(a, i, j). */
void allpairs_pair(struct allpairs *a, long i, long j);

/*
 * allpairs-seq.c: every pair, BOTS's double loop, written once: each
 * program says how a pair's alignment starts, spawn (a call, a fork, a
 * task), and how the loop waits for them all, wait.
 */
void allpairs_all(struct allpairs *a, void (*spawn)(struct allpairs *a, long i, long j),
                  void (*wait)(void));

/* The programs: run(problem, servers), as struct app_impl wants. */
void allpairs_seq(void *problem, int servers);
void allpairs_fil(void *problem, int servers); /* allpairs-fil.c */
void allpairs_omp(void *problem, int servers); /* allpairs-omp.c */

#endif /* ALLPAIRS_H */
