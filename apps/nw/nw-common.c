/*
 * nw-common.c - the Needleman-Wunsch wavefront's setup, check and main
 * (nw.h).
 *
 * --size is n, the residues per sequence; --penalty the cost of a gap of
 * one residue (Rodinia's default, 10).  The two sequences are drawn from a
 * fixed seed over the 20 amino acids, and ref[i][j] is the BLOSUM62 score
 * [Henikoff] of residue i of the first and residue j of the second.
 *
 * The check is exact and complete: row 0 and column 0 still hold the gaps,
 * and every other cell is the best of its three candidates computed from
 * the final matrix, so a cell computed before one of its neighbours (a
 * block run before the blocks of the previous diagonal were done) shows.
 * It costs about one sequential run.  The line gives the score of the
 * whole alignment, score[n][n].
 */
#include "app.h"
#include "nw.h"

#define N_MAX 40000 /* two 6.4 GB matrices */

static long penalty = 10;

/* BLOSUM62, in the order A R N D C Q E G H I L K M F P S T W Y V. */
static const signed char blosum62[20][20] = {
    { 4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1, -1, -1, -2, -1, 1, 0, -3, -2, 0 },
    { -1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2, 2, -1, -3, -2, -1, -1, -3, -2, -3 },
    { -2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3, 0, -2, -3, -2, 1, 0, -4, -2, -3 },
    { -2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4, -1, -3, -3, -1, 0, -1, -4, -3, -3 },
    { 0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1 },
    { -1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2, 1, 0, -3, -1, 0, -1, -2, -1, -2 },
    { -1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3, 1, -2, -3, -1, 0, -1, -3, -2, -2 },
    { 0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4, -2, -3, -3, -2, 0, -2, -2, -3, -3 },
    { -2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3, -1, -2, -1, -2, -1, -2, -2, 2, -3 },
    { -1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2, -3, 1, 0, -3, -2, -1, -3, -1, 3 },
    { -1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4, -2, 2, 0, -3, -2, -1, -2, -1, 1 },
    { -1, 2, 0, -1, -3, 1, 1, -2, -1, -3, -2, 5, -1, -3, -1, 0, -1, -3, -2, -2 },
    { -1, -1, -2, -3, -1, 0, -2, -3, -2, 1, 2, -1, 5, 0, -2, -1, -1, -1, -1, 1 },
    { -2, -3, -3, -3, -2, -3, -3, -3, -1, 0, 0, -3, 0, 6, -4, -2, -2, 1, 3, -1 },
    { -1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4, 7, -1, -1, -4, -3, -2 },
    { 1, -1, 1, 0, -1, 0, 0, 0, -1, -2, -2, 0, -1, -2, -1, 4, 1, -3, -2, -2 },
    { 0, -1, 0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1, 1, 5, -2, -2, 0 },
    { -3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1, 1, -4, -3, -2, 11, 2, -3 },
    { -2, -2, -2, -3, -2, -1, -2, -3, 2, -1, -1, -2, -1, 3, -3, -2, -2, 2, 7, -1 },
    { 0, -3, -3, -3, -1, -2, -2, -3, -3, 3, 1, -2, 1, -1, -2, -2, 0, -3, -1, 4 },
};

static size_t bytes(long size)
{
    size_t cells = (size_t)(size + 1) * (size_t)(size + 1);
    return app_bytes_add(app_bytes_add(sizeof(struct nw), 2 * cells, sizeof(int)), 2 * (size_t)size,
                         1);
}

static void *create(const struct app_args *args)
{
    long n = args->size, w = n + 1;
    struct nw *g = app_alloc(1, sizeof *g);
    *g = (struct nw){ .n = n, .w = w, .nb = (n + NW_BS - 1) / NW_BS, .penalty = (int)penalty };
    g->score = app_alloc((size_t)(w * w), sizeof *g->score);
    g->ref = app_alloc((size_t)(w * w), sizeof *g->ref);
    unsigned char *a = app_alloc((size_t)w, 1), *b = app_alloc((size_t)w, 1);
    uint64_t state = 57;
    for (long i = 1; i <= n; ++i) {
        a[i] = (unsigned char)(app_rand(&state) % 20);
        b[i] = (unsigned char)(app_rand(&state) % 20);
    }
    for (long i = 1; i <= n; ++i)
        for (long j = 1; j <= n; ++j)
            g->ref[i * w + j] = blosum62[a[i]][b[j]];
    for (long k = 1; k <= n; ++k) {
        g->score[k] = -(int)k * g->penalty;
        g->score[k * w] = -(int)k * g->penalty;
    }
    app_free(a);
    app_free(b);
    return g;
}

static int check(void *problem)
{
    const struct nw *g = problem;
    long n = g->n, w = g->w;
    const int *s = g->score, *ref = g->ref;
    for (long k = 0; k <= n; ++k)
        if (s[k] != -(int)k * g->penalty || s[k * w] != -(int)k * g->penalty) {
            fprintf(stderr, "nw: the gaps of row 0 or column 0 changed at %ld\n", k);
            return 0;
        }
    for (long i = 1; i <= n; ++i)
        for (long j = 1; j <= n; ++j) {
            const int *c = s + i * w + j;
            int want = nw_best(c[-w - 1] + ref[i * w + j], c[-1] - g->penalty, c[-w] - g->penalty);
            if (*c != want) {
                fprintf(stderr, "nw: cell (%ld, %ld) is %d, its recomputation %d\n", i, j, *c,
                        want);
                return 0;
            }
        }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct nw *g = problem;
    *nbytes = (size_t)(g->w * g->w) * sizeof *g->score;
    return g->score;
}

static void fields(void *problem, FILE *out)
{
    const struct nw *g = problem;
    fprintf(out, " penalty=%d score=%d", g->penalty, g->score[g->n * g->w + g->n]);
}

static void destroy(void *problem)
{
    struct nw *g = problem;
    app_free(g->score);
    app_free(g->ref);
    app_free(g);
}

static const struct app_impl impls[] = {
    { "seq", nw_seq, 0, "sequential: the diagonals of blocks in order, no parallel constructs" },
    { "cg", nw_cg, 1, "coarse grain: one pthread per server, a strip of each diagonal, a barrier" },
    { "fil", nw_fil, 1, "Filaments: a parallel loop over each diagonal's blocks (f_parallel_for)" },
#ifdef HAVE_OMP
    { "omp", nw_omp, 1, "OpenMP (libgomp): parallel for over each diagonal's blocks, as Rodinia" },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "penalty", APP_LONG, 0, 1000, 0, 0, &penalty, "the cost of a gap of one residue" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app nw = {
    .name = "nw",
    .impls = impls,
    .options = options,
    .size_min = 1,
    .size_max = N_MAX,
    .size_default = 2048,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&nw, argc, argv);
}
