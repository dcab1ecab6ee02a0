/*
 * internal.h - the types that several mechanisms share: the filament
 * descriptor, the server, the library's state.  Nothing here is public.
 *
 * Ownership, in one place (doc/design.md has the protocols):
 *  - main thread: everything while no f_parallel runs (servers are parked);
 *  - a server: its own pinned queue, its arena, its statistics, its pass
 *    cursors; other servers only claim from its F_ANY queue and push into
 *    its inbox under the inbox lock;
 *  - the episode (barrier) words: every server, through AO_ operations.
 */
#ifndef FI_INTERNAL_H
#define FI_INTERNAL_H

#ifdef HAVE_CONFIG_H
#include "config.h"  /* FI_CACHE_LINE, FI_TSAN, FI_DEBUG */
#endif

#include <pthread.h>
#include <stddef.h>

#include "filaments.h"
#include "atomic.h"
#include "tunables.h"

#define FI_HIDDEN __attribute__((visibility("hidden")))
#define FI_MUST_CHECK __attribute__((warn_unused_result))

#ifdef NDEBUG
#define FI_ASSERT(x) ((void)0)
#else
#include <assert.h>
#define FI_ASSERT(x) assert(x)
#endif

/* A filament [paper §4.1]: code and arguments, 32 bytes, no link, no stack.
 * The same layout as filaments.h's struct f_desc_, which the inline
 * creation path writes. */
struct fi_desc {
    f_func fn;
    long i;
    long j;
    void *arg;
};
_Static_assert(sizeof(struct fi_desc) == 4 * sizeof(void *), "fi_desc is four words");
_Static_assert(sizeof(struct fi_desc) == sizeof(struct f_desc_) &&
                   offsetof(struct fi_desc, arg) == offsetof(struct f_desc_, arg_),
               "fi_desc is f_desc_");

#include "queue.h"
#include "deque.h"

/* A lock-protected queue that other servers push into during a run. */
struct fi_inbox {
    f_lock_t lock;        /* pushers and the owner */
    volatile AO_t count;  /* filaments waiting; written under the lock, read as a hint */
    struct fi_queue queue;
};

struct fi_barrier_node;  /* barrier.c */

struct fi_server {
    /* Written by the server that releases this one at the barrier: round << 2 |
     * verdict (barrier.c). */
    _Alignas(FI_CACHE_LINE) volatile AO_t barrier_go;
    /* Claimed by every server (F_ANY filaments, oldest first). */
    _Alignas(FI_CACHE_LINE) struct fi_queue any;
    /* Pushed into by other servers while a run goes on. */
    _Alignas(FI_CACHE_LINE) struct fi_inbox inbox;
    /* Fork/join filaments: owner at the bottom, thieves at the top. */
    struct fi_deque deque;
    /* Owner only. */
    _Alignas(FI_CACHE_LINE) struct fi_queue pinned;
    int index;
    int in_barrier;  /* running a phase's sequential code, or its children: no RTC or
                        iterative filament may be created */
    int at_work;     /* has had work in this run (fi_lib.unstarted) */
    int settling;    /* in an episode's settling stage: work is counted in busy */
    AO_t barrier_round;  /* rounds crossed in the tree (barrier.c; none with one server) */
    struct fi_barrier_node *barrier_leaf;  /* where it arrives, in which child slot: */
    unsigned barrier_slot;                 /* set by f_initialize (barrier.c) */
    AO_t settle_no;      /* settling stages ended (scheduler.c) */
    unsigned steal_seed;
    pthread_t thread;
    struct f_stats stats;
    /* Main thread, between runs (or the owner in its creator): slots
     * [pack_floor, packed) of pinned's chunk pack_chunk are packed, and no
     * row reaches below pack_floor; SIZE_MAX: that chunk is packed for good (rtc.c). */
    struct fi_chunk *pack_chunk;
    size_t packed;
    size_t pack_floor;
    /* Per-server creation (create.c): set while the server runs its creator;
     * the call's first error here; where its queues ended before the call. */
    int creating;
    int create_rc;
    struct fi_queue_mark mark_pinned, mark_any;
};

/* What an episode is [paper §4.4]. */
enum fi_episode_kind {
    FI_EPISODE_ONCE,  /* RTC and fork/join filaments: once each */
    FI_EPISODE_PASS,  /* one pass over an iterative phase */
    FI_EPISODE_DONE   /* the run is over */
};

struct fi_episode {
    enum fi_episode_kind kind;
    int phase;
};

enum fi_state { FI_UNINIT, FI_READY, FI_RUNNING };

struct fi_phase;
struct fi_waitset {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    volatile AO_t sleepers;  /* threads in (or entering) cond_wait */
};

struct fi_lib {
    /* Written by f_initialize and f_finalize only. */
    volatile AO_t state;  /* enum fi_state, read by any thread that calls in */
    int nservers;
    int oversubscribed;   /* more servers than online cores: waits in a run cede */
    int servers_fill_cores; /* no core left for the main thread: waits between runs cede */
    int print_stats;
    struct fi_server *servers;
    struct fi_barrier_node *barrier_nodes;  /* the barrier's tree, level by level */
    /* The pruning threshold (a long): set by the main thread or by a
     * filament (f_set_prune), read by each server's slow paths. */
    volatile AO_t prune;

    /* Main thread only, between runs. */
    unsigned any_next;    /* round-robin cursor for F_ANY placement */
    /* Per-server creation: set by the main thread before it wakes the
     * servers for it, read by them (create.c). */
    f_create_func create;
    void *create_arg;
    struct fi_phase *phases;
    int nphases, phases_cap;
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
     * servers need not look at each other's F_ANY queues. */
    _Alignas(FI_CACHE_LINE) volatile AO_t any_used;
    /* The run: main -> servers.  `job` is what each server does with it
     * (a run, or per-server creation), published with run_gen. */
    _Alignas(FI_CACHE_LINE) volatile AO_t run_gen;
    void (*job)(struct fi_server *me);
    volatile AO_t shutdown;
    /* Servers that have had no work yet in the current run, and when it was
     * posted (fi_clock_ns): f_fork_seq's pruning waits for them (forkjoin.c). */
    _Alignas(FI_CACHE_LINE) volatile AO_t unstarted;
    unsigned long run_posted_ns;
    /* Servers -> main: servers started (f_initialize), and done with a run. */
    _Alignas(FI_CACHE_LINE) volatile AO_t started;
    volatile AO_t checked_out;
    /* Set when work may have moved between servers in this episode: the
     * barrier then settles it before it ends it (scheduler.c).  Written
     * rarely, read once per episode. */
    _Alignas(FI_CACHE_LINE) volatile AO_t dynamic;
    /* The settling stage's termination count: filaments waiting in
     * inboxes, plus the servers still active while it settles (scheduler.c). */
    _Alignas(FI_CACHE_LINE) volatile AO_t busy;
    /* Settling stages ended: the last server to go idle bumps it. */
    _Alignas(FI_CACHE_LINE) volatile AO_t settled;

    /* Sleeping servers, and the main thread asleep in f_parallel. */
    _Alignas(FI_CACHE_LINE) struct fi_waitset servers_wait;
    _Alignas(FI_CACHE_LINE) struct fi_waitset main_wait;
};

extern FI_HIDDEN struct fi_lib fi_lib;

/* Has the server filaments of its own waiting: RTC (pinned, F_ANY, inbox)
 * or fork/join?  Loads only, so that a barrier episode, where the answer is
 * usually no, skips the drains' calls and loops. */
static inline int fi_has_queued_work(const struct fi_server *me)
{
    return !fi_queue_empty_now(&me->pinned) || !fi_queue_empty_now(&me->any) ||
           AO_load(&me->inbox.count) != 0 || fi_deque_holds_work(&me->deque);
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

/* The server the calling thread is, or NULL (main and other threads). */
extern FI_HIDDEN __thread struct fi_server *fi_self __attribute__((tls_model("initial-exec")));

static inline int fi_state(void) { return (int)AO_load(&fi_lib.state); }

/* Creation from the main thread between runs, the only place phases and
 * placement change: F_OK, or F_ESTATE. */
static inline int fi_check_main_between_runs(void)
{
    return fi_self == NULL && fi_state() == FI_READY ? F_OK : F_ESTATE;
}

/* Drop a filament that will never run: what its creator must free (the
 * kinds' discards call it for each; f_finalize passes vararg.c's). */
typedef void (*fi_discard_fn)(f_func fn, void *arg);

/* F_OK if server is a server's index, else F_EINVAL. */
static inline int fi_servers_check_index(int server)
{
    return server >= 0 && server < fi_lib.nservers ? F_OK : F_EINVAL;
}

/*
 * What the scheduler needs of each kind of filament, and all it calls of
 * them during a run (fi_has_queued_work above is the quick look at both):
 *   fi_KIND_drain(me)    run the server's own work of the kind until none
 *                        is left (fork/join: 1 if there was any);
 *   fi_KIND_visible(me)  is there work of the kind an idle server could
 *                        take?  Loads of shared words only;
 *   fi_KIND_help(me)     take some from another server and run it: 1 if
 *                        it ran anything;
 *   fi_forkjoin_ask(me)  ask the servers with nothing to steal for some.
 * The iterative kind gives passes and barrier code instead (phase.c).
 */
FI_HIDDEN void fi_rtc_drain(struct fi_server *me);
FI_HIDDEN int fi_rtc_visible(const struct fi_server *me);
FI_HIDDEN int fi_rtc_help(struct fi_server *me);
FI_HIDDEN int fi_forkjoin_drain_held(struct fi_server *me);
FI_HIDDEN int fi_forkjoin_visible(const struct fi_server *me);
FI_HIDDEN int fi_forkjoin_help(struct fi_server *me);
FI_HIDDEN void fi_forkjoin_ask(struct fi_server *me);

/* fi_forkjoin_drain, with the test that nearly every barrier's caller
 * fails (an iterative program forks nothing) inline. */
static inline int fi_forkjoin_drain(struct fi_server *me)
{
    return fi_deque_holds_work(&me->deque) && fi_forkjoin_drain_held(me);
}

/* server.c, the servers' threads: start them, each calling open(itself, 1)
 * on its thread first and open(itself, 0) last, and wait until all have
 * (F_OK, or F_EINVAL or F_ENOMEM with none left); stop them; have every
 * server do job(server), on its own thread, and return once all have
 * (f_parallel's run, f_create_per_server's creators). */
FI_HIDDEN FI_MUST_CHECK int fi_servers_start(int bind_setting,
                                             void (*open)(struct fi_server *me, int open));
FI_HIDDEN void fi_servers_stop(void);
FI_HIDDEN void fi_servers_each(void (*job)(struct fi_server *me));

struct fi_env;
/*
 * What a mechanism offers the life cycle (lifecycle.c), which calls each
 * hook of every mechanism in the order of its one list: NULL where the
 * mechanism has nothing to do.  All run on the main thread but open.
 */
struct fi_mechanism {
    /* f_initialize, the servers' array zeroed, their threads not started:
     * F_OK, or a failure with everything it did undone (free may be
     * called on what alloc zeroed only). */
    int (*alloc)(const struct fi_env *env);
    void (*open)(struct fi_server *me, int open);  /* on a server's thread: 1 first, 0 last */
    void (*ready)(int ready);    /* creation from the main thread: 1 between runs, 0 else */
    void (*begin_run)(void);     /* f_parallel, creation closed, the servers not yet woken */
    void (*end_run)(void);       /* f_parallel, the servers back: the run consumed it all */
    void (*print_stats)(void);   /* f_finalize, FILAMENTS_STATS=1 */
    void (*discard)(fi_discard_fn drop);  /* f_finalize, servers stopped: what never ran */
    void (*free)(void);          /* f_finalize after every discard, or alloc's undo */
};
FI_HIDDEN extern const struct fi_mechanism fi_barrier_mechanism, fi_rtc_mechanism,
    fi_forkjoin_mechanism, fi_phase_mechanism, fi_row_mechanism, fi_sched_mechanism,
    fi_owned_mechanism, fi_stats_mechanism;

/* A creation call's code: inside a server's creator its first failure is
 * kept, and fails the whole f_create_per_server (create.c). */
static inline int fi_created(struct fi_server *me, int rc)
{
    if (FI_UNLIKELY(rc < 0) && me != NULL && me->creating && me->create_rc == 0)
        me->create_rc = rc;
    return rc;
}

/* rtc.c */
FI_HIDDEN void fi_rtc_cursors_open(int open);
FI_HIDDEN void fi_rtc_cursors_reopen(void);
FI_HIDDEN void fi_rtc_creator_open(struct fi_server *me);
FI_HIDDEN void fi_rtc_creator_close(struct fi_server *me);
FI_HIDDEN void fi_rtc_creator_undo(struct fi_server *s, fi_discard_fn discard);
FI_HIDDEN FI_MUST_CHECK int fi_rtc_create(int server, const struct fi_desc *d);

/* phase.c */
FI_HIDDEN void fi_phase_pass(struct fi_server *me, int phase);
static inline int fi_phases_count(void)
{
    return fi_lib.nphases;
}
FI_HIDDEN f_seq_func fi_phase_seq(int phase, void **arg);  /* the phase's barrier code */
FI_HIDDEN FI_MUST_CHECK int fi_phase_adopt(void *block);
FI_HIDDEN void fi_phase_cursors_open(int open);
FI_HIDDEN void fi_phase_disown_last(void);
FI_HIDDEN void fi_phase_creator_open(struct fi_server *me);
FI_HIDDEN void fi_phase_creator_close(void);
FI_HIDDEN void fi_phase_creator_undo(struct fi_server *s);

/* scheduler.c: the run loop, below the life cycle and above the kinds. */
FI_HIDDEN void fi_sched_run(struct fi_server *me);   /* a server's share of the run */

/* Work may move to a server that has already arrived at the barrier: the
 * episode must settle before it ends (scheduler.c).  Ordered by whatever
 * orders the caller's own arrival, or its claim's completion, after it. */
static inline void fi_sched_note_dynamic(const struct fi_server *me)
{
    if (!me->settling && AO_load(&fi_lib.dynamic) == 0)
        AO_store(&fi_lib.dynamic, 1);
}

/* barrier.c: what a round decides, in the release word's low bits. */
enum { FI_VERDICT_SETTLE = 1, FI_VERDICT_DONE = 2 };
/* What a server waiting at the barrier may do instead of waiting. */
struct fi_idle_ops {
    int (*visible)(struct fi_server *me);  /* is there work it could help with? */
    void (*help)(struct fi_server *me);    /* take some and run it */
};
/* Arrive, wait for every server, and return the round's verdict: the one
 * that decide(ctx) returned on the last server to arrive, which calls it
 * once all have arrived and before any leaves. */
FI_HIDDEN unsigned fi_barrier_cross(struct fi_server *me, unsigned (*decide)(void *), void *ctx,
                                    const struct fi_idle_ops *idle);

/* forkjoin.c */
FI_HIDDEN void fi_forkjoin_begin_run(struct fi_server *me);
/* f_run_long's root: the typed slot *t, run as a filament of its own on
 * a server, its value left in *t (lifecycle.c reads it after the run). */
FI_HIDDEN FI_MUST_CHECK int fi_forkjoin_root_typed(struct f_task_ *t);
FI_HIDDEN void fi_forkjoin_bounds(struct fi_deque *d);
FI_HIDDEN void fi_forkjoin_open(struct fi_server *me, int open);
FI_HIDDEN long fi_prune_threshold(void);

/* lock.c: the spin lock itself, for the library's own locks; and, in a
 * --enable-debug library, whether this thread holds an f_lock. */
FI_HIDDEN void fi_spin_lock(f_lock_t *l);
FI_HIDDEN void fi_spin_unlock(f_lock_t *l);
#ifdef FI_DEBUG
FI_HIDDEN int fi_locks_held(void);
#else
static inline int fi_locks_held(void) { return 0; }
#endif
FI_HIDDEN void fi_task_run(struct fi_server *me, struct f_task_ *t);


/* steal.c: the thief's side of the deque. */
FI_HIDDEN void fi_steal_request(struct fi_server *victim);
/* Claim victim's oldest public slot: the slot, marked with our index, or
 * NULL (nothing public: then ask the victim for some). */
FI_HIDDEN struct f_task_ *fi_steal_claim(struct fi_server *me, struct fi_server *victim);

/* vararg.c */
FI_HIDDEN void fi_vararg_discard(f_func fn, void *arg);

/* env.c */
struct fi_env {
    int servers;   /* 0: unset */
    long prune;
    int stats;
    int bind;      /* FILAMENTS_BIND: 1 one CPU per server, 0 none, FI_BIND_AUTO (unset):
                      1 where the servers are as many as the allowed CPUs (server.c) */
    long deque_slots;  /* FILAMENTS_DEQUE, or FI_DEQUE_SLOTS */
    /* For tests only, to reach the rare paths: FILAMENTS_TEST_CHUNK, or
     * FI_CHUNK_MIN and FI_CHUNK_MAX; FILAMENTS_TEST_FANIN, or FI_BARRIER_FANIN. */
    long chunk_min, chunk_max;
    int fanin;
};
#define FI_BIND_AUTO (-1)
FI_HIDDEN FI_MUST_CHECK int fi_env_read(struct fi_env *env);

/* memory.c: allocation, with a hook for the failure-injection tests. */
FI_HIDDEN FI_MUST_CHECK void *fi_alloc(size_t size);
FI_HIDDEN FI_MUST_CHECK void *fi_alloc_aligned(size_t size);
FI_HIDDEN FI_MUST_CHECK void *fi_realloc(void *p, size_t size);
FI_HIDDEN FI_MUST_CHECK void *fi_alloc_zeroed_pages(size_t size);
FI_HIDDEN FI_MUST_CHECK void *fi_alloc_big(size_t size);
FI_HIDDEN void fi_free_big(void *p, size_t size);
FI_HIDDEN void fi_free_pages(void *p, size_t size);
FI_HIDDEN void fi_free(void *p);
FI_HIDDEN FI_MUST_CHECK int fi_grow(void **array, size_t *cap, size_t used, size_t size);
FI_HIDDEN extern long fi_alloc_fail_at;  /* tests: the k-th allocation fails (0: never) */
FI_HIDDEN void fi_alloc_fail_reset(long k);     /* count from now; fail the k-th (0: never) */
FI_HIDDEN FI_MUST_CHECK void *fi_per_server_alloc(size_t size, size_t *stride);

struct fi_owned {
    struct fi_owned *next, *prev;
    void (*destroy)(struct fi_owned *);
};
FI_HIDDEN void fi_owned_link(struct fi_owned *o, void (*destroy)(struct fi_owned *));
FI_HIDDEN void fi_owned_unlink(struct fi_owned *o);

#endif /* FI_INTERNAL_H */
