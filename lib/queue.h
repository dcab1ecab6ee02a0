/*
 * queue.h - per-server array queues of filament descriptors [paper §4.2].
 *
 * A queue is a list of chunks, each an array; enqueue and dequeue step an
 * index.  It grows by adding a chunk (each twice the last), never by moving
 * a descriptor, so a filament may run straight from its slot while others
 * are being added behind it.  Chunks stay until fi_queue_reset().
 *
 * One pusher per queue: the owner during a run, the main thread between runs
 * (the run's start publishes what main wrote).  Takers: the owner alone for
 * a private queue (fi_queue_take); any server for a shared one
 * (fi_queue_claim), which claims with a CAS on the chunk's head.
 */
#ifndef FI_QUEUE_H
#define FI_QUEUE_H

#include "base.h"

struct fi_chunk {
    volatile AO_t next;   /* struct fi_chunk *, published with release by the pusher */
    volatile AO_t head;   /* first slot not yet taken (CAS in a shared queue) */
    volatile AO_t tail;   /* slots published (release store by the pusher) */
    size_t cap;
    struct fi_desc slot[];
};

struct fi_queue {
    volatile AO_t first;     /* struct fi_chunk *: the oldest chunk that may hold work */
    struct fi_chunk *last;   /* the pusher's chunk */
    struct fi_chunk *origin; /* the list's first chunk, kept for reuse */
};

FI_HIDDEN FI_MUST_CHECK int fi_queue_init(struct fi_queue *q);
FI_HIDDEN void fi_queue_destroy(struct fi_queue *q);
FI_HIDDEN void fi_queue_reset(struct fi_queue *q);
FI_HIDDEN FI_MUST_CHECK int fi_queue_push_slow(struct fi_queue *q, const struct fi_desc *d);
FI_HIDDEN struct fi_desc *fi_queue_take_slow(struct fi_queue *q);
FI_HIDDEN struct fi_chunk *fi_queue_next_chunk(struct fi_queue *q, struct fi_chunk *c);
/* The chunks' sizes from now on: the first min, doubling up to max. */
FI_HIDDEN void fi_queue_chunks(size_t min, size_t max);
FI_HIDDEN size_t fi_queue_claim(struct fi_queue *q, size_t max, struct fi_desc **first);
FI_HIDDEN int fi_queue_nonempty(const struct fi_queue *q);
FI_HIDDEN size_t fi_queue_length(const struct fi_queue *q);

/* Where a queue ends now, and cutting it back there (per-server creation
 * undoes a failed call so, create.c).  Pusher only, between runs. */
struct fi_queue_mark {
    struct fi_chunk *chunk;  /* the pusher's chunk */
    size_t tail;
};
FI_HIDDEN struct fi_queue_mark fi_queue_end(const struct fi_queue *q);
FI_HIDDEN void fi_queue_cut(struct fi_queue *q, struct fi_queue_mark m,
                            void (*discard)(f_func fn, void *arg));

/* Is q empty now?  Its oldest chunk is taken up to its tail and is not full,
 * and a pusher goes on to a next chunk only from a full one.  A snapshot, as
 * fi_queue_nonempty, in three loads instead of a call and a walk: false may
 * also mean a used-up full chunk with nothing behind it.  The pusher only
 * (scheduler.h: a server's own queues), so that `first` needs no acquire:
 * whatever chunk a taker moved it to, we made it, or the main thread did
 * before the run that we are in. */
static inline int fi_queue_empty_now(const struct fi_queue *q)
{
    const struct fi_chunk *c = (const struct fi_chunk *)AO_load(&q->first);
    AO_t t = AO_load(&c->tail);
    return AO_load(&c->head) == t && t < c->cap;
}

/* Publish d at the tail: F_OK or F_ENOMEM.  Pusher only. */
static inline FI_MUST_CHECK int fi_queue_push(struct fi_queue *q, const struct fi_desc *d)
{
    struct fi_chunk *c = q->last;
    AO_t t = AO_load(&c->tail);
    if (FI_LIKELY(t < c->cap)) {
        c->slot[t] = *d;
        /* Release: the descriptor before the index that shows it; pairs
         * with the acquire in fi_queue_claim. */
        AO_store_release(&c->tail, t + 1);
        return F_OK;
    }
    return fi_queue_push_slow(q, d);
}

/* The oldest descriptor of a private queue, or NULL.  Owner only, with
 * whatever orders its pushes before (an inbox's lock, the run's start):
 * nobody else moves `first`, so that it needs no acquire. */
static inline struct fi_desc *fi_queue_take(struct fi_queue *q)
{
    struct fi_chunk *c = (struct fi_chunk *)AO_load(&q->first);
    AO_t h = AO_load(&c->head);
    if (FI_LIKELY(h < AO_load(&c->tail))) {
        AO_store(&c->head, h + 1);
        return &c->slot[h];
    }
    return fi_queue_take_slow(q);
}

/*
 * Call the filaments of [d, end) in order.  Eight per step: for an empty
 * filament the loop's own step and test would otherwise be a large part of
 * the cost of running it [paper §4.3: 6 instructions between two
 * filaments]; per filament they cost 3/8 of an instruction so.
 */
static inline void fi_run_descs(const struct fi_desc *d, const struct fi_desc *end)
{
    /* Counting the steps down leaves the loop an add, a decrement and a
     * branch; comparing d with end took five instructions per step. */
    for (size_t steps = (size_t)(end - d) / 8; steps > 0; --steps, d += 8) {
        d[0].fn(d[0].i, d[0].j, d[0].arg);
        d[1].fn(d[1].i, d[1].j, d[1].arg);
        d[2].fn(d[2].i, d[2].j, d[2].arg);
        d[3].fn(d[3].i, d[3].j, d[3].arg);
        d[4].fn(d[4].i, d[4].j, d[4].arg);
        d[5].fn(d[5].i, d[5].j, d[5].arg);
        d[6].fn(d[6].i, d[6].j, d[6].arg);
        d[7].fn(d[7].i, d[7].j, d[7].arg);
    }
    for (; d != end; ++d)
        d->fn(d->i, d->j, d->arg);
}

/*
 * Run every descriptor of a private queue, oldest first, including those
 * the filaments add while it runs; return how many ran.  Owner only, and
 * not re-entrant: nothing else takes from q meanwhile.
 */
static inline unsigned long fi_queue_run_all(struct fi_queue *q)
{
    unsigned long ran = 0;
    /* Relaxed: as in fi_queue_take, nobody else moves `first`. */
    for (struct fi_chunk *c = (struct fi_chunk *)AO_load(&q->first);;) {
        AO_t h = AO_load(&c->head), t;
        while (h < (t = AO_load(&c->tail))) {
            AO_store(&c->head, t);
            ran += t - h;
            fi_run_descs(&c->slot[h], &c->slot[t]);
            h = t;
        }
        struct fi_chunk *n = h == c->cap ? fi_queue_next_chunk(q, c) : NULL;
        if (n == NULL)
            return ran;
        c = n;
    }
}

#endif /* FI_QUEUE_H */
