/*
 * exprtree-common.c - the matrix-expression tree's setup, check and main
 * [paper §5].
 *
 * Options: --leaves=L (a power of two) and --size=N, the order of the
 * matrices; --shape=LxN is a shorthand for --leaves=L with N as the
 * default of --size (--shape=128x25 and --shape=8x100 are the paper's two
 * tests; an explicit --leaves or --size wins, before or after it).  app.h's
 * driver knows numbers only, so main() takes --shape out of argv before
 * app_main() sees it.
 *
 * The leaves are pseudo-random orthogonal matrices: the rows of a matrix
 * of uniform numbers in [-1, 1), orthonormalized by modified Gram-Schmidt
 * (twice, which leaves them orthonormal to rounding).  Their entries are
 * about 1/sqrt(n), and any product of them is orthogonal too, so the tree's
 * value neither overflows nor underflows however many leaves it has.
 * (Matrices of independent entries of variance 1/n, the obvious choice,
 * shrink their products geometrically: 4096 leaves of order 3 underflow
 * to zero.)
 *
 * The check multiplies a pseudo-random vector x by the leaves one at a
 * time, from the last leaf to the first (n^2 per leaf), and compares the
 * result y with root x: the two differ by rounding only, and the check
 * wants |root x - y|_2 <= TOLERANCE |y|_2.  --verify compares every node's
 * matrix, the root included, with the sequential program's bitwise; the
 * digest is of the root.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "exprtree.h"

/* The check's relative tolerance: the round-off is about 1e-15 for the paper's trees. */
#define TOLERANCE 1e-10

#define LEAVES_MAX 65536

static long leaves = 128;

/* A bad option: one line, exit status 2, as app.c's. */
static void bad_option(const char *fmt, const char *value)
{
    fprintf(stderr, "exprtree: ");
    fprintf(stderr, fmt, value);
    fputc('\n', stderr);
    exit(2);
}

static int power_of_two(long v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

static size_t bytes(long size)
{
    if (!power_of_two(leaves)) {
        char got[32];
        snprintf(got, sizeof got, "%ld", leaves);
        bad_option("--leaves: expected a power of two from 2 to 65536, got '%s'", got);
    }
    size_t nodes = (size_t)(2 * leaves - 1);
    return app_bytes_add(0, nodes, app_bytes_add(0, (size_t)size * (size_t)size, sizeof(double)));
}

/* a = a pseudo-random orthogonal n x n matrix. */
static void random_orthogonal(double *a, long n, uint64_t *seed)
{
    for (long e = 0; e < n * n; ++e)
        a[e] = 2.0 * app_rand_double(seed) - 1.0;
    for (long i = 0; i < n; ++i) {
        double *r = a + i * n;
        for (int pass = 0; pass < 2; ++pass) {
            for (long p = 0; p < i; ++p) {
                const double *q = a + p * n;
                double dot = 0.0;
                for (long j = 0; j < n; ++j)
                    dot += r[j] * q[j];
                for (long j = 0; j < n; ++j)
                    r[j] -= dot * q[j];
            }
        }
        double norm = 0.0;
        for (long j = 0; j < n; ++j)
            norm += r[j] * r[j];
        norm = sqrt(norm);
        for (long j = 0; j < n; ++j)
            r[j] /= norm;
    }
}

static void *create(const struct app_args *args)
{
    long n = args->size, nodes = 2 * leaves - 1;
    struct exprtree *t = app_alloc(1, sizeof *t);
    t->leaves = leaves;
    t->n = n;
    t->m = app_alloc((size_t)nodes + 1, sizeof *t->m);
    t->store = app_alloc((size_t)nodes, (size_t)(n * n) * sizeof *t->store);
    for (long k = 1; k <= nodes; ++k)
        t->m[k] = t->store + (k - 1) * n * n;
    uint64_t seed = 1;
    for (long k = leaves; k <= nodes; ++k)
        random_orthogonal(t->m[k], n, &seed);
    return t;
}

/* y = m x, n x n times n. */
static void mul_vector(double *y, const double *m, const double *x, long n)
{
    for (long i = 0; i < n; ++i) {
        double s = 0.0;
        for (long j = 0; j < n; ++j)
            s += m[i * n + j] * x[j];
        y[i] = s;
    }
}

static int check(void *problem)
{
    const struct exprtree *t = problem;
    long n = t->n;
    double *x = app_alloc((size_t)n, sizeof *x), *y = app_alloc((size_t)n, sizeof *y);
    double *r = app_alloc((size_t)n, sizeof *r);
    uint64_t seed = 2;
    for (long i = 0; i < n; ++i)
        x[i] = 2.0 * app_rand_double(&seed) - 1.0;
    mul_vector(r, t->m[1], x, n);
    for (long k = 2 * t->leaves - 1; k >= t->leaves; --k) {  /* y = leaves applied to x */
        mul_vector(y, t->m[k], x, n);
        memcpy(x, y, (size_t)n * sizeof *x);
    }
    double diff = 0.0, norm = 0.0;
    int finite = 1;
    for (long e = 0; e < n * n; ++e)
        finite = finite && isfinite(t->m[1][e]);
    for (long i = 0; i < n; ++i) {
        diff += (r[i] - y[i]) * (r[i] - y[i]);
        norm += y[i] * y[i];
    }
    int ok = finite && sqrt(diff) <= TOLERANCE * sqrt(norm) && norm > 0.0;
    if (!ok)
        fprintf(stderr, "exprtree: |root x - y| = %.3e, |y| = %.3e, root %s\n", sqrt(diff),
                sqrt(norm), finite ? "finite" : "not finite");
    app_free(r);
    app_free(y);
    app_free(x);
    return ok;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct exprtree *t = problem;
    *nbytes = (size_t)(t->n * t->n) * sizeof *t->store;
    return t->m[1];
}

static void fields(void *problem, FILE *out)
{
    const struct exprtree *t = problem;
    fprintf(out, " leaves=%ld", t->leaves);
}

static void destroy(void *problem)
{
    struct exprtree *t = problem;
    app_free(t->store);
    app_free(t->m);
    app_free(t);
}

static const struct app_impl impls[] = {
    { "seq", exprtree_seq, 0, "sequential: recursion, subtrees then the product" },
    { "cg", exprtree_cg, 1, "coarse grain: pthreads, a bag of tasks (blocks of rows of products)" },
    { "fil", exprtree_fil, 1, "Filaments: fork both subtrees, join, fork the rows of the product" },
    { "fil-tree", exprtree_fil_tree, 1, "Filaments: fork both subtrees, join, a loop per product" },
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "leaves", APP_LONG, 2, LEAVES_MAX, 0, 0, &leaves,
      "leaves, a power of two; --shape=LxN: L leaves, order N" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static struct app exprtree = {
    .name = "exprtree",
    .impls = impls,
    .options = options,
    .size_min = 1,
    .size_max = 4096,
    .size_default = 25,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

/* A whole number from min to max, all of s; else -1. */
static long parse_part(const char *s, const char *end, long min, long max)
{
    char *stop;
    if (s == end || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    long v = strtol(s, &stop, 10);
    return errno == 0 && stop == end && v >= min && v <= max ? v : -1;
}

/* --shape=LxN: set leaves and the default size. */
static void set_shape(const char *shape)
{
    const char *x = strchr(shape, 'x');
    long l = x == NULL ? -1 : parse_part(shape, x, 2, LEAVES_MAX);
    long n = x == NULL ? -1 : parse_part(x + 1, x + strlen(x), exprtree.size_min,
                                          exprtree.size_max);
    if (!power_of_two(l) || n < 0)
        bad_option("--shape: expected LxN, L a power of two from 2 to 65536 and N from 1 to "
                   "4096 (128x25, 8x100), got '%s'",
                   shape);
    leaves = l;
    exprtree.size_default = n;
}

int main(int argc, char **argv)
{
    int out = 1;
    for (int a = 1; a < argc; ++a) {
        if (strcmp(argv[a], "--") == 0) {
            while (a < argc)
                argv[out++] = argv[a++];
            break;
        }
        if (strncmp(argv[a], "--shape=", 8) == 0) {
            set_shape(argv[a] + 8);
        } else if (strcmp(argv[a], "--shape") == 0) {
            if (a + 1 == argc)
                bad_option("%s: expected a value", argv[a]);
            set_shape(argv[++a]);
        } else {
            argv[out++] = argv[a];
        }
    }
    argv[out] = NULL;
    return app_main(&exprtree, out, argv);
}
