/*
 * matmul.h - matrix multiplication, c = a * b [paper §2.1, §3.1].
 *
 * b is stored transposed (bt), so each inner product walks two rows.  All
 * programs compute every entry with matmul_inner(), the same loop in the
 * same order, so their results are bitwise identical.
 *
 * Included by the C++ peer (matmul-tbb.cc), hence the extern "C".
 */
#ifndef MATMUL_H
#define MATMUL_H

#ifdef __cplusplus
extern "C" {
#endif

struct matmul {
    long n;
    double *a;   /* n x n, row-major */
    double *bt;  /* b transposed: bt[j * n + k] = b[k][j] */
    double *c;   /* the result */
};

/* The inner product of two rows of n doubles, summed from k = 0 up. */
static inline double matmul_dot(const double *a, const double *b, long n)
{
    double sum = 0.0;
    for (long k = 0; k < n; ++k)
        sum += a[k] * b[k];
    return sum;
}

/* c[i][j] = a[i][*] . b[*][j] */
static inline void matmul_inner(const struct matmul *m, long i, long j)
{
    long n = m->n;
    m->c[i * n + j] = matmul_dot(m->a + i * n, m->bt + j * n, n);
}

/* Rows [first, end) of c, one entry after another: the sequential program,
 * and a coarse-grain thread's or MPI rank's strip. */
static inline void matmul_rows(const struct matmul *m, long first, long end)
{
    for (long i = first; i < end; ++i)
        for (long j = 0; j < m->n; ++j)
            matmul_inner(m, i, j);
}

/* matmul-fil.c: rows [first, end) of c by Filaments, one RTC filament per
 * inner product, on `servers` servers started and ended here. */
void matmul_fil_rows(struct matmul *m, int servers, long first, long end);

/* The programs: run(problem, servers), as struct app_impl wants. */
void matmul_seq(void *problem, int servers);
void matmul_cg(void *problem, int servers);
void matmul_fil(void *problem, int servers);
void matmul_fil_main(void *problem, int servers);
void matmul_omp(void *problem, int servers);     /* matmul-omp.c: libgomp, or libomp in -llvm */
void matmul_omp_for(void *problem, int servers);
void matmul_tbb(void *problem, int servers);     /* matmul-tbb.cc */
/* matmul-mpi.c, where configure found MPI: mpirun starts one process per rank. */
void matmul_mpi_fil(void *problem, int servers);
void matmul_mpi(void *problem, int servers);
struct app_mpi;
extern const struct app_mpi matmul_mpi_driver;

#ifdef __cplusplus
}
#endif

#endif /* MATMUL_H */
