/*
 * fib.h - Fibonacci numbers by the doubly recursive definition, the finest
 * grain of fork/join [paper §3.4]: each call fib(n) with n >= 2 forks
 * fib(n - 1), calls fib(n - 2) and joins, and does nothing else.
 *
 * Every program computes the same integer, so the results are trivially
 * identical; what the programs differ in is the cost of a fork and a join
 * against a call, and how much of it pruning saves.  Below the cutoffs of
 * the peers (OpenMP, oneTBB) and in the pruned subtrees of fil-seq, the
 * sequential code is the one of fib-seq.c, compiled once.
 *
 * Included by the C++ peer (fib-tbb.cc), hence the extern "C".
 */
#ifndef FIB_H
#define FIB_H

#include "app-stats.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fib {
    long n;
    long result;
    struct app_stats stats;  /* Filaments programs: the library's counters over the run */
};

/* fib-seq.c: the sequential code, returning the value, and with the
 * result through a pointer (the signature of a filament, f_func). */
long fib_seq_value(long n);
void fib_seq_ptr(long n, long unused, void *result);

/* The peers' task cutoff: calls at recursion depth >=
 * app_peer_depth(FIB_PEER_LEVELS, servers) run fib_seq_value() instead of
 * making tasks. */
#define FIB_PEER_LEVELS 8

/* The programs: run(problem, servers), as struct app_impl wants. */
void fib_seq(void *problem, int servers);
void fib_seqptr(void *problem, int servers);
void fib_seqcall(void *problem, int servers);
void fib_fil(void *problem, int servers);
void fib_fil_auto(void *problem, int servers);
void fib_fil_seq(void *problem, int servers);
void fib_fil_typed(void *problem, int servers);
void fib_fil_typed_auto(void *problem, int servers);
void fib_omp(void *problem, int servers);       /* fib-omp.c: libgomp, or libomp in fib-llvm */
void fib_omp_fine(void *problem, int servers);
void fib_tbb(void *problem, int servers);       /* fib-tbb.cc */

#ifdef __cplusplus
}
#endif
#endif /* FIB_H */
