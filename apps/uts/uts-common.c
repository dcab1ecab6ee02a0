/*
 * uts-common.c - the unbalanced tree search's setup, check and main
 * [Olivier].
 *
 * --shape picks the tree (uts.h), --size scales it: the binomial tree's
 * 1 / (1 - m q), the geometric tree's depth; 0 (the default) is the
 * paper's tree of that shape, T3 (size 1000) or T1 (size 10).  --b0, --m
 * (binomial) and --seed change the rest.
 *
 * The check: SHA-1 against FIPS 180's examples; the binomial tree's own
 * arithmetic (b0 children of the root, m of each other inner node: nodes
 * = 1 + b0 + m * inner); and the counts against the reference, the
 * sequential program's counts of the same tree.  Those of a few trees
 * were computed once and are in `known` below, the paper's T1 and T3 among
 * them (which they equal, so this SHA-1 stream is the paper's); for any
 * other tree the check runs the sequential recursion again, untimed.  The
 * result and the digest are struct uts_result.
 *
 * The impl table lists the peers only where they were built: HAVE_OMP
 * (gcc's libgomp) and HAVE_TBB (oneTBB).  Compiled with APP_OMP_LLVM, this
 * file makes apps/uts/uts-llvm instead, whose only parallel programs are
 * the OpenMP ones built by clang against LLVM's libomp (uts-omp.c).
 */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "uts.h"

static const char *const shapes[] = { "binomial", "geometric", NULL };
static struct app_choice shape = { shapes, UTS_BINOMIAL };
static long seed = 0;  /* 0: the paper's tree's */
static long b0 = 0;    /* 0: the paper's tree's */
static long m = 8;

/* The paper's trees: T3 (binomial) and T1 (geometric) [Olivier]. */
static const struct uts_tree paper[] = {
    [UTS_BINOMIAL] = { UTS_BINOMIAL, 1000, 2000, 8, 0.124875, 0.0, 42 },
    [UTS_GEOMETRIC] = { UTS_GEOMETRIC, 10, 4, 0, 0.0, 0.0, 19 },
};

/* Counts computed once by --impl=seq, of the paper's T3 and T1: the same
 * as the paper gives. */
static const struct {
    struct uts_tree tree;
    struct uts_result r;
} known[] = {
    { { UTS_BINOMIAL, 1000, 2000, 8, 0.124875, 0.0, 42 }, { 4112897, 3599034, 1572 } },
    { { UTS_GEOMETRIC, 10, 4, 0, 0.0, 0.0, 19 }, { 4130071, 3305118, 10 } },
};

static size_t bytes(long size)
{
    return sizeof(struct uts);
}

static void *create(const struct app_args *args)
{
    struct uts *p = app_alloc(1, sizeof *p);
    struct uts_tree *t = &p->tree;
    *t = paper[shape.chosen];
    if (b0 != 0)
        t->b0 = b0;
    if (seed != 0)
        t->seed = seed;
    if (t->shape == UTS_BINOMIAL) {
        /* size = 1 / (1 - m q), the expected nodes below a child of the root */
        if (args->size != 0)
            t->size = args->size;
        t->m = m;
        t->q = (1.0 - 1.0 / (double)t->size) / (double)m;
    } else {
        if (args->size != 0)
            t->size = args->size;
        t->log_keep = log(1.0 - 1.0 / (1.0 + (double)t->b0));
    }
    p->r = (struct uts_result){ -1, -1, -1 };
    return p;
}

static int same_tree(const struct uts_tree *a, const struct uts_tree *b)
{
    return a->shape == b->shape && a->size == b->size && a->b0 == b->b0 && a->m == b->m &&
           a->seed == b->seed;
}

static int check(void *problem)
{
    const struct uts *p = problem;
    const struct uts_tree *t = &p->tree;
    const struct uts_result *r = &p->r;
    if (!sha1_selftest())
        return 0;
    if (t->shape == UTS_BINOMIAL && (r->nodes - 1 - t->b0) % t->m != 0) {
        fprintf(stderr, "uts: %ld nodes is not 1 + %ld + %ld * inner nodes\n", r->nodes, t->b0,
                t->m);
        return 0;
    }
    if (t->shape == UTS_BINOMIAL && r->leaves != r->nodes - 1 - (r->nodes - 1 - t->b0) / t->m) {
        fprintf(stderr, "uts: %ld nodes of which %ld leaves: not a binomial tree\n", r->nodes,
                r->leaves);
        return 0;
    }
    struct uts_result want;
    size_t k = 0;
    while (k < sizeof known / sizeof *known && !same_tree(&known[k].tree, t))
        ++k;
    if (k < sizeof known / sizeof *known) {
        want = known[k].r;
    } else {
        struct uts ref = *p;
        uts_seq(&ref, 1);
        want = ref.r;
    }
    if (memcmp(&want, r, sizeof want) != 0) {
        fprintf(stderr, "uts: %ld nodes, %ld leaves, depth %ld; the sequential program's: "
                        "%ld, %ld, %ld\n",
                r->nodes, r->leaves, r->depth, want.nodes, want.leaves, want.depth);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct uts *p = problem;
    *nbytes = sizeof p->r;
    return &p->r;
}

static void fields(void *problem, FILE *out)
{
    const struct uts *p = problem;
    const struct uts_tree *t = &p->tree;
    if (t->shape == UTS_BINOMIAL)
        fprintf(out, " shape=binomial b0=%ld m=%ld q=%.10g", t->b0, t->m, t->q);
    else
        fprintf(out, " shape=geometric b0=%ld depth=%ld", t->b0, t->size);
    fprintf(out, " seed=%ld nodes=%ld leaves=%ld maxdepth=%ld", t->seed, p->r.nodes, p->r.leaves,
            p->r.depth);
    app_stats_print(&p->stats, out);
}

static void destroy(void *problem)
{
    app_free(problem);
}

_Static_assert(sizeof(struct uts_result) == 3 * sizeof(long),
               "struct uts_result has no padding to digest");
_Static_assert(sizeof(struct uts_slot) == APP_CACHE_LINE, "a slot is one cache line");

static const struct app_impl impls[] = {
    { "seq", uts_seq, 0, "sequential: the depth-first recursion" },
#ifndef APP_OMP_LLVM
    { "fil", uts_fil, 1, "Filaments: f_fork/f_join per child, the library's pruning" },
    { "fil-typed", uts_fil_typed, 1, "Filaments: f_fork_long/f_sync_long per child" },
#ifdef HAVE_OMP
    { "omp", uts_omp, 1, "OpenMP tasks (libgomp), depth cutoff, sequential below" },
    { "omp-fine", uts_omp_fine, 1, "OpenMP tasks (libgomp), a task per child" },
#endif
#ifdef HAVE_TBB
    { "tbb", uts_tbb, 1, "oneTBB task_group, depth cutoff, sequential below" },
#endif
#else
    { "omp-llvm", uts_omp, 1, "OpenMP tasks (LLVM libomp), depth cutoff, sequential below" },
    { "omp-llvm-fine", uts_omp_fine, 1, "OpenMP tasks (LLVM libomp), a task per child" },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "shape", APP_CHOICE, 0, 0, 0, 0, &shape, "the tree" },
    { "seed", APP_LONG, 0, 2147483647, 0, 0, &seed,
      "the root's seed (0: the paper's, 42 for T3, 19 for T1)" },
    { "b0", APP_LONG, 0, 1000000, 0, 0, &b0,
      "binomial: the root's children; geometric: the mean\n"
      "                number of children (0: the paper's, 2000 or 4)" },
    { "m", APP_LONG, 1, 1000, 0, 0, &m, "binomial: the children of an inner node" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app uts = {
    .name = "uts",  /* uts-llvm too: its lines are more impls of uts */
    .impls = impls,
    .options = options,
    .size_min = 0,
    .size_max = 10000000,
    .size_default = 0,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&uts, argc, argv);
}
