/*
 * grid.c - the Laplace grid of Jacobi and red/black SOR (grid.h).
 */
#include <float.h>
#include <string.h>

#include "grid.h"

long grid_iters = 100;
double grid_epsilon = 0.0;

static int on_boundary(long i, long j, long n)
{
    return i == 0 || j == 0 || i == n + 1 || j == n + 1;
}

static double boundary(long i, long j, long n)
{
    if (i == 0)
        return 1.0;
    if (i == n + 1)
        return 0.0;
    if (j == 0)
        return (double)i / (double)(n + 1);
    return 0.25;
}

double *grid_new(long n)
{
    long w = n + 2;
    double *x = app_alloc((size_t)(w * w), sizeof *x);
    for (long i = 0; i < w; ++i)
        for (long j = 0; j < w; ++j)
            if (on_boundary(i, j, n))
                x[i * w + j] = boundary(i, j, n);
    return x;
}

size_t grid_bytes(long n, size_t copies)
{
    return app_bytes_add(0, copies * (size_t)(n + 2), (size_t)(n + 2) * sizeof(double));
}

int grid_last_iteration(long *k, long iters, double maxdiff, double epsilon)
{
    return ++*k >= iters || maxdiff < epsilon;
}

int grid_boundary_intact(const char *app, const double *x, long n)
{
    long w = n + 2;
    for (long i = 0; i < w; ++i) {
        for (long j = 0; j < w; ++j) {
            double b = boundary(i, j, n);
            if (on_boundary(i, j, n) && memcmp(&x[i * w + j], &b, sizeof b) != 0) {
                fprintf(stderr, "%s: boundary point (%ld, %ld) changed\n", app, i, j);
                return 0;
            }
        }
    }
    return 1;
}

int grid_iterations_agree(const char *app, long k, long iters, double maxdiff, double epsilon)
{
    if (k < 1 || k > iters || (k < iters && !(maxdiff < epsilon))) {
        fprintf(stderr, "%s: %ld iterations with maxdiff %g: iters %ld, epsilon %g\n", app, k,
                maxdiff, iters, epsilon);
        return 0;
    }
    return 1;
}
