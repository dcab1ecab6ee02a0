/*
 * row.h - rows: the points j_first .. j_last of fn(i, j, arg), stored once
 * and run as one loop, by fn's range version where the program named one
 * (beyond the paper: the loop that §3.2's compiler could not see across
 * filaments).
 *
 * Below the two kinds that store rows: the runs of iterative filaments
 * (phase.c) and the packed rows of RTC filaments (pack.c).  Neither calls
 * the other: both call down to here.  Range versions are named by the main
 * thread between runs and read-only during a run (row.c).
 */
#ifndef FI_ROW_H
#define FI_ROW_H

#include <limits.h>

#include "state.h"

/* A row: j_last inclusive, so that a row may end at LONG_MAX.  The inline
 * f_iterative_thread in filaments.h extends the last run of a server
 * through struct f_run_, the same layout. */
struct fi_row {
    f_func fn;
    void *arg;
    long i;
    long j_first;
    long j_last;
};
_Static_assert(sizeof(struct fi_row) == sizeof(struct f_run_) &&
                   offsetof(struct fi_row, j_last) == offsetof(struct f_run_, j_last_),
               "fi_row is f_run_");

/* row.c */
FI_HIDDEN f_range_func fi_range_of(f_func fn);    /* NULL: none named */
/* Run a row forward, as fi_row_run does: the packed rows of RTC filaments. */
FI_HIDDEN void fi_row_run_forward(f_func fn, long i, long j_first, long j_last, void *arg);

/* Has the program named any range version? */
static inline int fi_range_versions_named(void)
{
    return fi_lib.nranges > 0;
}

/* The points of row r (1 at least; unsigned, so that a row may span the
 * whole range of long). */
static inline unsigned long fi_row_points(const struct fi_row *r)
{
    return (unsigned long)r->j_last - (unsigned long)r->j_first + 1;
}

/* The last fn looked up and its range version, across the rows of a pass. */
struct fi_range_cache {
    f_func fn;
    f_range_func range;
};

/* fn's range version, NULL if none, through the cache. */
static inline f_range_func fi_range_cached(struct fi_range_cache *c, f_func fn)
{
    if (fn != c->fn) {
        c->fn = fn;
        c->range = fi_range_of(fn);
    }
    return c->range;
}

/*
 * Call fn for the points of a row one by one, in the pass's order: j
 * increasing on a forward pass, decreasing on a backward one [paper §4.4].
 * A backward pass then streams through a grid backward as a forward pass
 * does forward, and the hardware prefetcher follows both; with j increasing
 * on backward passes too, every row began a new stream (Jacobi n=1024
 * without a range version: 8% slower).  Four calls per loop step, as
 * fi_run_descs runs RTC filaments: the loop's own branch and compare then
 * cost a quarter per point.  j moves in unsigned arithmetic, and `more`
 * counts the points after the first: a row may span the whole range of long.
 */
static inline void fi_walk_points(f_func fn, long i, unsigned long j, unsigned long step,
                                  unsigned long more, void *arg)
{
    for (; more >= 4; more -= 4, j += 4 * step) {
        fn(i, (long)j, arg);
        fn(i, (long)(j + step), arg);
        fn(i, (long)(j + 2 * step), arg);
        fn(i, (long)(j + 3 * step), arg);
    }
    for (;; j += step) {
        fn(i, (long)j, arg);
        if (more-- == 0)
            break;
    }
}

/* Run row r; return 1 if that was a call of its range version (which walks
 * j up whatever the pass's direction). */
static inline int fi_row_run(const struct fi_row *r, struct fi_range_cache *c, int backward)
{
    if (fi_range_cached(c, r->fn) != NULL && r->j_last != LONG_MAX) {
        c->range(r->i, r->j_first, r->j_last + 1, r->arg);
        return 1;
    }
    /* Locals: the calls could change *r for all the compiler knows. */
    unsigned long more = (unsigned long)r->j_last - (unsigned long)r->j_first;
    if (backward)
        fi_walk_points(r->fn, r->i, (unsigned long)r->j_last, (unsigned long)-1, more, r->arg);
    else
        fi_walk_points(r->fn, r->i, (unsigned long)r->j_first, 1, more, r->arg);
    return 0;
}

/* Run rows run[0 .. n-1] of a pass, the first to the last or (backward) the
 * last to the first: rows of any length (1 if it called a range version),
 * or rows of one point each where no range version is named (row.c). */
FI_HIDDEN int fi_rows_run(const struct fi_row *run, size_t n, int backward);
FI_HIDDEN void fi_rows_run_points(const struct fi_row *run, size_t n, int backward);

FI_HIDDEN extern const struct fi_mechanism fi_row_mechanism;

#endif /* FI_ROW_H */
