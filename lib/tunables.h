/*
 * tunables.h - compile-time defaults.  Each may be set with -D, e.g.
 * ./configure CPPFLAGS=-DFI_RUN_YIELD_NS=500000.
 */
#ifndef FI_TUNABLES_H
#define FI_TUNABLES_H

/* Descriptors in the first chunk of a queue; each further chunk doubles,
 * up to FI_CHUNK_MAX: a chunk of 32-byte descriptors and its 32-byte header
 * then fill one 2 MiB huge page, and a queue's unused tail stays under one
 * chunk (a million filaments hold 34 bytes each, not up to 64). */
#ifndef FI_CHUNK_MIN
#define FI_CHUNK_MIN 256
#endif
#ifndef FI_CHUNK_MAX
#define FI_CHUNK_MAX 65535
#endif
_Static_assert(FI_CHUNK_MIN >= 1 && FI_CHUNK_MAX >= FI_CHUNK_MIN, "FI_CHUNK_MIN, FI_CHUNK_MAX");

/* Waiting: polls with a pause (4000: about 100 us on a 2-core EPYC VM),
 * then yields at least FI_YIELD_POLLS times and for a while, then sleeps
 * (wait.c).  Servers parked between runs, and the main thread in
 * f_parallel, yield for FI_PARK_YIELD_NS; a server waiting inside a run -
 * at a barrier, or idle for work - for FI_RUN_YIELD_NS, long enough to
 * outlast a late arrival (wait.c). */
#ifndef FI_SPIN_POLLS
#define FI_SPIN_POLLS 4000
#endif
#ifndef FI_YIELD_POLLS
#define FI_YIELD_POLLS 200
#endif
#ifndef FI_PARK_YIELD_NS
#define FI_PARK_YIELD_NS 100000UL
#endif
#ifndef FI_RUN_YIELD_NS
#define FI_RUN_YIELD_NS 2000000UL
#endif
_Static_assert(FI_SPIN_POLLS >= 0 && FI_YIELD_POLLS >= 1, "FI_SPIN_POLLS, FI_YIELD_POLLS");

/* The barrier's tree: children per node (barrier.c).  A node's count, four
 * slots and its shape fit one cache line, at most four servers contend for
 * it, and a 16-server tree is two levels deep. */
#ifndef FI_BARRIER_FANIN
#define FI_BARRIER_FANIN 4
#endif
_Static_assert(FI_BARRIER_FANIN >= 2, "FI_BARRIER_FANIN");

/* F_ANY filaments an owner claims from its own queue at once. */
#ifndef FI_CLAIM_BATCH
#define FI_CLAIM_BATCH 8
#endif
_Static_assert(FI_CLAIM_BATCH >= 1, "FI_CLAIM_BATCH");

/* Fork/join slots per server (64 bytes each, touched as used), unless
 * FILAMENTS_DEQUE says otherwise; a fork that finds the deque full runs
 * its child as a call (fork.c). */
#ifndef FI_DEQUE_SLOTS
#define FI_DEQUE_SLOTS (1UL << 16)
#endif
_Static_assert(FI_DEQUE_SLOTS >= 2 && FI_DEQUE_SLOTS < (1UL << 31), "FI_DEQUE_SLOTS");

/* Values of typed forks pruned in a full deque that a server keeps aside
 * with no allocation (fork.c, keep_value): as many as a Fibonacci-like
 * recursion that fills the deque ever holds; a loop that forks more
 * typed children in a full deque than this grows the room. */
#ifndef FI_PRUNED_VALUES
#define FI_PRUNED_VALUES 256
#endif
_Static_assert(FI_PRUNED_VALUES >= 1, "FI_PRUNED_VALUES");

/* F_PRUNE_AUTO: unclaimed children a server holds before it prunes, at the
 * start of a run; doubled at each request for work that comes within
 * FI_PRUNE_QUICK_NS of the last one (up to the deque's capacity) while one
 * in FI_PRUNE_BIG_SHARE or more of the pieces thieves took from the server
 * ran FI_PRUNE_WORTH_NS or longer; else halved, and at each request that
 * comes more than FI_PRUNE_SLOW_NS after the last (publish.c, adapt_depth).
 * A request and its answer cost the two servers about a microsecond, a
 * steal from the public part a fraction of one: a thief that comes back
 * within 50 us found pieces too small to pay for many round trips, and a
 * piece that lasts 10 us pays for ten steals. */
#ifndef FI_PRUNE_DEPTH
#define FI_PRUNE_DEPTH 3
#endif
#ifndef FI_PRUNE_QUICK_NS
#define FI_PRUNE_QUICK_NS 50000UL
#endif
#ifndef FI_PRUNE_SLOW_NS
#define FI_PRUNE_SLOW_NS (8 * FI_PRUNE_QUICK_NS)
#endif
#ifndef FI_PRUNE_WORTH_NS
#define FI_PRUNE_WORTH_NS 10000UL
#endif
#ifndef FI_PRUNE_BIG_SHARE
#define FI_PRUNE_BIG_SHARE 64
#endif
_Static_assert(FI_PRUNE_DEPTH >= 1 && FI_PRUNE_SLOW_NS >= FI_PRUNE_QUICK_NS && FI_PRUNE_BIG_SHARE >= 1,
               "FI_PRUNE_DEPTH");

/* F_PRUNE_AUTO, f_fork_seq: the longest a run waits for every server to
 * have work before it prunes to sequential versions (fork.c). */
#ifndef FI_START_WAIT_NS
#define FI_START_WAIT_NS 500000UL
#endif

/* Spans each track of a schedule trace holds (56 bytes each, in pages
 * touched as they fill), unless FILAMENTS_TRACE_EVENTS says otherwise: an
 * iterative run records about three per pass and server, so 65536 hold
 * some 20 000 passes; a full track drops the rest and counts them
 * (trace.c).  The most that the variable may ask for: 2^24 (896 MiB). */
#ifndef FI_TRACE_EVENTS
#define FI_TRACE_EVENTS 65536
#endif
#define FI_TRACE_EVENTS_MAX (1L << 24)
_Static_assert(FI_TRACE_EVENTS >= 1 && FI_TRACE_EVENTS <= FI_TRACE_EVENTS_MAX, "FI_TRACE_EVENTS");

/* Adaptive placement of iterative filaments (adapt.c).  An owner claims
 * its strip's runs about FI_ADAPT_CLAIM_NS of work at a time, so that a
 * server taken off its core holds back little of a pass; the strips' ends
 * follow the filaments each server ran, smoothed over passes (each pass
 * moves the estimate 1/FI_ADAPT_SMOOTHING of the way), and move only when
 * the change exceeds 1/FI_ADAPT_HYSTERESIS of a server's even share. */
#ifndef FI_ADAPT_CLAIM_NS
#define FI_ADAPT_CLAIM_NS 20000UL
#endif
#ifndef FI_ADAPT_SMOOTHING
#define FI_ADAPT_SMOOTHING 4
#endif
#ifndef FI_ADAPT_HYSTERESIS
#define FI_ADAPT_HYSTERESIS 16
#endif
_Static_assert(FI_ADAPT_CLAIM_NS >= 1 && FI_ADAPT_SMOOTHING >= 1 && FI_ADAPT_HYSTERESIS >= 1,
               "FI_ADAPT_CLAIM_NS, FI_ADAPT_SMOOTHING, FI_ADAPT_HYSTERESIS");

/* Handing a core to a late server (handoff.c): a waiter at the barrier
 * that has waited FI_HANDOFF_NS watches a server that has not arrived for
 * FI_HANDOFF_NS more, and trades
 * cores with it if its CPU time grew by less than 1/FI_HANDOFF_SHARE of
 * that.  A claim of a pass lasts about FI_ADAPT_CLAIM_NS, so a server on
 * its core shows most of the time as CPU time. */
#ifndef FI_HANDOFF_NS
#define FI_HANDOFF_NS 20000UL
#endif
#ifndef FI_HANDOFF_SHARE
#define FI_HANDOFF_SHARE 8
#endif
_Static_assert(FI_HANDOFF_NS >= 1 && FI_HANDOFF_SHARE >= 1, "FI_HANDOFF_NS, FI_HANDOFF_SHARE");

/* The most servers f_initialize accepts. */
#ifndef FI_MAX_SERVERS
#define FI_MAX_SERVERS 1024
#endif

/* Server thread stacks: deep enough for helper-join recursion (f_fork(3)). */
#ifndef FI_STACK_BYTES
#define FI_STACK_BYTES (64UL << 20)
#endif

#endif /* FI_TUNABLES_H */
