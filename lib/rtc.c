/*
 * rtc.c - run-to-completion filaments [paper §2.1, §4.3].
 *
 * Creating one fills a descriptor in the queue of the server that will run
 * it; running one is a function call on the server's stack.  Where it goes:
 *  - from the main thread between runs: straight into the server's queue
 *    (pinned, or F_ANY placed round-robin);
 *  - from a filament, for its own server or F_ANY: into its own queue;
 *  - from a filament, for another server: into that server's inbox, under
 *    the inbox lock, counted in busy for the episode's settling stage
 *    (scheduler.c), which the push makes sure will come: the receiver may
 *    have arrived at the barrier already.
 * F_ANY filaments sit in a shared queue: the owner claims them in batches,
 * an idle server claims up to half of what is left, oldest first.  In a
 * run that f_parallel starts with F_ADAPT_ALL (f_set_adaptive(3)), the
 * pinned queues are taken so too, packed rows and all: a server taken off
 * its core, or slower, leaves the rest of its filaments to the others, as
 * an adaptive phase's strip does (adapt.c).  Otherwise the owner runs its
 * pinned queue without a CAS.
 */
#include <stdint.h>

#include "rtc.h"
#include "create.h"
#include "pack.h"
#include "lock.h"
#include "scheduler.h"
#include "env.h"
#include "state.h"
#include "trace.h"
#include "wait.h"

static void run_desc(const struct fi_desc *d)
{
    d->fn(d->i, d->j, d->arg);
}

static void lock_inbox(struct fi_inbox *b)
{
    fi_spin_lock(&b->lock);
}

static void unlock_inbox(struct fi_inbox *b)
{
    fi_spin_unlock(&b->lock);
}

static int push_inbox(struct fi_server *me, struct fi_server *to, const struct fi_desc *d)
{
    struct fi_inbox *b = &to->inbox;
    fi_sched_note_dynamic(me);
    /* Counted before it can be seen, while we are active (settling: busy
     * > 0), and the receiver's decrement comes after our unlock (release). */
    AO_fetch_and_add1(&fi_lib.busy);
    lock_inbox(b);
    int rc = fi_queue_push(&b->queue, d);
    if (rc == F_OK)
        AO_store(&b->count, AO_load(&b->count) + 1);
    unlock_inbox(b);
    if (rc < 0) {
        AO_fetch_and_sub1(&fi_lib.busy);
        return rc;
    }
    fi_wake_all(&fi_lib.servers_wait);
    return F_OK;
}

/* Move the inbox into the pinned queue; give back its busy count. */
static size_t take_inbox(struct fi_server *me)
{
    struct fi_inbox *b = &me->inbox;
    if (AO_load(&b->count) == 0)
        return 0;
    size_t n = 0;
    lock_inbox(b);
    for (struct fi_desc *d; (d = fi_queue_take(&b->queue)) != NULL; ++n) {
        if (fi_queue_push(&me->pinned, d) < 0) {
            /* Out of memory: run it here rather than lose it. */
            run_desc(d);
            me->stats.filaments_run++;
        }
    }
    fi_queue_reset(&b->queue);
    AO_store(&b->count, 0);
    unlock_inbox(b);
    /* We are active, so this cannot end a settling stage. */
    AO_fetch_and_add(&fi_lib.busy, (AO_t)0 - n);
    return n;
}

/* ------------------------------------------------------------ cursors */

/*
 * The inline f_rtc_thread (filaments.h) pushes into a server's pinned
 * queue through a cursor: the next free slot of the queue's last chunk
 * and the chunk's end.  The main thread's, one per server, between runs;
 * and a creating server's own, in its thread-local f_creator_, while it
 * runs its creator (f_create_per_server), when the main thread's are
 * closed.  While a cursor is open the chunk's tail word lags behind it,
 * and closing the cursor (before any other push) writes it back.
 */
F_API struct f_rtc_cursor_ f_rtc_cursors_[F_RTC_CURSORS_];
_Static_assert(FI_MAX_SERVERS <= F_RTC_CURSORS_, "a cursor per server");

/* Open `cursor` on server s's pinned queue. */
static void open_cursor(struct f_rtc_cursor_ *cursor, struct fi_server *s)
{
    struct fi_chunk *c = s->pinned.last;
    struct f_desc_ *slot = (struct f_desc_ *)c->slot;
    *cursor = (struct f_rtc_cursor_){ slot + AO_load(&c->tail), slot + c->cap };
}

/* Close it: write the chunk's tail back. */
static void close_cursor(struct f_rtc_cursor_ *cursor, struct fi_server *s)
{
    if (cursor->next_ == NULL)
        return;
    struct fi_chunk *c = s->pinned.last;
    AO_store(&c->tail, (AO_t)(cursor->next_ - (struct f_desc_ *)c->slot));
    *cursor = (struct f_rtc_cursor_){ NULL, NULL };
}

/* Open the cursors to the main thread (between runs), or close them. */
void fi_rtc_cursors_open(int open)
{
    for (int s = 0; s < fi_lib.nservers; ++s) {
        if (open) {
            fi_pack_from(&fi_lib.servers[s], NULL, 0);    /* the queues were emptied */
            open_cursor(&f_rtc_cursors_[s], &fi_lib.servers[s]);
        } else {
            close_cursor(&f_rtc_cursors_[s], &fi_lib.servers[s]);
        }
    }
}

/* Open them again after per-server creation: the queues hold what the
 * servers created, and each server's packing state goes on from there. */
void fi_rtc_cursors_reopen(void)
{
    for (int s = 0; s < fi_lib.nservers; ++s)
        open_cursor(&f_rtc_cursors_[s], &fi_lib.servers[s]);
}

/* ----------------------------------------------------------------- create */

/* A filament for server s whose cursor is full (or closed): pack the full
 * chunk, push, and open the cursor again, on a new chunk perhaps. */
static int push_through(struct f_rtc_cursor_ *cursor, struct fi_server *s,
                        const struct fi_desc *d)
{
    close_cursor(cursor, s);
    fi_pack_full_chunk(s);
    int rc = fi_queue_push(&s->pinned, d);
    open_cursor(cursor, s);
    return rc;
}

/* From server me's creator (f_create_per_server): its own queues only. */
static int create_own(struct fi_server *me, int server, const struct fi_desc *d)
{
    if (d->fn == NULL || (server != F_ANY && fi_servers_check_index(server) < 0))
        return F_EINVAL;
    if (server == F_ANY) {
        AO_store(&fi_lib.any_used, 1);    /* every creating server may: the same value */
        return fi_queue_push(&me->any, d);
    }
    if (server != me->index)
        return F_ESTATE;    /* another server's queue: its own creator is writing it */
    return push_through(&f_creator_.rtc_, me, d);
}

int fi_rtc_create(int server, const struct fi_desc *d)
{
    struct fi_server *me = fi_self;
    if (me == NULL) {
        if (fi_check_main_between_runs() < 0)
            return F_ESTATE;
        if (d->fn == NULL || (server != F_ANY && fi_servers_check_index(server) < 0))
            return F_EINVAL;
        if (server == F_ANY) {
            server = (int)(fi_lib.any_next++ % (unsigned)fi_lib.nservers);
            AO_store(&fi_lib.any_used, 1);
            return fi_queue_push(&fi_lib.servers[server].any, d);
        }
        return push_through(&f_rtc_cursors_[server], &fi_lib.servers[server], d);
    }
    if (me->creating)
        return fi_created(me, create_own(me, server, d));
    if (me->in_barrier)
        return F_ESTATE;
    if (d->fn == NULL || (server != F_ANY && fi_servers_check_index(server) < 0))
        return F_EINVAL;
    if (server == me->index)
        return fi_queue_push(&me->pinned, d);
    if (server != F_ANY)
        return push_inbox(me, &fi_lib.servers[server], d);
    fi_sched_note_dynamic(me);    /* idle servers may claim it */
    int rc = fi_queue_push(&me->any, d);
    if (rc == F_OK) {
        if (AO_load(&fi_lib.any_used) == 0)
            AO_store(&fi_lib.any_used, 1);    /* published by the wake's fence */
        fi_wake_all(&fi_lib.servers_wait);
    }
    return rc;
}

int (f_rtc_thread)(int server, f_func fn, long i, long j, void *arg)
{
    struct fi_desc d = { fn, i, j, arg };
    return fi_rtc_create(server, &d);
}

/* ---------------------------------------------------- per-server creation */

/*
 * Server me, on its own thread, before its creator runs (create.c): mark
 * where its queues end, so that a failed call can be cut back to the
 * marks, and open its own cursor.  Packing starts at the mark: what was
 * there before stays as it was, whatever the call does.
 */
void fi_rtc_creator_open(struct fi_server *me)
{
    me->mark_pinned = fi_queue_end(&me->pinned);
    me->mark_any = fi_queue_end(&me->any);
    fi_pack_from(me, me->mark_pinned.chunk, me->mark_pinned.tail);
    open_cursor(&f_creator_.rtc_, me);
}

void fi_rtc_creator_close(struct fi_server *me)
{
    close_cursor(&f_creator_.rtc_, me);
}

/* The call failed: the main thread cuts server s's queues back to the
 * marks, passing each filament dropped to `discard` (vararg.c's, from
 * create.c: a kind does not call the layer above it). */
void fi_rtc_creator_undo(struct fi_server *s, fi_discard_fn discard)
{
    fi_queue_cut(&s->pinned, s->mark_pinned, discard);
    fi_queue_cut(&s->any, s->mark_any, discard);
    fi_pack_from(s, s->mark_pinned.chunk, s->mark_pinned.tail);
}

/* Run claimed descriptors, as a private queue's are run. */
static void run_claimed(struct fi_server *me, struct fi_desc *d, size_t n)
{
    fi_run_descs(d, d + n);
    me->stats.filaments_run += n;
}

/* Run the pinned queue, claimed in batches where others may take from it;
 * return how many descriptors ran. */
static unsigned long run_pinned(struct fi_server *me)
{
    if (!fi_lib.rtc_movable) {
        unsigned long ran = fi_queue_run_all(&me->pinned);
        me->stats.filaments_run += ran;
        return ran;
    }
    unsigned long ran = 0;
    struct fi_desc *first;
    for (size_t n; (n = fi_queue_claim(&me->pinned, FI_CLAIM_BATCH, &first)) > 0; ran += n)
        run_claimed(me, first, n);
    return ran;
}

/* Run the server's own RTC work until none is left. */
void fi_rtc_drain(struct fi_server *me)
{
    for (;;) {
        unsigned long ran = run_pinned(me);
        struct fi_desc *first;
        size_t n = fi_queue_claim(&me->any, FI_CLAIM_BATCH, &first);
        if (n > 0) {
            run_claimed(me, first, n);
            continue;
        }
        if (ran == 0 && take_inbox(me) == 0)
            return;
    }
}

/* Is there RTC work this idle server could take?  Reads shared words only. */
int fi_rtc_visible(const struct fi_server *me)
{
    if (AO_load(&me->inbox.count) != 0)
        return 1;
    int movable = fi_lib.rtc_movable;
    if (AO_load(&fi_lib.any_used) == 0 && !movable)
        return 0;
    for (int k = 0; k < fi_lib.nservers; ++k) {
        const struct fi_server *s = &fi_lib.servers[k];
        if (fi_queue_nonempty(&s->any) || (movable && s != me && fi_queue_nonempty(&s->pinned)))
            return 1;
    }
    return 0;
}

/* Claim up to half of what is left of the victim's queue q and run it:
 * 1 if it ran any. */
static int claim_half(struct fi_server *me, struct fi_server *victim, struct fi_queue *q)
{
    size_t avail = fi_queue_length(q);
    if (avail == 0)
        return 0;
    me->stats.steal_attempts++;
    struct fi_desc *first;
    size_t got = fi_queue_claim(q, avail > 1 ? avail / 2 : 1, &first);
    if (got == 0)
        return 0;
    fi_count_at_work(me);
    unsigned long filaments = fi_pack_filaments(first, got);    /* a packed row: its points */
    me->stats.steals += filaments;
    unsigned long start = fi_trace_now(me->trace);
    run_claimed(me, first, got);
    fi_trace_span(me->trace, FI_TRACE_STEAL, start, victim->index, (long)filaments, 1, 0);
    return 1;
}

/* Idle and active again: take from the inbox, or steal F_ANY filaments
 * (and pinned ones, where they may move). */
int fi_rtc_help(struct fi_server *me)
{
    if (take_inbox(me) > 0) {
        fi_count_at_work(me);
        return 1;
    }
    int n = fi_lib.nservers;
    int start = (int)((me->steal_seed = me->steal_seed * 1103515245u + 12345u) >> 16) % n;
    for (int k = 0; k < n; ++k) {
        struct fi_server *victim = &fi_lib.servers[(start + k) % n];
        if (claim_half(me, victim, &victim->any) ||
            (fi_lib.rtc_movable && victim != me && claim_half(me, victim, &victim->pinned)))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ life cycle */

/* Drop the filaments the servers never ran (f_finalize without f_parallel). */
static void discard_queued(fi_discard_fn discard)
{
    for (int k = 0; k < fi_lib.nservers; ++k) {
        struct fi_server *s = &fi_lib.servers[k];
        struct fi_queue *queues[] = { &s->pinned, &s->any, &s->inbox.queue };
        for (size_t q = 0; q < sizeof queues / sizeof *queues; ++q) {
            if (queues[q]->origin == NULL)
                continue;
            for (struct fi_desc *d; (d = fi_queue_take(queues[q])) != NULL;)
                discard(d->fn, d->arg);
        }
    }
}

/* Also of queues that f_initialize zeroed and never initialized. */
static void queues_free(void)
{
    for (int k = 0; k < fi_lib.nservers; ++k) {
        struct fi_server *s = &fi_lib.servers[k];
        fi_queue_destroy(&s->any);
        fi_queue_destroy(&s->inbox.queue);
        fi_queue_destroy(&s->pinned);
    }
}

static int queues_alloc(const struct fi_env *env)
{
    fi_queue_chunks((size_t)env->chunk_min, (size_t)env->chunk_max);
    for (int k = 0; k < fi_lib.nservers; ++k) {
        struct fi_server *s = &fi_lib.servers[k];
        if (fi_queue_init(&s->any) < 0 || fi_queue_init(&s->inbox.queue) < 0 ||
            fi_queue_init(&s->pinned) < 0) {
            queues_free();
            return F_ENOMEM;
        }
    }
    return F_OK;
}

/* f_parallel: may this run's pinned filaments move? */
static void begin_run(void)
{
    fi_lib.rtc_movable = fi_lib.adapt == F_ADAPT_ALL && !fi_lib.adapt_off && fi_lib.nservers > 1;
}

/* The run consumed every RTC filament: the queues start again. */
static void end_run(void)
{
    AO_store(&fi_lib.any_used, 0);
    for (int k = 0; k < fi_lib.nservers; ++k) {
        fi_queue_reset(&fi_lib.servers[k].any);
        fi_queue_reset(&fi_lib.servers[k].pinned);
    }
}

const struct fi_mechanism fi_rtc_mechanism = { .alloc = queues_alloc, .ready = fi_rtc_cursors_open,
                                               .begin_run = begin_run, .end_run = end_run,
                                               .discard = discard_queued, .free = queues_free };
