/*
 * matmul-tbb.cc - matrix multiplication with oneTBB, a peer for the
 * benchmarks (doc/benchmarks.md, "Peers"): --impl=tbb.
 *
 * A task per inner product: parallel_for over the n x n range of entries
 * with a grain of one entry and the simple partitioner, so every leaf of
 * TBB's splitting is one matmul_inner(), as --impl=fil has a filament per
 * inner product.  The result is bitwise the sequential program's.
 */
#include <tbb/blocked_range2d.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "app-tbb.h"
#include "matmul.h"

extern "C" void matmul_tbb(void *problem, int servers)
{
    const struct matmul *m = static_cast<const struct matmul *>(problem);
    long n = m->n;
    app_tbb_run(servers, [&] {
        tbb::parallel_for(
            tbb::blocked_range2d<long>(0, n, 1, 0, n, 1),
            [m](const tbb::blocked_range2d<long> &r) {
                for (long i = r.rows().begin(); i < r.rows().end(); ++i)
                    for (long j = r.cols().begin(); j < r.cols().end(); ++j)
                        matmul_inner(m, i, j);
            },
            tbb::simple_partitioner());
    });
}
