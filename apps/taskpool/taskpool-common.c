/*
 * taskpool-common.c - the synthetic algorithm's setup, check and main
 * [Korch §7.2].
 *
 * The problem is --k and --f; --size is not used (it is always 1).  The
 * check is exact and cheap, from counts rather than a rerun: A(i) for the
 * same i always does the same work and creates the same tasks, so with
 * N(i) the number of tasks A(i) of the run (i = -1 .. k-1),
 *     N(i) = [0 <= i < k] + [i + 1 > 0] N(i + 1) + [i + 2 > 0] N(i + 2),
 * the run must count sum N(i) tasks, and its work result must be
 * sum N(i) * (A(i)'s result) modulo 2^64, computed once per i.  When k is
 * in Korch and Rauber's Table 4, the count must also be the table's.
 * --verify compares the count and the work result with the sequential
 * program's.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "app.h"
#include "taskpool.h"

static long k = 20;
static long f = 40;

/* Korch and Rauber, Table 4: the total number of tasks P(k). */
static const struct {
    long k;
    uint64_t tasks;
} table4[] = {
    { 15, 5149 },         { 20, 57290 },        { 25, 635593 },       { 30, 7049122 },
    { 31, 11405739 },     { 32, 18454894 },     { 33, 29860667 },     { 34, 48315596 },
};

static size_t bytes(long size)
{
    return sizeof(struct taskpool);
}

static void *create(const struct app_args *args)
{
    struct taskpool *tp = app_alloc(1, sizeof *tp);
    tp->k = k;
    tp->f = f;
    return tp;
}

/* A(i)'s own result: what it adds to the work result, without its children's. */
static uint64_t own_result(long i, long factor)
{
    uint64_t x = taskpool_first(i, factor);
    return i <= 0 ? x : taskpool_last(taskpool_middle(x, factor), factor);
}

static int check(void *problem)
{
    const struct taskpool *tp = problem;
    long k = tp->k;
    /* n[i + 1] = N(i), i = -1 .. k-1; two zeros past the end. */
    uint64_t *n = app_alloc((size_t)k + 3, sizeof *n), tasks = 0, work = 0;
    for (long i = k - 1; i >= -1; --i) {
        n[i + 1] = (i >= 0) + (i + 1 > 0 ? n[i + 2] : 0) + (i + 2 > 0 ? n[i + 3] : 0);
        tasks += n[i + 1];
        work += n[i + 1] * own_result(i, tp->f);
    }
    app_free(n);
    int ok = 1;
    if (tp->result[0] != tasks || tp->result[1] != work) {
        fprintf(stderr,
                "taskpool: %" PRIu64 " tasks, work %016" PRIx64 "; expected %" PRIu64
                " tasks, work %016" PRIx64 "\n",
                tp->result[0], tp->result[1], tasks, work);
        ok = 0;
    }
    for (size_t t = 0; t < sizeof table4 / sizeof *table4; ++t) {
        if (table4[t].k == k && tp->result[0] != table4[t].tasks) {
            fprintf(stderr, "taskpool: %" PRIu64 " tasks; Korch and Rauber's Table 4: %" PRIu64
                    " for k=%ld\n", tp->result[0], table4[t].tasks, k);
            ok = 0;
        }
    }
    return ok;
}

static const void *result(void *problem, size_t *nbytes)
{
    struct taskpool *tp = problem;
    *nbytes = sizeof tp->result;
    return tp->result;
}

static void fields(void *problem, FILE *out)
{
    const struct taskpool *tp = problem;
    fprintf(out, " k=%ld f=%ld tasks=%" PRIu64 " work=%016" PRIx64, tp->k, tp->f, tp->result[0],
            tp->result[1]);
}

static void destroy(void *problem)
{
    app_free(problem);
}

static const struct app_impl impls[] = {
    { "seq", taskpool_seq, 0, "sequential: the recursion, a call per task" },
    { "cg", taskpool_cg, 1, "coarse grain: pthreads, one central bag of tasks under a mutex" },
    { "fil", taskpool_fil, 1, "Filaments: a fork/join filament per task, f_fork and f_join" },
    { "fil-typed", taskpool_fil_typed, 1, "Filaments: f_fork_long/f_sync_long return the count" },
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "k", APP_LONG, 1, 60, 0, 0, &k, "initial tasks A(k-1) .. A(0)" },
    { "f", APP_LONG, 0, 1000000, 0, 0, &f, "work factor: A(i) does 160f or 100f units" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app taskpool = {
    .name = "taskpool",
    .impls = impls,
    .options = options,
    .size_min = 1,
    .size_max = 1,
    .size_default = 1,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&taskpool, argc, argv);
}
