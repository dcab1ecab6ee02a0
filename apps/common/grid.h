/*
 * grid.h - the Laplace problem that Jacobi and red/black SOR share [paper
 * §2.2, §3.2]: a grid of (n + 2) x (n + 2) doubles, row-major, whose
 * boundary rows and columns hold fixed values (1 along the top, 0 along the
 * bottom, i / (n + 1) down the left side, 0.25 on the right; 0 inside), and
 * the rule that ends the iterations: --iters of them, or fewer once the
 * largest change of one falls below --epsilon.
 */
#ifndef GRID_H
#define GRID_H

#include <float.h>

#include "app.h"

/* --iters and --epsilon: the options' values, and their entries for a
 * struct app's option list. */
extern long grid_iters;
extern double grid_epsilon;
#define GRID_OPTIONS                                                                     \
    { "iters", APP_LONG, 1, 1e9, 0, 0, &grid_iters, "the most iterations" },             \
    { "epsilon", APP_DOUBLE, 0, DBL_MAX, 0, 0, &grid_epsilon, "stop once maxdiff < epsilon" }

/* A new grid for n interior points per row, its boundary set. */
double *grid_new(long n);

/* The bytes of `copies` grids for size n, for a struct app's bytes(). */
size_t grid_bytes(long n, size_t copies);

/* Count one more iteration in *k; 1 if that was the last. */
int grid_last_iteration(long *k, long iters, double maxdiff, double epsilon);

/* 1 if the boundary of x is bitwise what grid_new set; else 0, with one
 * line on stderr naming `app`. */
int grid_boundary_intact(const char *app, const double *x, long n);

/* 1 if k iterations ending with maxdiff agree with the stopping rule;
 * else 0, with one line on stderr. */
int grid_iterations_agree(const char *app, long k, long iters, double maxdiff, double epsilon);

#endif /* GRID_H */
