/*
 * fib-tbb.cc - Fibonacci with oneTBB, a peer for the benchmarks
 * (doc/benchmarks.md, "Peers"): --impl=tbb.
 *
 * The TBB idiom: tbb::task_group runs fib(n - 1) as a task while the
 * caller computes fib(n - 2), then waits; down to the same depth cutoff as
 * the OpenMP peer (app_peer_depth), with the sequential code of fib-seq.c
 * below it.  A task_arena of `servers` threads, allowed by a global_control,
 * runs it; both are made and destroyed inside the timed run, as the
 * Filaments programs start and end their servers.
 */
#include <tbb/task_group.h>

#include "app-tbb.h"
#include "fib.h"

static long fib_cut(long n, int depth, int cutoff)
{
    if (n < 2)
        return n;
    if (depth >= cutoff)
        return fib_seq_value(n);
    long a, b;
    tbb::task_group g;
    g.run([&] { a = fib_cut(n - 1, depth + 1, cutoff); });
    b = fib_cut(n - 2, depth + 1, cutoff);
    g.wait();
    return a + b;
}

extern "C" void fib_tbb(void *problem, int servers)
{
    struct fib *p = static_cast<struct fib *>(problem);
    int cutoff = app_peer_depth(FIB_PEER_LEVELS, servers);
    app_tbb_run(servers, [&] { p->result = fib_cut(p->n, 0, cutoff); });
}
