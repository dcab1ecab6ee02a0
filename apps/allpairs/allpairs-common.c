/*
 * allpairs-common.c - the all-pairs alignment's setup, check and main
 * (allpairs.h).
 *
 * --size is the number of sequences, n; the work grows as n^2 (n (n - 1) / 2
 * pairs of some milliseconds each).  The check aligns a few pairs again the
 * other way round, sequence j against sequence i: the scoring is
 * symmetric, so the best score is the same, and a score left unwritten or
 * written into another pair's slot shows.  The result and the digest are
 * the scores.
 */
#include "app.h"
#include "allpairs.h"

#define SEQUENCES_MAX 2000
#define ALPHABET 20
#define SEED 46
#define CHECKED 5 /* pairs the check aligns again */

static long pairs(long n)
{
    return n * (n - 1) / 2;
}

static size_t bytes(long size)
{
    size_t n = (size_t)size, total = sizeof(struct allpairs);
    total = app_bytes_add(total, n, sizeof(unsigned char *) + sizeof(long) + ALLPAIRS_LEN_MAX);
    return app_bytes_add(total, (size_t)pairs(size), sizeof(int));
}

static void *create(const struct app_args *args)
{
    struct allpairs *a = app_alloc(1, sizeof *a);
    a->tasks.body = allpairs_all;
    uint64_t state = SEED;
    a->n = args->size;
    a->residue = app_alloc((size_t)a->n, sizeof *a->residue);
    a->len = app_alloc((size_t)a->n, sizeof *a->len);
    a->score = app_alloc((size_t)pairs(a->n), sizeof *a->score);
    for (long i = 0; i < a->n; ++i) {
        a->len[i] =
            ALLPAIRS_LEN_MIN + (long)(app_rand(&state) % (ALLPAIRS_LEN_MAX - ALLPAIRS_LEN_MIN + 1));
        a->residue[i] = app_alloc((size_t)a->len[i], 1);
        for (long k = 0; k < a->len[i]; ++k)
            a->residue[i][k] = (unsigned char)(app_rand(&state) % ALPHABET);
    }
    return a;
}

static int check(void *problem)
{
    const struct allpairs *a = problem;
    long np = pairs(a->n);
    for (long c = 0; c < CHECKED && c < np; ++c) {
        long p = c * (np - 1) / (CHECKED - 1), j = 1; /* first, last and between */
        while (j * (j + 1) / 2 <= p)
            ++j;
        long i = p - j * (j - 1) / 2;
        int want = allpairs_align(a, j, i);
        if (a->score[p] != want) {
            fprintf(stderr, "allpairs: pair (%ld, %ld) scored %d, the other way round %d\n", i, j,
                    a->score[p], want);
            return 0;
        }
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct allpairs *a = problem;
    *nbytes = (size_t)pairs(a->n) * sizeof *a->score;
    return a->score;
}

static void fields(void *problem, FILE *out)
{
    const struct allpairs *a = problem;
    fprintf(out, " pairs=%ld", pairs(a->n));
    app_stats_print(&a->tasks.stats, out);
}

static void destroy(void *problem)
{
    struct allpairs *a = problem;
    for (long i = 0; i < a->n; ++i)
        app_free(a->residue[i]);
    app_free(a->residue);
    app_free(a->len);
    app_free(a->score);
    app_free(a);
}

static const struct app_tasks_impls impls = {
    { app_tasks_seq, app_tasks_fil, APP_TASKS_OMP(app_tasks_omp) },
    { "sequential: BOTS's double loop, the pairs as calls",
      "Filaments: one root forks every pair in a loop, one f_join",
      "OpenMP tasks (libgomp): a task per pair, one taskwait" },
};

static const struct app allpairs = {
    .name = "allpairs",
    .size_min = 1,
    .size_max = SEQUENCES_MAX,
    .size_default = 20,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_tasks_main(&allpairs, &impls, argc, argv);
}
