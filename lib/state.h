/*
 * state.h - the library's state (state.c): the servers, the words that the
 * main thread and the servers share, and which thread the caller is.
 *
 * Who writes what, grouped by the threads that touch each line:
 *  - f_initialize and f_finalize: the state, the servers, the counts;
 *  - the main thread, between runs (servers parked): creation's cursors,
 *    phases, range versions, polls; the run's start publishes them;
 *  - every server, through AO_ operations: the run's and the episode's
 *    words, each on a line of its own.
 * Each mechanism's own words are marked with its file; doc/design.md has
 * the protocols.
 */
#ifndef FI_STATE_H
#define FI_STATE_H

#include "base.h"
#include "server.h"
#include "wait.h"

enum fi_state { FI_UNINIT, FI_READY, FI_RUNNING };

struct fi_phase;

struct fi_lib {
    /* Written by f_initialize and f_finalize only. */
    volatile AO_t state;  /* enum fi_state, read by any thread that calls in */
    int nservers;
    int oversubscribed;   /* more servers than online cores: waits in a run cede */
    int servers_fill_cores; /* no core left for the main thread: waits between runs cede */
    int print_stats;
    struct fi_server *servers;
    struct fi_barrier_node *barrier_nodes;  /* the barrier's tree, level by level (barrier.c) */
    /* The pruning threshold (a long): set by the main thread or by a
     * filament (f_set_prune), read by each server's slow paths (fork.c). */
    volatile AO_t prune;

    /* Main thread only, between runs. */
    unsigned any_next;    /* round-robin cursor for F_ANY placement (rtc.c) */
    /* Per-server creation: set by the main thread before it wakes the
     * servers for it, read by them (create.c). */
    f_create_func create;
    void *create_arg;
    struct fi_phase *phases;  /* phase.c */
    int nphases, phases_cap;
    /* Which filaments of the phases created now may move (F_ADAPT_*:
     * f_set_adaptive, FILAMENTS_ADAPT), whether none may whatever the
     * program says (FILAMENTS_ADAPT=none), and, for tests, whether the
     * strips' ends move every pass (FILAMENTS_TEST_MOVES; phase.c, adapt.c). */
    int adapt, adapt_off, adapt_force;
    int phases_placed;  /* the run's phases whose filaments may move (phase.c) */
    struct fi_range_version { f_func point; f_range_func range; } *ranges;  /* row.c */
    int nranges, ranges_cap;
    /* Outside events, set between runs: the program's poll (f_set_poll) and
     * a library's (f_set_library_poll_), each in a slot of its own, so that
     * neither replaces the other; `poll` is what the servers call, the one
     * that is set or both (scheduler.c). */
    f_poll_func poll;
    void *poll_arg;
    struct fi_poll_slot { f_poll_func poll; void *arg; } poll_program, poll_library;
    void (*poll_library_end)(void *arg);

    /* Set once an F_ANY RTC filament exists in this run: until then idle
     * servers need not look at each other's F_ANY queues (rtc.c). */
    _Alignas(FI_CACHE_LINE) volatile AO_t any_used;
    /* Fixed for a run: its RTC filaments on named servers may move too
     * (F_ADAPT_ALL at f_parallel, 2 servers or more; rtc.c). */
    int rtc_movable;
    /* Fixed for a run: a server waiting at the barrier may trade cores with
     * a late one that is off its own (handoff.c). */
    int handoff;
    /* The run: main -> servers.  `job` is what each server does with it
     * (a run, or per-server creation), published with run_gen (server.c). */
    _Alignas(FI_CACHE_LINE) volatile AO_t run_gen;
    void (*job)(struct fi_server *me);
    volatile AO_t shutdown;
    /* Servers that have had no work yet in the current run, and when it was
     * posted (fi_clock_ns): f_fork_seq's pruning waits for them (fork.c).
     * Each server decrements it once (fi_count_at_work). */
    _Alignas(FI_CACHE_LINE) volatile AO_t unstarted;
    unsigned long run_posted_ns;
    /* A loop's team, main -> servers 1 .. n-1 between runs: `team_job`,
     * published with team_gen, which holds the call's number and the
     * parts of each share (server.c, for loop.c). */
    _Alignas(FI_CACHE_LINE) volatile AO_t team_gen;
    void (*team_job)(struct fi_server *member, unsigned part);
    /* Servers -> main: servers started (f_initialize), and done with a run (server.c). */
    _Alignas(FI_CACHE_LINE) volatile AO_t started;
    volatile AO_t checked_out;
    /* Set when work may have moved between servers in this episode: the
     * barrier then settles it before it ends it (scheduler.c).  Written
     * rarely, by any server, read once per episode. */
    _Alignas(FI_CACHE_LINE) volatile AO_t dynamic;
    /* Cores traded so far (handoff.c): any server, rarely. */
    volatile AO_t handoffs;
    /* handoffs when the last adaptive phase's pass was decided: the
     * deciders, one at a time (phase.c). */
    AO_t handoffs_seen;
    /* The settling stage's termination count: filaments waiting in
     * inboxes, plus the servers still active while it settles; every
     * server (scheduler.c, rtc.c). */
    _Alignas(FI_CACHE_LINE) volatile AO_t busy;
    /* Settling stages ended: the last server to go idle bumps it. */
    _Alignas(FI_CACHE_LINE) volatile AO_t settled;

    /* Sleeping servers, and the main thread asleep in f_parallel or in a
     * loop (wait.c); servers 1 .. n-1 parked between runs sleep in
     * team_wait, where a loop's post wakes them and not server 0. */
    _Alignas(FI_CACHE_LINE) struct fi_waitset servers_wait;
    _Alignas(FI_CACHE_LINE) struct fi_waitset team_wait;
    _Alignas(FI_CACHE_LINE) struct fi_waitset main_wait;
};

extern FI_HIDDEN struct fi_lib fi_lib;

/* The server the calling thread is, or NULL (main and other threads). */
extern FI_HIDDEN __thread struct fi_server *fi_self __attribute__((tls_model("initial-exec")));

static inline int fi_state(void) { return (int)AO_load(&fi_lib.state); }

/* Creation from the main thread between runs, the only place phases and
 * placement change: F_OK, or F_ESTATE. */
static inline int fi_check_main_between_runs(void)
{
    return fi_self == NULL && fi_state() == FI_READY ? F_OK : F_ESTATE;
}

/* F_OK if server is a server's index, else F_EINVAL. */
static inline int fi_servers_check_index(int server)
{
    return server >= 0 && server < fi_lib.nservers ? F_OK : F_EINVAL;
}

/* The server has work in hand for the first time in this run: its own, or
 * taken from another server.  One fewer for f_fork_seq to wait for. */
static inline void fi_count_at_work(struct fi_server *me)
{
    if (!me->at_work) {
        me->at_work = 1;
        AO_fetch_and_sub1(&fi_lib.unstarted);
    }
}

#endif /* FI_STATE_H */
