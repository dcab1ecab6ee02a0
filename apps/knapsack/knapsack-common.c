/*
 * knapsack-common.c - the branch-and-bound knapsack's setup, check and
 * main (knapsack.h).
 *
 * --size is the number of items, --seed picks the instance.  The search
 * visits about twice as many branches for each item more, unevenly (seed
 * 1: 48.6 million forks at 28 items, 67.8 million at 29, 285 million at
 * 30).
 *
 * The check is exact and independent of the search: the optimal value by
 * meet in the middle (Horowitz and Sahni): every subset of each half of
 * the items, the first half's sorted by weight with the running maximum
 * of their values, and for each subset of the second half the best of the
 * first that fits beside it.  The result and the digest are the value.
 *
 * The impl table lists the peers only where they were built: HAVE_OMP
 * (gcc's libgomp) and HAVE_TBB (oneTBB).  Compiled with APP_OMP_LLVM, this
 * file makes apps/knapsack/knapsack-llvm instead, whose only parallel
 * programs are the OpenMP ones built by clang against LLVM's libomp.
 */
#include <stdlib.h>

#include "app.h"
#include "knapsack.h"

#define ITEMS_MAX 40
#define WEIGHT_MAX (1L << 30)  /* even: the weights are 2, 4, ... WEIGHT_MAX */

static long seed = 1;

/* Value density, the densest first: a before b if a.value / a.weight is
 * larger (products below 2^60); equal densities keep their order. */
static int denser(const struct knapsack_item *a, const struct knapsack_item *b)
{
    return a->value * b->weight > b->value * a->weight;
}

static size_t bytes(long size)
{
    size_t n = (size_t)size;
    return app_bytes_add(app_bytes_add(sizeof(struct knapsack), n, sizeof(struct knapsack_item)),
                         2 * (n + 1), sizeof(long));
}

static void *create(const struct app_args *args)
{
    struct knapsack *k = app_alloc(1, sizeof *k);
    long n = args->size;
    uint64_t state = (uint64_t)seed;
    k->n = n;
    k->seed = seed;
    k->item = app_alloc((size_t)n, sizeof *k->item);
    k->weights = app_alloc((size_t)n + 1, sizeof *k->weights);
    k->values = app_alloc((size_t)n + 1, sizeof *k->values);
    long total = 0;
    for (long i = 0; i < n; ++i) {
        long w = 2 * (1 + (long)(app_rand(&state) % (WEIGHT_MAX / 2)));
        /* Insertion by density: stable, and n is small. */
        long j = i;
        struct knapsack_item it = { w, w };
        for (; j > 0 && denser(&it, &k->item[j - 1]); --j)
            k->item[j] = k->item[j - 1];
        k->item[j] = it;
        total += w;
    }
    for (long i = 0; i < n; ++i) {
        k->weights[i + 1] = k->weights[i] + k->item[i].weight;
        k->values[i + 1] = k->values[i] + k->item[i].value;
    }
    k->capacity = (total / 2) | 1;  /* odd: no subset fills it (knapsack.h) */
    k->best = -1;
    return k;
}

/* Every subset of items [from, from + m): its weight and value. */
static void subsets(const struct knapsack *k, long from, long m, struct knapsack_item *out)
{
    out[0] = (struct knapsack_item){ 0, 0 };
    for (long b = 0; b < m; ++b) {
        size_t half = (size_t)1 << b;
        for (size_t s = 0; s < half; ++s) {
            out[half + s].weight = out[s].weight + k->item[from + b].weight;
            out[half + s].value = out[s].value + k->item[from + b].value;
        }
    }
}

static int by_weight(const void *a, const void *b)
{
    const struct knapsack_item *x = a, *y = b;
    return (x->weight > y->weight) - (x->weight < y->weight);
}

/* The optimal value by meet in the middle. */
static long exhaustive(const struct knapsack *k)
{
    long m1 = k->n / 2, m2 = k->n - m1;
    size_t n1 = (size_t)1 << m1, n2 = (size_t)1 << m2;
    struct knapsack_item *a = app_alloc(n1, sizeof *a), *b = app_alloc(n2, sizeof *b);
    subsets(k, 0, m1, a);
    subsets(k, m1, m2, b);
    qsort(a, n1, sizeof *a, by_weight);
    for (size_t s = 1; s < n1; ++s)  /* a[s].value: the best of a[0 .. s] */
        if (a[s].value < a[s - 1].value)
            a[s].value = a[s - 1].value;
    long best = 0;
    for (size_t s = 0; s < n2; ++s) {
        long room = k->capacity - b[s].weight;
        if (room < 0)
            continue;
        size_t lo = 0, hi = n1;  /* a[0 .. lo) weigh at most room; a[0] weighs 0 */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (a[mid].weight <= room)
                lo = mid;
            else
                hi = mid;
        }
        if (b[s].value + a[lo].value > best)
            best = b[s].value + a[lo].value;
    }
    app_free(a);
    app_free(b);
    return best;
}

static int check(void *problem)
{
    const struct knapsack *k = problem;
    long want = exhaustive(k);
    if (k->best != want) {
        fprintf(stderr, "knapsack: best value %ld, the exhaustive search's %ld\n", k->best, want);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct knapsack *k = problem;
    *nbytes = sizeof k->best;
    return &k->best;
}

static void fields(void *problem, FILE *out)
{
    const struct knapsack *k = problem;
    fprintf(out, " seed=%ld capacity=%ld value=%ld", k->seed, k->capacity, k->best);
    app_stats_print(&k->stats, out);
}

static void destroy(void *problem)
{
    struct knapsack *k = problem;
    app_free(k->item);
    app_free(k->weights);
    app_free(k->values);
    app_free(k);
}

static const struct app_impl impls[] = {
    { "seq", knapsack_seq, 0, "sequential: the depth-first recursion" },
#ifndef APP_OMP_LLVM
    { "fil", knapsack_fil, 1, "Filaments: f_fork/f_join per branch, the library's pruning" },
    { "fil-typed", knapsack_fil_typed, 1, "Filaments: f_fork_long/f_sync_long per branch" },
#ifdef HAVE_OMP
    { "omp", knapsack_omp, 1, "OpenMP tasks (libgomp), depth cutoff, no tasks below" },
    { "omp-fine", knapsack_omp_fine, 1, "OpenMP tasks (libgomp), a task per branch" },
#endif
#ifdef HAVE_TBB
    { "tbb", knapsack_tbb, 1, "oneTBB task_group, depth cutoff, no tasks below" },
#endif
#else
    { "omp-llvm", knapsack_omp, 1, "OpenMP tasks (LLVM libomp), depth cutoff, no tasks below" },
    { "omp-llvm-fine", knapsack_omp_fine, 1, "OpenMP tasks (LLVM libomp), a task per branch" },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "seed", APP_LONG, 0, 1e15, 0, 0, &seed, "the instance's random seed" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app knapsack = {
    .name = "knapsack",  /* knapsack-llvm too: its lines are more impls of knapsack */
    .impls = impls,
    .options = options,
    .size_min = 1,
    .size_max = ITEMS_MAX,  /* the exhaustive check: 2^20 subsets a half */
    .size_default = 29,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&knapsack, argc, argv);
}
