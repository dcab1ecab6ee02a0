/*
 * fib-common.c - Fibonacci's setup, check and main [paper §3.4].
 *
 * --size is n.  The check compares the result with fib(n) computed by a
 * loop, exactly; the digest is that of the result (a long).  The Filaments
 * programs add the library's counters to the line: forks= (made, pruned
 * included), pruned=, steals= and peak= (the most fork/join filaments
 * queued or running at once on one server).
 *
 * The impl table lists the peers only where they were built: HAVE_OMP
 * (gcc's libgomp) and HAVE_TBB (oneTBB).  Compiled with APP_OMP_LLVM, this
 * file makes apps/fib/fib-llvm instead, whose only parallel programs are
 * the OpenMP ones built by clang against LLVM's libomp (fib-omp.c).
 */
#include "app.h"
#include "fib.h"

static size_t bytes(long size)
{
    return sizeof(struct fib);
}

static void *create(const struct app_args *args)
{
    struct fib *p = app_alloc(1, sizeof *p);
    p->n = args->size;
    p->result = -1;
    return p;
}

static int check(void *problem)
{
    const struct fib *p = problem;
    long a = 0, b = 1;  /* fib(k - 1), fib(k); no fib(93), which overflows */
    for (long k = 1; k < p->n; ++k) {
        long t = a + b;
        a = b;
        b = t;
    }
    long want = p->n == 0 ? 0 : b;
    if (p->result != want) {
        fprintf(stderr, "fib: fib(%ld) is %ld, not %ld\n", p->n, want, p->result);
        return 0;
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct fib *p = problem;
    *nbytes = sizeof p->result;
    return &p->result;
}

static void fields(void *problem, FILE *out)
{
    const struct fib *p = problem;
    app_stats_print(&p->stats, out);
}

static void destroy(void *problem)
{
    app_free(problem);
}

static const struct app_impl impls[] = {
    { "seq", fib_seq, 0, "sequential: the plain recursion, returning a long" },
#ifndef APP_OMP_LLVM
    { "seq-ptr", fib_seqptr, 0, "sequential, results through pointers (fil's baseline)" },
    { "seq-call", fib_seqcall, 0, "seq-ptr with fib(n-1) called out of line, as a join calls" },
    { "fil", fib_fil, 1, "Filaments: f_fork/f_join per call, pruning off" },
    { "fil-auto", fib_fil_auto, 1, "Filaments: f_fork/f_join per call, F_PRUNE_AUTO" },
    { "fil-seq", fib_fil_seq, 1, "Filaments: f_fork_seq with the sequential version, auto" },
    { "fil-typed", fib_fil_typed, 1, "Filaments: f_fork_long/f_sync_long, pruning off" },
    { "fil-typed-auto", fib_fil_typed_auto, 1, "Filaments: f_fork_long/f_sync_long, auto" },
#ifdef HAVE_OMP
    { "omp", fib_omp, 1, "OpenMP tasks (libgomp), depth cutoff, sequential below" },
    { "omp-fine", fib_omp_fine, 1, "OpenMP tasks (libgomp), every call a task" },
#endif
#ifdef HAVE_TBB
    { "tbb", fib_tbb, 1, "oneTBB task_group, depth cutoff, sequential below" },
#endif
#else
    { "omp-llvm", fib_omp, 1, "OpenMP tasks (LLVM libomp), depth cutoff, sequential below" },
    { "omp-llvm-fine", fib_omp_fine, 1, "OpenMP tasks (LLVM libomp), every call a task" },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct app fib = {
    .name = "fib",  /* fib-llvm too: its lines are more impls of fib */
    .impls = impls,
    .options = NULL,
    .size_min = 0,
    .size_max = 92,  /* fib(92) is the largest that fits in 63 bits */
    .size_default = 35,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .fields = fields,
    .destroy = destroy,
};

int main(int argc, char **argv)
{
    return app_main(&fib, argc, argv);
}
