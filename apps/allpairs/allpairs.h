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

#include "app-tasks.h"

#define ALLPAIRS_LEN_MIN 500
#define ALLPAIRS_LEN_MAX 1500

struct allpairs {
    struct app_tasks_problem tasks; /* first (app-tasks.h) */
    long n;                         /* sequences */
    unsigned char **residue;        /* n sequences of residues 0 .. 19 */
    long *len;                      /* their lengths */
    int *score;                     /* the result: pair (i, j), i < j, at j (j - 1) / 2 + i */
};

/* allpairs-seq.c: the best score of a global alignment of sequences i and j. */
int allpairs_align(const struct allpairs *a, long i, long j);

/*
 * allpairs-seq.c: every pair, BOTS's double loop, written once: a task per
 * pair, started and waited for as the program says
 * (apps/common/app-tasks.h).
 */
void allpairs_all(void *problem, const struct app_tasks *tasks);

#endif /* ALLPAIRS_H */
