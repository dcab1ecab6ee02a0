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
 * an idle server claims up to half of what is left, oldest first.
 */
#include <stdint.h>

#include "rtc.h"
#include "create.h"
#include "row.h"
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
            fi_lib.servers[s].pack_chunk = NULL;    /* the queues were emptied */
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

/* ------------------------------------------------------------------- rows */

/*
 * Rows (beyond the paper, as the runs of iterative filaments are).  A grid
 * program creates a filament per point, row by row: matmul n = 1000 creates
 * 1 000 000 inner products, 32 MiB of descriptors that the main thread
 * writes into fresh pages while every server waits for f_parallel (a 2-server
 * run took 1.036 times the coarse-grain program's time, the difference
 * being that creation).  So when the main thread's cursor (or a creating
 * server's own) has filled a chunk that ends in a row - three or more
 * filaments of the same fn, i and arg with consecutive j - the library
 * packs the chunk's new descriptors
 * before it takes another chunk: the points of each such row after the
 * first become one descriptor, a call of run_rest, and the cursor goes on
 * in the room freed.  A row then takes two slots of a chunk that stays in
 * the cache: its points cost the scan that packs them (about as many
 * instructions as their creation) instead of fresh memory, and creation in
 * matmul's rows took 2.6 ms instead of 6.6 (1 000 000 filaments).  Other
 * filaments pay one test per chunk, and each descriptor is packed at most
 * once.  The server calls a row's points in the order they were created, as
 * a forward pass calls a run's: by fn's range version, if the program named
 * one.
 */

/* The points of the row after its first, `first`: j + 1 .. j_last. */
static void run_rest(long unused, long j_last, void *first)
{
    const struct fi_desc *a = first;
    fi_row_run_forward(a->fn, a->i, a->j + 1, j_last, a->arg);
    /* The queue counted this descriptor as one filament. */
    fi_self->stats.filaments_run += (unsigned long)j_last - (unsigned long)a->j - 1;
}

/* Is b the point after a in a row: same fn, i and arg, and j one more
 * (not across LONG_MAX: b->j > a->j)? */
static inline int next_in_row(const struct fi_desc *a, const struct fi_desc *b)
{
    return b->j > a->j && (unsigned long)b->j - (unsigned long)a->j == 1 && b->fn == a->fn &&
           b->i == a->i && b->arg == a->arg;
}

/* Does d extend the row that begins at `first` and ends at `last`, the
 * descriptor after it: either a packed rest, or the row's second point? */
static int extends_row(const struct fi_desc *first, const struct fi_desc *last,
                       const struct fi_desc *d)
{
    if (last->fn == run_rest)    /* the row's last point is last->j */
        return next_in_row(&(struct fi_desc){ first->fn, first->i, last->j, first->arg }, d);
    return next_in_row(first, last) && next_in_row(last, d);
}

/* Pack [from, end) in place, after the packed slots [start, from): return
 * the new end. */
static struct fi_desc *pack_rows(struct fi_desc *start, struct fi_desc *from,
                                 struct fi_desc *end)
{
    struct fi_desc *out = from;
    for (const struct fi_desc *d = from; d < end; ++d) {
        if (out - start < 2 || !extends_row(out - 2, out - 1, d)) {
            *out++ = *d;
            continue;
        }
        /* The row goes on: find where it ends, then store it once.  The
         * row's point in a local, which stays in registers. */
        struct fi_desc point = *d;
        for (; d + 1 < end && next_in_row(&point, d + 1); ++d)
            point.j++;
        out[-1] = (struct fi_desc){ run_rest, 0, point.j, out - 2 };
    }
    return out;
}

/*
 * The cursor of server s has filled its chunk: pack it if it ends in a row.
 * Packing that frees less than an eighth of the chunk is the chunk's last,
 * so that a row begun at the end of a chunk of other filaments does not
 * come back here for every point.  No row reaches below pack_floor: the
 * chunk's first slot, or where a server's creator began (create.c), so
 * that a failed f_create_per_server can cut the queue back there.
 */
static void pack_full_chunk(struct fi_server *s)
{
    struct fi_chunk *c = s->pinned.last;
    size_t tail = AO_load(&c->tail);
    if (c != s->pack_chunk) {
        s->pack_chunk = c;
        s->packed = s->pack_floor = AO_load(&c->head);
    }
    size_t floor = s->pack_floor;
    if (tail != c->cap || s->packed == SIZE_MAX || tail - floor < 3 ||
        !extends_row(&c->slot[tail - 3], &c->slot[tail - 2], &c->slot[tail - 1]))
        return;
    struct fi_desc *out = pack_rows(&c->slot[floor], &c->slot[s->packed], &c->slot[tail]);
    size_t end = (size_t)(out - c->slot);
    AO_store(&c->tail, end);
    s->packed = tail - end < c->cap / 8 ? SIZE_MAX : end;
}

/* ----------------------------------------------------------------- create */

/* A filament for server s whose cursor is full (or closed): pack the full
 * chunk, push, and open the cursor again, on a new chunk perhaps. */
static int push_through(struct f_rtc_cursor_ *cursor, struct fi_server *s,
                        const struct fi_desc *d)
{
    close_cursor(cursor, s);
    pack_full_chunk(s);
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
    me->pack_chunk = me->mark_pinned.chunk;
    me->packed = me->pack_floor = me->mark_pinned.tail;
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
    s->pack_chunk = s->mark_pinned.chunk;
    s->packed = s->pack_floor = s->mark_pinned.tail;
}

/* Run claimed F_ANY descriptors. */
static void run_claimed(struct fi_server *me, struct fi_desc *d, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        run_desc(&d[k]);
    me->stats.filaments_run += n;
}

/* Run the server's own RTC work until none is left. */
void fi_rtc_drain(struct fi_server *me)
{
    for (;;) {
        unsigned long ran = fi_queue_run_all(&me->pinned);
        me->stats.filaments_run += ran;
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
    if (AO_load(&fi_lib.any_used) == 0)
        return 0;
    for (int k = 0; k < fi_lib.nservers; ++k)
        if (fi_queue_nonempty(&fi_lib.servers[k].any))
            return 1;
    return 0;
}

/* Idle and active again: take from the inbox, or steal F_ANY filaments. */
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
        size_t avail = fi_queue_length(&victim->any);
        if (avail == 0)
            continue;
        me->stats.steal_attempts++;
        struct fi_desc *first;
        size_t got = fi_queue_claim(&victim->any, avail > 1 ? avail / 2 : 1, &first);
        if (got > 0) {
            fi_count_at_work(me);
            me->stats.steals += got;
            unsigned long start = fi_trace_now(me->trace);
            run_claimed(me, first, got);
            fi_trace_span(me->trace, FI_TRACE_STEAL, start, victim->index, (long)got, 1, 0);
            return 1;
        }
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
                                               .end_run = end_run, .discard = discard_queued,
                                               .free = queues_free };
