/*
 * episode.c - the end of an episode: termination detection and the barrier
 * between passes [paper §4.4].
 *
 * A run is a sequence of episodes: first one in which the RTC and fork/join
 * filaments run once, then one per pass over an iterative phase, in
 * circular order, until a phase's sequential code returns F_DONE.
 *
 * One counter ends an episode.  `busy` counts the active servers plus the
 * filaments waiting in inboxes; each server starts the episode active.  A
 * server whose own work is done decrements it; the decrement that reaches
 * zero ends the episode, so there is exactly one last arriver.  While it
 * waits, an idle server may find work (its inbox, another server's F_ANY
 * queue): it first becomes active again, by a CAS that only succeeds while
 * busy is not zero, so no server can revive an episode that has ended.
 * Inbox filaments carry their own count (rtc.c), so work in flight between
 * servers keeps the episode open.
 *
 * The last arriver runs the phase's sequential code alone, decides what
 * comes next, resets busy and bumps episode_no with a release: the
 * sense-reversing barrier of doc/style.md, "Atomics", with the episode number as sense.
 * doc/design.md, "Episodes", has the states and the proof sketch.
 */
#include "internal.h"
#include "wait.h"

void fi_episode_begin_run(void)
{
    fi_lib.episode.kind = FI_EPISODE_ONCE;
    fi_lib.episode.phase = 0;
    AO_store(&fi_lib.busy, (AO_t)fi_lib.nservers);
    AO_store(&fi_lib.unstarted, (AO_t)fi_lib.nservers);
    fi_lib.run_posted_ns = fi_clock_ns();
}

/* Become active again, unless the episode has ended (busy is zero). */
static int reactivate(void)
{
    AO_t v = AO_load(&fi_lib.busy);
    while (v != 0) {
        /* Acquire: what the work's publisher wrote before it was counted. */
        if (AO_compare_and_swap_acquire(&fi_lib.busy, v, v + 1))
            return 1;
        v = AO_load(&fi_lib.busy);
    }
    return 0;
}

/* What follows the episode that has just ended; runs the sequential code. */
static struct fi_episode next_episode(struct fi_server *me, struct fi_episode e)
{
    struct fi_episode next = { FI_EPISODE_DONE, 0 };
    int nphases = fi_phases_count();
    if (e.kind == FI_EPISODE_ONCE) {
        if (nphases > 0)
            next.kind = FI_EPISODE_PASS;
        return next;
    }
    if (fi_phase_barrier_code(me, e.phase) != F_DONE) {
        next.kind = FI_EPISODE_PASS;
        next.phase = (e.phase + 1) % nphases;
    }
    return next;
}

static void end_episode(struct fi_server *me, AO_t episode_no)
{
    fi_lib.episode = next_episode(me, fi_lib.episode);
    AO_store(&fi_lib.busy, (AO_t)fi_lib.nservers);
    /* Release: the sequential code's writes, the next episode and the reset
     * count, before the waiters leave; pairs with episode_over(). */
    AO_store_release(&fi_lib.episode_no, episode_no + 1);
    fi_wake_all(&fi_lib.servers_wait);
}

struct idle_wait {
    struct fi_server *me;
    AO_t episode_no;
};

static int episode_over(void *ctx)
{
    const struct idle_wait *w = ctx;
    return AO_load_acquire(&fi_lib.episode_no) != w->episode_no || fi_rtc_visible(w->me) ||
           fi_steal_visible(w->me);
}

/* Run the server's own RTC and fork/join work until none is left; each
 * kind may create the other. */
void fi_episode_drain(struct fi_server *me)
{
    if (!fi_has_queued_work(me))
        return;
    do
        fi_rtc_drain(me);
    while (fi_forkjoin_drain(me));
}

/* Ask every server with no public fork/join work for some. */
static void request_work(struct fi_server *me)
{
    for (int k = 0; k < fi_lib.nservers; ++k) {
        AO_t ts = AO_load(&fi_lib.servers[k].deque.ts);
        if (k != me->index && FI_TS_TOP(ts) >= FI_TS_SPLIT(ts))
            fi_steal_request(&fi_lib.servers[k]);
    }
}

/*
 * The calling server has run all its own work of this episode.  Help until
 * the episode is over, then return what comes next.
 */
struct fi_episode fi_episode_finish(struct fi_server *me, AO_t *episode_no)
{
    struct idle_wait w = { me, *episode_no };
    if (fi_lib.episode.kind == FI_EPISODE_PASS)
        me->stats.barrier_episodes++;
    for (;;) {
        /* Full: our pass's writes to the last arriver, and, if we are the
         * last, everybody's writes to us and to the sequential code. */
        if (AO_fetch_and_sub1_full(&fi_lib.busy) == 1) {
            end_episode(me, w.episode_no);
            break;
        }
        int helped = 0;
        while (!helped) {
            request_work(me);
            fi_wait_until(&fi_lib.servers_wait, episode_over, &w, fi_lib.oversubscribed,
                          FI_RUN_YIELD_NS, &me->stats.idle_ns);
            if (AO_load_acquire(&fi_lib.episode_no) != w.episode_no)
                goto over;
            if (reactivate()) {
                if (!fi_rtc_help(me))
                    fi_steal_any(me);
                fi_episode_drain(me);
                helped = 1;    /* now idle again: decrement once more */
            }
        }
    }
over:
    *episode_no = w.episode_no + 1;
    return fi_lib.episode;
}
