/*
 * quad-common.c - adaptive quadrature's setup, check and main [paper §3.3].
 *
 * --size=N integrates over [1, N], as the paper's "quad size 27" (1 to 27
 * on the Sequent, 1 to 35 on the Iris); --epsilon is the tolerance.  The
 * work grows as exp(N / 3) and is heaviest at the right end, where f
 * oscillates fastest, which is what defeats the static program.
 *
 * The check is exact: it recomputes the area by the sequential recursion
 * (untimed) and compares it, and the number of leaf intervals, bitwise.
 * The result and the digest are struct quad_result: the area and the
 * number of intervals.
 *
 * The static program's area is the sum of the sequential recursions over
 * its `servers` equal segments, not the whole recursion's (quad.h), so
 * that is what its check recomputes; and --verify, whose reference is
 * always the first impl (seq) on a problem made after this one, gets the
 * same segments: create() passes the static program's segment count on to
 * the next problem it makes, and seq sums over it.  Every line says how
 * many segments its answer is the sum over (segments=, 1 but for static),
 * and `--impl=seq --segments=N` computes the static program's answer at N
 * servers on its own, the reference that scripts/speedup-tables and the
 * tests compare static's digest with.  No other impl takes --segments: its
 * answer is the whole recursion's, bitwise, at every server count.
 *
 * The impl table lists the peers only where they were built: HAVE_OMP
 * (gcc's libgomp) and HAVE_TBB (oneTBB).  Compiled with APP_OMP_LLVM, this
 * file makes apps/quad/quad-llvm instead, whose only parallel programs are
 * the OpenMP ones built by clang against LLVM's libomp (quad-omp.c).
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "quad.h"
#ifdef HAVE_MPI
#include "app-mpi.h"
#endif

static double epsilon = 1e-10;

/* --segments: 0 is the impl's own (1; static: one per server). */
static long segments = 0;

/* The static program's segments, for the problem made after it (--verify's). */
static int next_segments = 1;

static size_t bytes(long size)
{
    return sizeof(struct quad);
}

/* A bad option: one line, exit status 2, as app.c reports one; under
 * mpirun, from rank 0 alone, every rank finalizing MPI. */
static void bad_segments(const struct app_args *args, const char *why)
{
#ifdef HAVE_MPI
    if (args->impl->parallel & APP_MPI)
        app_mpi_usage_error("--segments=%ld: %s", segments, why);
#endif
    fflush(stdout);
    fprintf(stderr, "quad: --segments=%ld: %s\n", segments, why);
    exit(2);
}

static void *create(const struct app_args *args)
{
    struct quad *q = app_alloc(1, sizeof *q);
    q->a = 1.0;
    q->b = (double)args->size;
    q->epsilon = epsilon;
    q->segments = next_segments;
    if (segments != 0 && args->impl->run == quad_seq)
        q->segments = next_segments = (int)segments;
#ifndef APP_OMP_LLVM
    else if (args->impl->run == quad_static) {
        if (segments != 0 && segments != args->servers)
            bad_segments(args, "the static program integrates one segment per server");
        q->segments = next_segments = args->servers;
    }
#endif
    else if (segments > 1)
        bad_segments(args, "only seq and static integrate by segments");
    q->r.area = NAN;
    q->r.intervals = -1;
    return q;
}

static int check(void *problem)
{
    const struct quad *q = problem;
    struct quad want = *q;
    quad_seq(&want, 1);
    if (memcmp(&want.r.area, &q->r.area, sizeof want.r.area) != 0 ||
        want.r.intervals != q->r.intervals) {
        fprintf(stderr, "quad: area %.17g in %ld intervals, the recursion's %.17g in %ld\n",
                q->r.area, q->r.intervals, want.r.area, want.r.intervals);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct quad *q = problem;
    *nbytes = sizeof q->r;
    return &q->r;
}

static void fields(void *problem, FILE *out)
{
    const struct quad *q = problem;
    fprintf(out, " segments=%d intervals=%ld area=%.17g", q->segments, q->r.intervals,
            q->r.area);
}

static void destroy(void *problem)
{
    app_free(problem);
}

_Static_assert(sizeof(struct quad_result) == sizeof(double) + sizeof(long),
               "struct quad_result has no padding to digest");

static const struct app_impl impls[] = {
    { "seq", quad_seq, 0, "sequential: the recursion over [1, size]" },
#ifndef APP_OMP_LLVM
    { "static", quad_static, 1, "coarse grain: equal segments, one pthread each" },
    { "bag", quad_bag, 1, "coarse grain: a central bag of tasks under a lock, pruning" },
    { "fil", quad_fil, 1, "Filaments: f_fork/f_join, a filament per interval" },
    { "fil-seq", quad_fil_seq, 1, "Filaments: f_fork_seq with the sequential version" },
#ifdef HAVE_MPI
    { "mpi-fil", quad_mpi_fil, APP_PARALLEL | APP_MPI,
      "MPI ranks (mpirun -np R) ask rank 0 for intervals, f_fork/f_join in each" },
    { "mpi", quad_mpi, APP_MPI, "MPI ranks, one thread each: ask for intervals, recursion" },
#endif
#ifdef HAVE_OMP
    { "omp", quad_omp, 1, "OpenMP tasks (libgomp), depth cutoff, sequential below" },
    { "omp-fine", quad_omp_fine, 1, "OpenMP tasks (libgomp), a task per interval" },
#endif
#ifdef HAVE_TBB
    { "tbb", quad_tbb, 1, "oneTBB task_group, depth cutoff, sequential below" },
#endif
#else
    { "omp-llvm", quad_omp, 1, "OpenMP tasks (LLVM libomp), depth cutoff, sequential below" },
    { "omp-llvm-fine", quad_omp_fine, 1, "OpenMP tasks (LLVM libomp), a task per interval" },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct app_option options[] = {
    { "epsilon", APP_DOUBLE, 0, DBL_MAX, 1, 0, &epsilon, "the tolerance: |left + right - area|" },
    { "segments", APP_LONG, 0, 1024, 0, 0, &segments,
      "seq: the sum of the recursions over N equal segments,\n"
      "                static's answer at N servers (0: 1, or static's own)" },
    { NULL, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct app quad = {
    .name = "quad",  /* quad-llvm too: its lines are more impls of quad */
    .impls = impls,
    .options = options,
    .size_min = 2,
    .size_max = 200,
    .size_default = 27,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
#ifdef HAVE_MPI
    .mpi = &quad_mpi_driver,
#endif
};

int main(int argc, char **argv)
{
    return app_main(&quad, argc, argv);
}
