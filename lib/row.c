/*
 * row.c - range versions, the table of the program's loops over a row
 * (f_set_range_version), and running rows: a pass's (phase.c, adapt.c)
 * and a row from outside a pass (row.h).
 */
#include "row.h"
#include "memory.h"

int f_set_range_version(f_func point, f_range_func range)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    if (point == NULL)
        return F_EINVAL;
    for (int k = 0; k < fi_lib.nranges; ++k) {
        if (fi_lib.ranges[k].point == point) {
            if (range != NULL)
                fi_lib.ranges[k].range = range;
            else
                fi_lib.ranges[k] = fi_lib.ranges[--fi_lib.nranges];
            return F_OK;
        }
    }
    if (range == NULL)
        return F_OK;
    size_t cap = (size_t)fi_lib.ranges_cap;
    if (fi_grow((void **)&fi_lib.ranges, &cap, (size_t)fi_lib.nranges, sizeof *fi_lib.ranges) < 0)
        return F_ENOMEM;
    fi_lib.ranges_cap = (int)cap;
    fi_lib.ranges[fi_lib.nranges++] = (struct fi_range_version){ point, range };
    return F_OK;
}

f_range_func fi_range_of(f_func fn)
{
    for (int k = 0; k < fi_lib.nranges; ++k)
        if (fi_lib.ranges[k].point == fn)
            return fi_lib.ranges[k].range;
    return NULL;
}

/* f_finalize: range versions last until then. */
static void range_versions_free(void)
{
    fi_free(fi_lib.ranges);
    fi_lib.ranges = NULL;
    fi_lib.nranges = fi_lib.ranges_cap = 0;
}

void fi_row_run_forward(f_func fn, long i, long j_first, long j_last, void *arg)
{
    struct fi_row r = { fn, arg, i, j_first, j_last };
    struct fi_range_cache c = { NULL, NULL };
    fi_row_run(&r, &c, 0);
}

/*
 * Runs of one point each, with no range version to look up: a call per run
 * and nothing else, 8 instructions a filament with an empty fn where
 * fi_row_run's loop took 34 (bench/micro --what=iter, callgrind).  Gauss
 * has such phases: a filament per column, each a run of its own.  Not
 * inlined, so that the general loop keeps its registers.
 */
__attribute__((noinline)) void fi_rows_run_points(const struct fi_row *run, size_t n,
                                                  int backward)
{
    const struct fi_row *end = run + n;
    if (!backward)
        for (const struct fi_row *r = run; r != end; ++r)
            r->fn(r->i, r->j_first, r->arg);
    else
        for (const struct fi_row *r = end; r != run;) {
            --r;    /* not r-- in the test: run - 1 is no pointer */
            r->fn(r->i, r->j_first, r->arg);
        }
}

/* Runs of any length; return 1 if one was a call of a range version.  Not
 * inlined, so that a pass of fi_rows_run_points' kind saves no registers. */
__attribute__((noinline)) int fi_rows_run(const struct fi_row *run, size_t n, int backward)
{
    struct fi_range_cache cache = { NULL, NULL };
    int ranged = 0;
    if (!backward)
        for (size_t r = 0; r < n; ++r)
            ranged |= fi_row_run(&run[r], &cache, 0);
    else
        for (size_t r = n; r-- > 0;)
            fi_row_run(&run[r], &cache, 1);
    return ranged;
}

const struct fi_mechanism fi_row_mechanism = { .free = range_versions_free };
