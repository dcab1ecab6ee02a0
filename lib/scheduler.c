/*
 * scheduler.c - what a server does in a run: its passes, its own work,
 * the barrier between episodes and termination detection [paper §4.3,
 * §4.4].
 *
 * A run is a sequence of episodes: first one in which the RTC and fork/join
 * filaments run once, then one per pass over an iterative phase, in
 * circular order, until a phase's sequential code returns F_DONE.
 *
 * The scheduler calls down, and nothing below calls it: the kinds of
 * filaments each give it the same four operations (scheduler.h, "What the
 * scheduler needs of each kind"): drain the server's own work, say whether
 * there is work an idle server could take, take some and run it, and ask
 * for more; the iterative kind gives passes and barrier code (phase.c);
 * the tree barrier (barrier.c) and waiting (wait.c) are below.
 *
 * A server that has run its own work of an episode crosses the tree
 * barrier (barrier.c).  In a plain pass that is all: each server's work
 * stays on it, so once every server has arrived none is left, and the last
 * server to arrive runs the phase's sequential code and releases the
 * others with what comes next.  No word shared by all is written on that
 * path.
 *
 * Work can also move: a filament creates one for another server (its
 * inbox) or for any server (F_ANY), an idle server steals a fork/join
 * filament or claims F_ANY ones while it waits at the barrier.  Whoever
 * does so first sets `dynamic`, before the moved work can run.  The
 * deciding server then does not end the episode; it starts a settling stage, in which
 * every server drains its work and helps, counted in `busy` (active
 * servers plus filaments waiting in inboxes): the decrement that reaches
 * zero ends the stage, and a server can only become active again while
 * busy is not zero, so no stage can be revived.  Then the servers cross
 * the barrier once more, and the last to arrive ends the episode.
 * doc/design.md, "Episodes", has the states and the proof.
 *
 * The schedule trace (trace.c) records the episodes: the functions of the
 * run loop below take the server's trace buffer, and the loop is compiled
 * twice, for a server that records and, with the buffer a constant NULL
 * that removes every hook, for one that does not; a run chooses between
 * them once (fi_sched_run; doc/design.md, "The schedule trace").
 */
#include "scheduler.h"
#include "barrier.h"
#include "forkjoin.h"
#include "phase.h"
#include "rtc.h"
#include "steal.h"
#include "state.h"
#include "trace.h"
#include "wait.h"

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

/* f_initialize: no episode is dynamic, settling or settled. */
static int sched_alloc(const struct fi_env *env)
{
    AO_store(&fi_lib.dynamic, 0);
    AO_store(&fi_lib.busy, 0);
    AO_store(&fi_lib.settled, 0);
    return F_OK;
}

/* f_parallel, as it posts a run. */
static void begin_run(void)
{
    AO_store(&fi_lib.unstarted, (AO_t)fi_lib.nservers);
    /* F_ANY filaments from the main thread are claimed by idle servers:
     * their owner does not wait for them (fi_rtc_help). */
    AO_store(&fi_lib.dynamic, AO_load(&fi_lib.any_used));
    fi_lib.run_posted_ns = fi_clock_ns();
}

/* Both polls, when both are set: what the two still await. */
static int poll_both(void *unused)
{
    (void)unused;
    return fi_lib.poll_program.poll(fi_lib.poll_program.arg) +
           fi_lib.poll_library.poll(fi_lib.poll_library.arg);
}

/* What the servers call: the poll that is set, or both; so the drain's
 * test stays one load and branch whatever is set (drain, below). */
static void polls_combine(void)
{
    static const struct fi_poll_slot both = { poll_both, NULL };
    const struct fi_poll_slot *program = &fi_lib.poll_program, *library = &fi_lib.poll_library;
    const struct fi_poll_slot *one = program->poll != NULL ? program : library;
    if (program->poll != NULL && library->poll != NULL)
        one = &both;
    fi_lib.poll = one->poll;
    fi_lib.poll_arg = one->arg;
}

int f_set_poll(f_poll_func poll, void *arg)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    fi_lib.poll_program = (struct fi_poll_slot){ poll, arg };
    polls_combine();
    return F_OK;
}

int f_set_library_poll_(f_poll_func poll, void (*end)(void *arg), void *arg)
{
    if (fi_check_main_between_runs() < 0)
        return F_ESTATE;
    fi_lib.poll_library = (struct fi_poll_slot){ poll, arg };
    fi_lib.poll_library_end = poll != NULL ? end : NULL;
    polls_combine();
    return F_OK;
}

/* f_finalize, the servers stopped: both polls go, and the library whose
 * poll it was learns that it must end too. */
static void end_polls(void)
{
    void (*end)(void *arg) = fi_lib.poll_library_end;
    void *arg = fi_lib.poll_library.arg;
    /* Two assignments, not a chain: a chain copies one slot into the
     * other, a copy that the model check's compiler (GenMC's) cannot take
     * apart (tests/model/settle.c). */
    fi_lib.poll_program = (struct fi_poll_slot){ NULL, NULL };
    fi_lib.poll_library = (struct fi_poll_slot){ NULL, NULL };
    fi_lib.poll_library_end = NULL;
    polls_combine();
    if (end != NULL)
        end(arg);
}

/* What a drain ran. */
enum { RAN_RTC = 1, RAN_FORKJOIN = 2 };

/* Run the server's own RTC and fork/join work until none is left; each
 * kind may create the other.  What it ran (RAN_*), 0 if nothing. */
static inline int drain_own(struct fi_server *me)
{
    if (!fi_has_queued_work(me))
        return 0;
    unsigned long before = me->stats.filaments_run;
    int forkjoin = 0;
    do
        fi_rtc_drain(me);
    while (fi_forkjoin_drain(me) && (forkjoin = RAN_FORKJOIN));
    return forkjoin | (me->stats.filaments_run != before ? RAN_RTC : 0);
}

/* Then, while outside events are awaited (f_set_poll), poll for them and
 * run what they bring: the server does not arrive at the barrier, or go
 * idle while settling, before a poll has said that none is awaited and
 * nothing ran after it (what ran may have made an event awaited, or the
 * poll created it), so no episode ends before the filaments the events
 * bring have run.  Barrier code never overlaps a drain, so it may call what
 * the poll calls (f_set_poll(3)).  A trace records the whole loop, the
 * waits for the events (MPI's messages, say) included. */
static __attribute__((noinline)) void drain_polling(struct fi_server *me)
{
    unsigned long start = fi_trace_now(me->trace), ran_before = me->stats.filaments_run;
    for (long polls = 1;; ++polls) {
        int awaited = fi_lib.poll(fi_lib.poll_arg);
        if (!drain_own(me) && awaited == 0) {
            fi_trace_span(me->trace, FI_TRACE_POLL, start, polls,
                          (long)(me->stats.filaments_run - ran_before), 0, 0);
            return;
        }
    }
}

/* Inline, as drain was before the poll (callgrind, bench/micro
 * barrier-fil: an out-of-line drain cost 21 instructions more per episode,
 * this one 3, the test of the hook: 1.4% of an empty barrier episode).
 * What the server's own work ran before the polls (RAN_*: the trace's;
 * unused, it costs nothing). */
static inline int drain(struct fi_server *me)
{
    int ran = drain_own(me);
    if (FI_UNLIKELY(fi_lib.poll != NULL))
        drain_polling(me);
    return ran;
}

/* Is there work that this idle server could take?  Asks for some, too. */
static int work_visible(struct fi_server *me)
{
    fi_forkjoin_ask(me);
    return fi_rtc_visible(me) || fi_forkjoin_visible(me);
}

/* Take work from another server and run it, with whatever it creates here. */
static int take_work(struct fi_server *me)
{
    int took = fi_rtc_help(me) || fi_forkjoin_help(me);
    drain(me);
    return took;
}

/* Waiting at the barrier, help: the moved work makes the episode dynamic
 * (set before the claim or the steal, so the decider sees it: the victim
 * or the claimed queue's owner arrives after it). */
static void help_at_barrier(struct fi_server *me)
{
    fi_sched_note_dynamic(me);
    take_work(me);
}

static const struct fi_idle_ops at_barrier = { work_visible, help_at_barrier };

/* Become active again, unless the settling stage has ended (busy is zero). */
static int reactivate(void)
{
    /* Each try loads busy afresh: a model checker (GenMC, tests/model/
     * settle.c) takes a retry that reuses a stale value for a spin that
     * never ends. */
    for (;;) {
        AO_t v = AO_load(&fi_lib.busy);
        if (v == 0)
            return 0;
        /* No ordering: the count needs the CAS's atomicity only.  What the
         * work's publisher wrote reaches us by the work's own hand-over
         * (the inbox's lock, a claim's acquire, a steal's), and its
         * increment of busy is relaxed anyway (push_inbox, rtc.c), so that
         * an acquire here would pair with no release of it; the model
         * check of settle passes with this CAS relaxed. */
        if (AO_compare_and_swap(&fi_lib.busy, v, v + 1))
            return 1;
    }
}

struct settle_wait {
    struct fi_server *me;
    AO_t settle_no;
};

static int settled_or_work(void *ctx)
{
    const struct settle_wait *w = ctx;
    /* Relaxed: settle reads `settled` again, with an acquire, once the
     * wait is over; an acquire here, at every poll, would add nothing. */
    return AO_load(&fi_lib.settled) == w->settle_no || fi_rtc_visible(w->me) ||
           fi_forkjoin_visible(w->me);
}

/*
 * The settling stage: drain, go idle, and help until no server is active
 * and no filament waits in an inbox.  Every server takes part, counted in
 * busy by the decider before it released them.  Rare, so it looks at the
 * trace itself.
 */
static void settle(struct fi_server *me)
{
    struct fi_trace_buf *trace = me->trace;
    unsigned long start = fi_trace_now(trace);
    struct settle_wait w = { me, ++me->settle_no };
    me->settling = 1;
    drain(me);
    for (;;) {
        /* Full: our work's writes to the last server to go idle, and, if
         * we are that server, everybody's writes to us. */
        if (AO_fetch_and_sub1_full(&fi_lib.busy) == 1) {
            /* Release: pairs with settled_or_work(). */
            AO_store_release(&fi_lib.settled, w.settle_no);
            fi_wake_all(&fi_lib.servers_wait);
            break;
        }
        int active = 0;
        while (!active) {
            fi_forkjoin_ask(me);
            fi_wait_until(&fi_lib.servers_wait, settled_or_work, &w, fi_lib.oversubscribed,
                          FI_RUN_YIELD_NS, &me->stats.idle_ns);
            /* Acquire: the last server's writes, and through its full
             * decrement everybody's; pairs with the release above. */
            if (AO_load_acquire(&fi_lib.settled) == w.settle_no)
                goto settled;
            if ((active = reactivate()))
                take_work(me); /* then idle again: decrement once more */
        }
    }
settled:
    me->settling = 0;
    fi_trace_span(trace, FI_TRACE_SETTLE, start, (long)w.settle_no, 0, 0, 0);
}

/* The next pass's placement, then the phase's sequential code, on the last
 * server to arrive, alone [paper §2.2]. */
static inline __attribute__((always_inline)) int barrier_code(struct fi_server *me, int phase,
                                                              struct fi_trace_buf *trace)
{
    fi_phase_passed(phase, trace);
    void *arg;
    f_seq_func seq = fi_phase_seq(phase, &arg);
    if (seq == NULL)
        return F_NOTDONE;
    unsigned long start = fi_trace_now(trace);
    me->in_barrier = 1;
    int verdict = seq(arg);
    /* The children it left unjoined are barrier code too: they run here
     * and now, before the next pass or the end of the run (f_fork(3)).
     * The deque held nothing before: the episode's work was all done. */
    fi_forkjoin_drain(me);
    me->in_barrier = 0;
    fi_trace_span(trace, FI_TRACE_BARRIER_CODE, start, phase, verdict == F_DONE, 0, 0);
    return verdict;
}

struct decision {
    struct fi_server *me;
    struct fi_episode e;
};

/* The last server to arrive: settle first if work moved, otherwise
 * end the episode, running the phase's sequential code.  Nothing else runs
 * meanwhile: a server that took work after it arrived set `dynamic`. */
static inline __attribute__((always_inline)) unsigned decide_with(const struct decision *d,
                                                                  struct fi_trace_buf *trace)
{
    if (AO_load(&fi_lib.dynamic) != 0) {
        AO_store(&fi_lib.dynamic, 0);
        AO_fetch_and_add(&fi_lib.busy, (AO_t)fi_lib.nservers); /* released by the tree */
        return FI_VERDICT_SETTLE;
    }
    int done = d->e.kind == FI_EPISODE_ONCE ? fi_phases_count() == 0
                                            : barrier_code(d->me, d->e.phase, trace) == F_DONE;
    return done ? FI_VERDICT_DONE : 0;
}

/* The decisions the barrier calls: untraced, and for a server that records. */
static unsigned decide(void *ctx)
{
    return decide_with(ctx, NULL);
}

static unsigned decide_traced(void *ctx)
{
    const struct decision *d = ctx;
    return decide_with(d, d->me->trace);
}

/*
 * The calling server has run all its own work of episode e (the run's
 * episode-th).  Cross the barrier, settling as often as the decider says,
 * and return what comes next.
 */
static inline __attribute__((always_inline)) struct fi_episode
finish(struct fi_server *me, struct fi_episode e, long episode, struct fi_trace_buf *trace)
{
    unsigned long arrival = fi_trace_now(trace);
    if (e.kind == FI_EPISODE_PASS)
        me->stats.barrier_episodes++;
    struct decision d = { me, e };
    unsigned verdict;
    long rounds = 1;
    while ((verdict = fi_barrier_cross(me, trace != NULL ? decide_traced : decide, &d,
                                       &at_barrier)) == FI_VERDICT_SETTLE) {
        settle(me);
        ++rounds;
    }
    fi_trace_span(trace, FI_TRACE_BARRIER, arrival, episode,
                  e.kind == FI_EPISODE_PASS ? e.phase : -1, rounds, verdict == FI_VERDICT_DONE);
    if (verdict == FI_VERDICT_DONE)
        return (struct fi_episode){ FI_EPISODE_DONE, 0 };
    if (e.kind == FI_EPISODE_ONCE)
        return (struct fi_episode){ FI_EPISODE_PASS, 0 };
    /* Phases in circular order; no division on the way to the next pass. */
    int next = e.phase + 1 < fi_phases_count() ? e.phase + 1 : 0;
    return (struct fi_episode){ FI_EPISODE_PASS, next };
}

/* The pass of episode e if it is one, then the server's own work. */
static inline __attribute__((always_inline)) void run_own(struct fi_server *me, struct fi_episode e,
                                                          long episode, struct fi_trace_buf *trace)
{
    unsigned long start = fi_trace_now(trace);
    if (e.kind == FI_EPISODE_PASS) {
        int backward = 0;
        unsigned long filaments = 0;
        if (trace != NULL)
            fi_phase_pass_shape(me, e.phase, &backward, &filaments);
        fi_phase_pass(me, e.phase);
        start =
            fi_trace_span(trace, FI_TRACE_PASS, start, e.phase, episode, backward, (long)filaments);
    }
    unsigned long ran_before = trace != NULL ? me->stats.filaments_run : 0;
    int ran = drain(me);
    if (trace != NULL && ran != 0)
        fi_trace_span(trace, FI_TRACE_DRAIN, start, episode,
                      (long)(me->stats.filaments_run - ran_before), (ran & RAN_FORKJOIN) != 0, 0);
}

/* The run's episodes, from the first to the one that ends it. */
static inline __attribute__((always_inline)) void run_episodes(struct fi_server *me,
                                                               struct fi_trace_buf *trace)
{
    struct fi_episode e = { FI_EPISODE_ONCE, 0 };
    for (long episode = 0; e.kind != FI_EPISODE_DONE; ++episode) {
        run_own(me, e, episode, trace);
        e = finish(me, e, episode, trace);
    }
}

/* The run of a server that records: its span, and its waits' (wait.c). */
static __attribute__((noinline)) void run_traced(struct fi_server *me)
{
    struct fi_trace_buf *trace = me->trace;
    unsigned long start = fi_clock_ns();
    fi_trace_here = trace;
    run_episodes(me, trace);
    fi_trace_here = NULL;
    fi_trace_span(trace, FI_TRACE_RUN, start, fi_trace.calls, 0, 0, 0);
}

/* One server's share of a run, from the run's start to its end. */
void fi_sched_run(struct fi_server *me)
{
    fi_forkjoin_begin_run(me);
    me->at_work = 0;
    if (fi_has_queued_work(me) || fi_phases_count() > 0) /* roots, RTC filaments, passes */
        fi_count_at_work(me);
    if (FI_UNLIKELY(me->trace != NULL))
        run_traced(me);
    else
        run_episodes(me, NULL);
}

const struct fi_mechanism fi_sched_mechanism = { .alloc = sched_alloc,
                                                 .begin_run = begin_run,
                                                 .free = end_polls };
