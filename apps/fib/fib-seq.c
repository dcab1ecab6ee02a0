/*
 * fib-seq.c - the sequential Fibonacci programs: no parallel constructs
 * [paper §3.4].
 *
 * fib_seq is the plain recursion returning a long, the program a C
 * programmer would write.  fib_seqptr is the same recursion with the
 * results through pointers into the caller's frame, as a filament must
 * return them (f_func): the baseline for --impl=fil, whose only extra cost
 * over it is the fork and the join.  fib_seq_ptr is also fil-seq's
 * sequential version, and fib_seq_value the code below the peers' cutoff.
 *
 * gcc inlines fib_seq_ptr into itself and keeps the inlined results in
 * registers (7 instructions a call at -O2, against 18.5 for fib_seq_value).
 * A runtime calls an unstolen child through the pointer in its descriptor,
 * which no compiler can inline: fib_call_ptr makes that one call the same
 * way, through a pointer the compiler cannot see through, so that
 * --impl=seq-call measures what the fork and the join cost beyond it.
 */
#include "fib.h"

long fib_seq_value(long n)
{
    if (n < 2)
        return n;
    return fib_seq_value(n - 1) + fib_seq_value(n - 2);
}

void fib_seq_ptr(long n, long unused, void *result)
{
    long a, b;
    if (n < 2) {
        *(long *)result = n;
        return;
    }
    fib_seq_ptr(n - 1, 0, &a);
    fib_seq_ptr(n - 2, 0, &b);
    *(long *)result = a + b;
}

static void fib_call_ptr(long n, long unused, void *result)
{
    /* volatile: the compiler must load the pointer, as a join loads fn_. */
    static void (*volatile forked)(long, long, void *) = fib_call_ptr;
    long a, b;
    if (n < 2) {
        *(long *)result = n;
        return;
    }
    forked(n - 1, 0, &a);
    fib_call_ptr(n - 2, 0, &b);
    *(long *)result = a + b;
}

void fib_seq(void *problem, int servers)
{
    struct fib *p = problem;
    p->result = fib_seq_value(p->n);
}

void fib_seqptr(void *problem, int servers)
{
    struct fib *p = problem;
    fib_seq_ptr(p->n, 0, &p->result);
}

void fib_seqcall(void *problem, int servers)
{
    struct fib *p = problem;
    fib_call_ptr(p->n, 0, &p->result);
}
