/*
 * matmul-common.c - matrix multiplication's setup, check and main
 * [paper §3.1].
 *
 * a and b hold pseudo-random numbers in [-1, 1) from fixed seeds.  The
 * default check recomputes a sample of entries (fixed seed) with
 * matmul_inner's loop and compares them bitwise; --verify compares the
 * whole of c with the sequential program's.
 */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "matmul.h"

#define SAMPLES 1000

static size_t bytes(long size)
{
    return app_bytes_add(0, 3 * (size_t)size, (size_t)size * sizeof(double));
}

static void *create(const struct app_args *args)
{
    long n = args->size;
    struct matmul *m = app_alloc(1, sizeof *m);
    m->n = n;
    m->a = app_alloc((size_t)(n * n), sizeof *m->a);
    m->bt = app_alloc((size_t)(n * n), sizeof *m->bt);
    m->c = app_alloc((size_t)(n * n), sizeof *m->c);
    uint64_t sa = 1, sb = 2;
    for (long k = 0; k < n * n; ++k) {
        m->a[k] = 2.0 * app_rand_double(&sa) - 1.0;
        m->bt[k] = 2.0 * app_rand_double(&sb) - 1.0;
    }
    return m;
}

static int check(void *problem)
{
    const struct matmul *m = problem;
    long n = m->n;
    uint64_t seed = 3;
    for (int s = 0; s < SAMPLES; ++s) {
        long i = (long)(app_rand(&seed) % (uint64_t)n), j = (long)(app_rand(&seed) % (uint64_t)n);
        double want = matmul_dot(m->a + i * n, m->bt + j * n, n);
        if (memcmp(&want, &m->c[i * n + j], sizeof want) != 0) {
            fprintf(stderr, "matmul: c[%ld][%ld] is %.17g, its recomputation %.17g\n", i, j,
                    m->c[i * n + j], want);
            return 0;
        }
    }
    return 1;
}

static const void *result(void *problem, size_t *nbytes)
{
    const struct matmul *m = problem;
    *nbytes = (size_t)(m->n * m->n) * sizeof *m->c;
    return m->c;
}

static void destroy(void *problem)
{
    struct matmul *m = problem;
    app_free(m->a);
    app_free(m->bt);
    app_free(m->c);
    app_free(m);
}

static const struct app_impl impls[] = {
    { "seq", matmul_seq, 0, "sequential: no parallel constructs" },
#ifndef APP_OMP_LLVM
    { "cg", matmul_cg, 1, "coarse grain: one pthread per server, a strip of rows each" },
    { "fil", matmul_fil, 1,
      "Filaments: one RTC filament per inner product, each server creating its strip of rows" },
    { "fil-main", matmul_fil_main, 1, "Filaments, the main thread creating every filament" },
#ifdef HAVE_MPI
    { "mpi-fil", matmul_mpi_fil, APP_PARALLEL | APP_MPI,
      "MPI ranks (mpirun -np R), a strip of rows each, Filaments in each" },
    { "mpi", matmul_mpi, APP_MPI, "MPI ranks, one thread each: a strip of rows, a loop" },
#endif
#ifdef HAVE_OMP
    { "omp", matmul_omp, 1, "OpenMP (libgomp): a task per inner product" },
    { "omp-for", matmul_omp_for, 1, "OpenMP (libgomp): omp for over the rows, static" },
#endif
#ifdef HAVE_TBB
    { "tbb", matmul_tbb, 1, "oneTBB: parallel_for, a task per inner product" },
#endif
#else
    { "omp-llvm", matmul_omp, 1, "OpenMP (LLVM libomp): a task per inner product" },
    { "omp-llvm-for", matmul_omp_for, 1, "OpenMP (LLVM libomp): omp for over the rows, static" },
#endif
    { NULL, NULL, 0, NULL },
};

static const struct app matmul = {
    .name = "matmul",
    .impls = impls,
    .size_min = 1,
    .size_max = 100000,
    .size_default = 600,
    .bytes = bytes,
    .create = create,
    .check = check,
    .result = result,
    .destroy = destroy,
#ifdef HAVE_MPI
    .mpi = &matmul_mpi_driver,
#endif
};

int main(int argc, char **argv)
{
    return app_main(&matmul, argc, argv);
}
