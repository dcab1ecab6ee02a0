/*
 * queue.c - the slow paths of the array queues [paper §4.2]: growth by
 * chunks, moving to the next chunk, claiming from a shared queue.
 * The fast paths are static inline in queue.h.
 */
#include "queue.h"
#include "memory.h"

/* Descriptors in a queue's first chunk, and at most in one: FI_CHUNK_MIN
 * and FI_CHUNK_MAX, or FILAMENTS_TEST_CHUNK's (env.c).  Set by the main
 * thread in f_initialize (rtc.c) before any queue exists. */
static size_t chunk_min = FI_CHUNK_MIN, chunk_max = FI_CHUNK_MAX;

void fi_queue_chunks(size_t min, size_t max)
{
    chunk_min = min;
    chunk_max = max;
}

static size_t chunk_bytes(size_t cap)
{
    return sizeof(struct fi_chunk) + cap * sizeof(struct fi_desc);
}

static struct fi_chunk *new_chunk(size_t cap)
{
    struct fi_chunk *c = fi_alloc_big(chunk_bytes(cap));
    if (c == NULL)
        return NULL;
    AO_store(&c->next, 0);
    AO_store(&c->head, 0);
    AO_store(&c->tail, 0);
    c->cap = cap;
    return c;
}

static struct fi_chunk *next_of(const struct fi_chunk *c)
{
    /* Acquire: the chunk's fields before its link; pairs with push_slow. */
    return (struct fi_chunk *)AO_load_acquire(&c->next);
}

int fi_queue_init(struct fi_queue *q)
{
    struct fi_chunk *c = new_chunk(chunk_min);
    if (c == NULL)
        return F_ENOMEM;
    AO_store(&q->first, (AO_t)c);
    q->last = q->origin = c;
    return F_OK;
}

/*
 * Empty the queue, keeping its chunks for the next run: a program that
 * creates a million filaments per f_parallel would otherwise fault the
 * same memory in again each time.  Nobody else may look at q.
 */
void fi_queue_reset(struct fi_queue *q)
{
    for (struct fi_chunk *c = q->origin; c != NULL; c = next_of(c)) {
        AO_store(&c->head, 0);
        AO_store(&c->tail, 0);
    }
    AO_store(&q->first, (AO_t)q->origin);
    q->last = q->origin;
}

void fi_queue_destroy(struct fi_queue *q)
{
    struct fi_chunk *c = q->origin;
    while (c != NULL) {
        struct fi_chunk *n = next_of(c);
        fi_free_big(c, chunk_bytes(c->cap));
        c = n;
    }
    q->origin = q->last = NULL;
    AO_store(&q->first, 0);
}

/* The last chunk is full: go on in the next one, kept from an earlier run
 * or linked now, twice as big up to chunk_max. */
int fi_queue_push_slow(struct fi_queue *q, const struct fi_desc *d)
{
    struct fi_chunk *c = next_of(q->last);
    if (c == NULL) {
        size_t cap = q->last->cap < chunk_max / 2 ? q->last->cap * 2 : chunk_max;
        if ((c = new_chunk(cap)) == NULL)
            return F_ENOMEM;
        /* Release: the empty chunk before the link that shows it to takers;
         * pairs with next_of(). */
        AO_store_release(&q->last->next, (AO_t)c);
    }
    c->slot[0] = *d;
    /* Release: the descriptor before the index that shows it. */
    AO_store_release(&c->tail, 1);
    q->last = c;
    return F_OK;
}

/* The current chunk is used up: move `first` on if a later chunk exists. */
struct fi_chunk *fi_queue_next_chunk(struct fi_queue *q, struct fi_chunk *c)
{
    struct fi_chunk *n = next_of(c);
    if (n == NULL || AO_load(&c->head) < c->cap)
        return NULL;
    /* Any taker may move the hint; a stale value only costs a retry.
     * Release: n as we acquired it (next_of), for whoever loads first. */
    AO_compare_and_swap_release(&q->first, (AO_t)c, (AO_t)n);
    return n;
}

/* Relaxed: as in fi_queue_take, nobody else moves `first`. */
struct fi_desc *fi_queue_take_slow(struct fi_queue *q)
{
    struct fi_chunk *c = (struct fi_chunk *)AO_load(&q->first);
    while ((c = fi_queue_next_chunk(q, c)) != NULL) {
        AO_t h = AO_load(&c->head);
        if (h < AO_load(&c->tail)) {
            AO_store(&c->head, h + 1);
            return &c->slot[h];
        }
    }
    return NULL;
}

/*
 * Claim up to `max` of the oldest descriptors of a shared queue; return how
 * many, and the first in *first (they are consecutive in one chunk).  The
 * CAS on head decides between the owner and thieves; the acquire on tail
 * makes the claimed descriptors visible.
 */
size_t fi_queue_claim(struct fi_queue *q, size_t max, struct fi_desc **first)
{
    struct fi_chunk *c = (struct fi_chunk *)AO_load_acquire(&q->first);
    for (;;) {
        AO_t h = AO_load(&c->head);
        AO_t t = AO_load_acquire(&c->tail);
        if (h < t) {
            size_t n = t - h < max ? t - h : max;
            if (AO_compare_and_swap(&c->head, h, h + n)) {
                *first = &c->slot[h];
                return n;
            }
            continue;
        }
        /* Empty for now; if the chunk is full and used up, try the next. */
        if (t < c->cap)
            return 0;
        struct fi_chunk *n = fi_queue_next_chunk(q, c);
        if (n == NULL)
            return 0;
        c = n;
    }
}

/* Is there work to claim?  A hint: it may change as soon as it is read. */
int fi_queue_nonempty(const struct fi_queue *q)
{
    for (const struct fi_chunk *c = (struct fi_chunk *)AO_load_acquire(&q->first); c != NULL;
         c = next_of(c))
        if (AO_load(&c->head) < AO_load(&c->tail))
            return 1;
    return 0;
}

/* Descriptors not yet taken: exact when nobody takes concurrently, else a hint. */
size_t fi_queue_length(const struct fi_queue *q)
{
    size_t n = 0;
    for (const struct fi_chunk *c = (struct fi_chunk *)AO_load_acquire(&q->first); c != NULL;
         c = next_of(c))
    {
        AO_t h = AO_load(&c->head);   /* head first: tail only grows past it */
        AO_t t = AO_load(&c->tail);
        n += t > h ? t - h : 0;
    }
    return n;
}

struct fi_queue_mark fi_queue_end(const struct fi_queue *q)
{
    return (struct fi_queue_mark){ q->last, AO_load(&q->last->tail) };
}

/* Drop every descriptor pushed since m was taken (discard() sees each
 * first), and go on pushing from m.  The chunks linked since stay, empty,
 * for reuse. */
void fi_queue_cut(struct fi_queue *q, struct fi_queue_mark m, void (*discard)(f_func fn, void *arg))
{
    for (struct fi_chunk *c = m.chunk; c != NULL; c = next_of(c)) {
        size_t from = c == m.chunk ? m.tail : 0, tail = AO_load(&c->tail);
        for (size_t k = from; k < tail; ++k)
            discard(c->slot[k].fn, c->slot[k].arg);
        if (AO_load(&c->head) > from)
            AO_store(&c->head, from);
        AO_store(&c->tail, from);
    }
    q->last = m.chunk;
}
