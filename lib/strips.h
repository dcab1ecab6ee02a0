/*
 * strips.h - adaptive strips of a parallel loop (strips.c): each server's
 * strip of a main-thread loop claimed in chunks, the chunks of a late
 * server's strip taken by the others, and the strips' ends moved between
 * calls of the same loop toward what each server ran.
 *
 * Who writes what: the main thread, between calls, the loops' placements
 * (fi_strips_begin, fi_strips_end), published to the team with team_gen
 * (server.c); during a call each strip's claim word by CAS, by any
 * server; each server's count of what it ran, by that server, read by the
 * main thread after the team's check-out.
 */
#ifndef FI_STRIPS_H
#define FI_STRIPS_H

#include "base.h"

/* Where the k-th of p even parts of n things begins: floor(k*n/p), without
 * overflow for any n (k <= p).  A loop's strips (loop.c, strips.c) and
 * the parts of a strip (loop.c) are cut so, the same on every call. */
static inline unsigned long fi_even_cut(unsigned long n, unsigned long k, unsigned long p)
{
    return n / p * k + n % p * k / p;
}

/* Is adaptive placement on for loops (F_ADAPT_ALL, and not
 * FILAMENTS_ADAPT=none), with 2 servers or more? */
FI_HIDDEN int fi_strips_adaptive(void);

/* The main thread, before it posts a call of body over [begin, begin + n):
 * the loop's strips, remembered from its last call, or even ones. */
FI_HIDDEN void fi_strips_begin(f_loop_func body, long begin, unsigned long n);
/* Server me's share of that call: the chunks of its own strip, then what
 * is left of the others'. */
FI_HIDDEN void fi_strips_run(int me, f_loop_func body, void *arg);
/* The main thread, once the call is over: move the strips' ends. */
FI_HIDDEN void fi_strips_end(void);

FI_HIDDEN extern const struct fi_mechanism fi_strips_mechanism;

#endif /* FI_STRIPS_H */
