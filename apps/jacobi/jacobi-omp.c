/*
 * jacobi-omp.c - the Jacobi iteration with OpenMP, a peer for the
 * benchmarks (doc/benchmarks.md, "Peers").  Built by gcc with -fopenmp into
 * apps/jacobi/jacobi (libgomp: --impl=omp, omp-for) and, where clang and
 * LLVM's libomp are found, by clang into apps/jacobi/jacobi-llvm
 * (--impl=omp-llvm, omp-llvm-for): two OpenMP runtimes cannot share a
 * process.
 *
 *   omp      a task per point per iteration, made by one thread, then a
 *            taskwait: the fine-grain program, as --impl=fil has an
 *            iterative filament per point.
 *   omp-for  `omp for` over the rows, static schedule, and a barrier per
 *            iteration: the coarse-grain reference, as --impl=cg.
 *   omp-dynamic  the same loop, schedule(dynamic): a thread takes the next
 *            row when it is done with its last, which is what an OpenMP user
 *            tries when one thread is slower (a busy neighbour on its core:
 *            scripts/noise) and what the tables compare Filaments' own
 *            placement with (issue 47).
 *
 * The two `omp for` programs are one function: its loop is
 * schedule(runtime), and each sets the schedule with omp_set_schedule()
 * before the team starts, so that the members inherit it (OpenMP 5.2,
 * run-sched-var, a data-environment ICV) and OMP_SCHEDULE has no say.
 * The static one's chunk is 0, the default, equal blocks: what
 * schedule(static) without a chunk is; the dynamic one's is 1, a row.
 *
 * Each thread keeps its largest change in its own padded slot; one thread
 * combines them and ends the iteration (jacobi_end_iteration).  Every
 * point is jacobi_point(), so the grids are bitwise the sequential
 * program's.  The team is started and ended inside the timed run.
 */
#include <omp.h>

#include "app.h"
#include "jacobi.h"

static double slots_max(struct app_slot *slot, int n)
{
    double m = 0.0;
    for (int t = 0; t < n; ++t) {
        if (slot[t].v > m)
            m = slot[t].v;
        slot[t].v = 0.0;
    }
    return m;
}

void jacobi_omp(void *problem, int servers)
{
    struct jacobi *g = problem;
    long n = g->n, w = g->w;
    struct app_slot *slot = app_alloc((size_t)servers, sizeof *slot);
#pragma omp parallel num_threads(servers)
#pragma omp single
    do {
        const double *old = g->old;
        double *new = g->new;
        for (long i = 1; i <= n; ++i)
            for (long j = 1; j <= n; ++j) {
#pragma omp task firstprivate(old, new, i, j)
                {
                    double d = jacobi_point(old, new, w, i, j);
                    struct app_slot *s = &slot[omp_get_thread_num()];
                    if (d > s->v)
                        s->v = d;
                }
            }
#pragma omp taskwait
    } while (!jacobi_end_iteration(g, slots_max(slot, servers)));
    app_free(slot);
}

static void omp_for(void *problem, int servers, omp_sched_t kind, int chunk)
{
    struct jacobi *g = problem;
    long n = g->n, w = g->w;
    struct app_slot *slot = app_alloc((size_t)servers, sizeof *slot);
    int done = 0;
    omp_set_schedule(kind, chunk);
#pragma omp parallel num_threads(servers)
    {
        int t = omp_get_thread_num(), over;
        do {
            const double *old = g->old;
            double *new = g->new;
            double maxdiff = 0.0;
#pragma omp for schedule(runtime) nowait
            for (long i = 1; i <= n; ++i)
                for (long j = 1; j <= n; ++j) {
                    double d = jacobi_point(old, new, w, i, j);
                    if (d > maxdiff)
                        maxdiff = d;
                }
            slot[t].v = maxdiff;
#pragma omp barrier
#pragma omp single
            done = jacobi_end_iteration(g, slots_max(slot, omp_get_num_threads()));
            over = done;  /* after the single's barrier; written again only after the next */
        } while (!over);
    }
    app_free(slot);
}

void jacobi_omp_for(void *problem, int servers)
{
    omp_for(problem, servers, omp_sched_static, 0);
}

void jacobi_omp_dynamic(void *problem, int servers)
{
    omp_for(problem, servers, omp_sched_dynamic, 1);
}
