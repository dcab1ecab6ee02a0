/*
 * quicksort-common.c - quicksort's setup, check and main [paper §3.4].
 *
 * --size=N longs from a fixed seed (app_rand), any long, or with
 * --keys=K only 0 .. K-1 (many equal keys).  --cutoff is the size of the
 * subarrays that the parallel programs sort sequentially.  The check is
 * exact and cheap: the array is in order, and a checksum of the multiset
 * of keys (a sum of a mix of each key, which the order does not change)
 * is the input's.  The result, digested and compared by --verify, is the
 * sorted array.
 */
#include "app.h"
#include "quicksort.h"

static long cutoff = 2048;
static long keys = 0;

/* A key's share of the multiset checksum: splitmix64's finalizer. */
static uint64_t mix(long key)
{
    uint64_t z = (uint64_t)key;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint64_t keysum(const long *a, long n)
{
    uint64_t sum = 0;
    for (long k = 0; k < n; ++k)
        sum += mix(a[k]);
    return sum;
}

static size_t bytes(long size)
{
    return app_bytes_add(0, (size_t)size, sizeof(long));
}

static void *create(const struct app_args *args)
{
    struct qsort *s = app_alloc(1, sizeof *s);
    s->n = args->size;
    s->cutoff = cutoff;
    s->a = app_alloc((size_t)s->n, sizeof *s->a);
    uint64_t seed = 4;
    for (long k = 0; k < s->n; ++k) {
        uint64_t r = app_rand(&seed);
        s->a[k] = keys > 0 ? (long)(r % (uint64_t)keys) : (long)r;
    }
    s->keysum = keysum(s->a, s->n);
    return s;
}

static int check(void *problem)
{
    const struct qsort *s = problem;
    for (long k = 1; k < s->n; ++k) {
        if (s->a[k - 1] > s->a[k]) {
            fprintf(stderr, "quicksort: a[%ld] = %ld > a[%ld] = %ld\n", k - 1, s->a[k - 1], k,
                    s->a[k]);
            return 0;
        }
    }
    if (keysum(s->a, s->n) != s->keysum) {
        fprintf(stderr, "quicksort: the keys are not the input's (checksum)\n");
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct qsort *s = problem;
    *nbytes = (size_t)s->n * sizeof *s->a;
    return s->a;
}

static void destroy(void *problem)
{
    struct qsort *s = problem;
    app_free(s->a);
    app_free(s);
}

static const struct app_impl impls[] = {
    { "seq", qsort_seq, 0, "sequential: recursive quicksort, insertion sort below 16" },
    { "cg", qsort_cg, 1, "coarse grain: a central bag of subarrays under a lock" },
    { "fil", qsort_fil, 1, "Filaments: f_fork/f_join on the two parts" },
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "cutoff", APP_LONG, 2, 1e15, 0, 0, &cutoff,
      "parallel programs sort subarrays this small sequentially" },
    { "keys", APP_LONG, 0, 1e15, 0, 0, &keys, "keys from 0 to N-1 (0: any long)" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app quicksort = {
    .name = "quicksort",
    .impls = impls,
    .options = options,
    .size_min = 1,
    .size_max = 1L << 40,
    .size_default = 10000000,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&quicksort, argc, argv);
}
