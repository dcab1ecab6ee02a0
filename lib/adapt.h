/*
 * adapt.h - adaptive placement of iterative filaments (adapt.c): a phase's
 * runs on one line, each server's strip a stretch of it, claimed from both
 * ends within a pass, its ends moved between passes.
 *
 * Who writes what: phase.c makes a placement between runs (fi_adapt_new,
 * then run[] and bound[], then fi_adapt_ready).  During a run each
 * server's claim word is written by CAS, by its owner and by servers that
 * take from it; each server's pass record by that server before it
 * arrives at the barrier; bound[], share[], grain and passes by the
 * decider alone, between passes (fi_adapt_passed), and the barrier's
 * release publishes them.
 */
#ifndef FI_ADAPT_H
#define FI_ADAPT_H

#include "row.h"
#include "trace.h"

/* A server's claim word: the pass, and its strip's runs not yet claimed
 * (adapt.c).  A line of its own: idle servers write it. */
struct fi_adapt_claim {
    _Alignas(FI_CACHE_LINE) volatile AO_t word;
};

/* What a server's last pass did. */
struct fi_adapt_pass {
    _Alignas(FI_CACHE_LINE) unsigned long ran;  /* filaments, its own and taken */
    unsigned long busy_ns;                      /* from its start to its last filament */
};

struct fi_adapt {
    struct fi_row *run;     /* every server's runs, server 0's first */
    unsigned long *before;  /* before[k]: the filaments of run[0 .. k) */
    size_t n;
    size_t *bound;          /* server s's strip: run[bound[s] .. bound[s + 1]) */
    double *share;          /* the filaments of a pass each server is worth, smoothed */
    struct fi_adapt_claim *claim;
    struct fi_adapt_pass *pass;
    unsigned long passes;   /* the passes over the phase so far in this run */
    unsigned long grain;    /* the filaments an owner claims at a time */
    int nservers;
    int points_only;        /* runs of one point each, no range version named */
    int ranged;             /* a run has a range version: every pass goes forward */
};

/* A placement for `runs` runs, or NULL (more runs than a claim word holds,
 * or no memory): the caller fills run[] and bound[], then calls
 * fi_adapt_ready. */
FI_HIDDEN struct fi_adapt *fi_adapt_new(size_t runs, int nservers);
FI_HIDDEN void fi_adapt_ready(struct fi_adapt *a);
FI_HIDDEN void fi_adapt_free(struct fi_adapt *a);

/* Server me's pass: its strip, then what it can take from the others;
 * return the filaments it ran. */
FI_HIDDEN unsigned long fi_adapt_pass(struct fi_adapt *a, int me, struct fi_trace_buf *trace);
/* The next pass's direction, and the filaments of server me's strip. */
FI_HIDDEN void fi_adapt_shape(const struct fi_adapt *a, int me, int *backward,
                              unsigned long *filaments);
/* The decider, every server arrived: place the next pass (phase: for the
 * trace; force: move the ends whatever the passes did, for tests; traded:
 * servers traded cores during the pass, which then moves nothing). */
FI_HIDDEN void fi_adapt_passed(struct fi_adapt *a, int phase, int force, int traded,
                               struct fi_trace_buf *trace);

#endif /* FI_ADAPT_H */
