/*
 * taskpool.h - Korch and Rauber's synthetic algorithm [Korch §7.2]: one
 * task type A,
 *
 *     A(i) -> {100f}                                for i <= 0,
 *     A(i) -> {10f} A(i-2) {50f} A(i-1) {100f}      for i > 0,
 *
 * started with k initial tasks A(k-1) .. A(0).  {u} is u units of
 * simulated work; A(i-2) and A(i-1) are new tasks, created where they
 * stand.  The number of tasks grows as the Fibonacci numbers; Korch and
 * Rauber's Table 4 gives it for some k (taskpool-common.c checks it).
 *
 * A unit of work is one step of a 64-bit linear congruential generator
 * (Knuth's MMIX constants): a multiply and an add that depend on the step
 * before, about 4 cycles, which no compiler can shorten or drop (GCC and
 * clang also see an empty asm that takes the value in a register).  A task
 * threads one such value through its three pieces of work, starting from a
 * value derived from i; its result is the value it ends with, and the run's
 * result is the sum of every task's result modulo 2^64: the same in any
 * order of execution, so every program must produce it bitwise.
 */
#ifndef TASKPOOL_H
#define TASKPOOL_H

#include <stdint.h>

struct taskpool {
    long k, f;
    uint64_t result[2];  /* what the run found: tasks, work (the sum of the tasks' results) */
};

/* What a task and everything it created did. */
struct taskpool_count {
    uint64_t tasks;
    uint64_t work;
};

/* `units` units of work on x. */
static inline uint64_t taskpool_work(uint64_t x, long units)
{
    for (long u = 0; u < units; ++u) {
        x = x * 6364136223846793005u + 1442695040888963407u;
#if defined(__GNUC__)
        __asm__("" : "+r"(x));
#endif
    }
    return x;
}

/* The first piece of A(i)'s work: {100f} for i <= 0 (the whole task), else {10f}. */
static inline uint64_t taskpool_first(long i, long f)
{
    uint64_t x = (uint64_t)(i + 2) * 0x9e3779b97f4a7c15u;
    return taskpool_work(x, i <= 0 ? 100 * f : 10 * f);
}

/* The piece between forking A(i-2) and A(i-1), and the last piece. */
static inline uint64_t taskpool_middle(uint64_t x, long f)
{
    return taskpool_work(x, 50 * f);
}

static inline uint64_t taskpool_last(uint64_t x, long f)
{
    return taskpool_work(x, 100 * f);
}

/* The programs: run(problem, servers), as struct app_impl wants. */
void taskpool_seq(void *problem, int servers);
void taskpool_cg(void *problem, int servers);
void taskpool_fil(void *problem, int servers);
void taskpool_fil_typed(void *problem, int servers);

#endif /* TASKPOOL_H */
