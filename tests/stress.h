/*
 * stress.h - randomized programs that mix the three kinds of filaments,
 * each checked against a sequential evaluation of the same program
 * (tests/stress.c).  Used by the Check suite "stress" (a bounded set of
 * seeds) and by tests/soak (seeds until a duration elapses: make soak).
 */
#ifndef STRESS_H
#define STRESS_H

#include <stddef.h>

/* The server count the program of `seed` runs at: 1 .. 8. */
int stress_servers(unsigned long seed);

/* Build the program of `seed`, run it with the library (f_initialize ..
 * f_finalize inside) and compare every result with the sequential
 * evaluation.  0 if all agree; otherwise -1 and one line in why[len]. */
int stress_run(unsigned long seed, char *why, size_t len);

#endif /* STRESS_H */
