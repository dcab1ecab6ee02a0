/*
 * allpairs-seq.c - the alignment of one pair and the loop over the pairs
 * that every program runs (allpairs.h); the sequential program runs it
 * with calls for tasks (app_tasks_seq, apps/common/app-tasks.h).
 *
 * Gotoh's recurrences [Gotoh] in linear space: row by row, h[j] the best
 * score of the prefixes a[0 .. i) and b[0 .. j), e[j] that of those ending
 * in a gap in b (a column of a against nothing), f that of those ending in
 * a gap in a; a gap of k residues costs OPEN + k EXTEND.
 */
#include <limits.h>

#include "app.h"
#include "allpairs.h"

enum { OPEN = 10, EXTEND = 1, MATCH = 5, NONE = INT_MIN / 2 };

/* Symmetric, so that a pair's score is the same either way round. */
static inline int substitution(int x, int y)
{
    return x == y ? MATCH : -1 - (x + y) % 4;
}

static inline int max(int x, int y)
{
    return x > y ? x : y;
}

int allpairs_align(const struct allpairs *a, long i, long j)
{
    const unsigned char *x = a->residue[i], *y = a->residue[j];
    long m = a->len[i], n = a->len[j];
    int h[ALLPAIRS_LEN_MAX + 1], e[ALLPAIRS_LEN_MAX + 1];
    h[0] = 0;
    for (long c = 1; c <= n; ++c) {
        h[c] = -(OPEN + (int)c * EXTEND);
        e[c] = NONE;
    }
    for (long r = 1; r <= m; ++r) {
        int diag = h[0], f = NONE;
        h[0] = -(OPEN + (int)r * EXTEND);
        for (long c = 1; c <= n; ++c) {
            e[c] = max(e[c], h[c] - OPEN) - EXTEND;
            f = max(f, h[c - 1] - OPEN) - EXTEND;
            int best = max(diag + substitution(x[r - 1], y[c - 1]), max(e[c], f));
            diag = h[c];
            h[c] = best;
        }
    }
    return h[n];
}

/* score[pair (i, j)]: a task. */
static void pair(long i, long j, void *problem)
{
    struct allpairs *a = problem;
    a->score[j * (j - 1) / 2 + i] = allpairs_align(a, i, j);
}

void allpairs_all(void *problem, const struct app_tasks *tasks)
{
    const struct allpairs *a = problem;
    for (long i = 0; i < a->n; ++i)
        for (long j = i + 1; j < a->n; ++j)
            tasks->spawn(pair, i, j, problem);
    tasks->wait();
}
