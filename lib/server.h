/*
 * server.h - a server [paper §2, §4]: one thread, its queues, and the words
 * of each mechanism that it touches, each on the cache line of the threads
 * that write it (doc/design.md has the protocols); and server.c's threads.
 *
 * Between runs the main thread may write any of it (the servers are
 * parked); during a run, the owner writes all but the lines marked
 * otherwise.
 */
#ifndef FI_SERVER_H
#define FI_SERVER_H

#include <pthread.h>
#include <time.h>

#include "base.h"
#include "queue.h"
#include "deque.h"

/* A lock-protected queue that other servers push into during a run (rtc.c). */
struct fi_inbox {
    f_lock_t lock;        /* pushers and the owner */
    volatile AO_t count;  /* filaments waiting; written under the lock, read as a hint */
    struct fi_queue queue;
};

struct fi_barrier_node;  /* barrier.c */
struct fi_trace_buf;     /* trace.h */

struct fi_server {
    /* Written by the server that releases this one at the barrier: round << 2 |
     * verdict (barrier.c). */
    _Alignas(FI_CACHE_LINE) volatile AO_t barrier_go;
    /* Its share of a loop's team call (server.c): the call's number, the
     * parts it has taken from the front and the main thread from the back,
     * and whether it is done with its own; by CAS, this server and the
     * main thread. */
    _Alignas(FI_CACHE_LINE) volatile AO_t team_share;
    /* Claimed by every server (F_ANY filaments, oldest first; rtc.c); pushed
     * by the owner, or by the main thread between runs. */
    _Alignas(FI_CACHE_LINE) struct fi_queue any;
    /* Pushed into by other servers, under its lock, while a run goes on (rtc.c). */
    _Alignas(FI_CACHE_LINE) struct fi_inbox inbox;
    /* Fork/join filaments (forkjoin.c, steal.c): the owner at the bottom,
     * thieves (atomic) at the top; the main thread between runs. */
    struct fi_deque deque;
    /* Owner only (the main thread between runs). */
    _Alignas(FI_CACHE_LINE) struct fi_queue pinned;   /* rtc.c */
    int index;       /* set by f_initialize */
    int in_barrier;  /* running a phase's sequential code, or its children: no RTC or
                        iterative filament may be created (scheduler.c) */
    int at_work;     /* has had work in this run (fi_lib.unstarted; scheduler.c) */
    int settling;    /* in an episode's settling stage: work is counted in busy (scheduler.c) */
    /* Rounds crossed in the tree (barrier.c; none with one server); read by
     * the waiters that watch for late servers (handoff.c). */
    volatile AO_t barrier_round;
    struct fi_barrier_node *barrier_leaf;  /* where it arrives, in which child slot: */
    unsigned barrier_slot;                 /* set by f_initialize (barrier.c) */
    AO_t settle_no;      /* settling stages ended (scheduler.c) */
    unsigned steal_seed; /* the next victim (rtc.c, steal.c) */
    pthread_t thread;    /* server.c */
    /* The CPU that it alone is bound to, or -1 (server.c); traded for a
     * waiter's, under handoff.c's lock.  The clock of its CPU time, and
     * its thread's status file where the system has one, or -1 (handoff.c). */
    int cpu;
    clockid_t cpu_clock;
    int status_fd;
    struct f_stats stats;  /* plain increments; f_reset_stats between runs (stats.c) */
    /* Its schedule trace's buffer, or NULL: not recording (trace.c sets
     * it between runs; only this server writes the buffer). */
    struct fi_trace_buf *trace;
    /* Main thread, between runs (or the owner in its creator): slots
     * [pack_floor, packed) of pinned's chunk pack_chunk are packed, and no
     * row reaches below pack_floor; SIZE_MAX: that chunk is packed for good (pack.c). */
    struct fi_chunk *pack_chunk;
    size_t packed;
    size_t pack_floor;
    /* Per-server creation (create.c), the owner in its creator: set while
     * the server runs its creator; the call's first error here; where its
     * queues ended before the call. */
    int creating;
    int create_rc;
    struct fi_queue_mark mark_pinned, mark_any;
};

/* server.c, the servers' threads: start them, each calling open(itself, 1)
 * on its thread first and open(itself, 0) last, and wait until all have
 * (F_OK, or F_EINVAL or F_ENOMEM with none left); stop them; have every
 * server do job(server), on its own thread, and return once all have
 * (f_parallel's run, f_create_per_server's creators). */
FI_HIDDEN FI_MUST_CHECK int fi_servers_start(int bind_setting,
                                             void (*open)(struct fi_server *me, int open));
FI_HIDDEN void fi_servers_stop(void);
FI_HIDDEN void fi_servers_each(void (*job)(struct fi_server *me));
/* A loop's team (loop.c), from the main thread between runs, 2 servers or
 * more: post offers each of servers 1 .. n-1 its share, `parts` calls
 * job(server, part) (part 0 .. parts - 1, 1 to FI_TEAM_PARTS), which the
 * server runs from part 0 up on its own thread, while the caller does
 * server 0's share itself; join then runs, on the caller's thread, the
 * parts of each share that its server has not taken, from the last down,
 * and returns once the servers' are done.  No other job may be posted in
 * between. */
enum { FI_TEAM_PARTS = 255 };
FI_HIDDEN void fi_servers_team_post(void (*job)(struct fi_server *member, unsigned part),
                                    unsigned parts);
FI_HIDDEN void fi_servers_team_join(void);

#endif /* FI_SERVER_H */
