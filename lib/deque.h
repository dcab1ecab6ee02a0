/*
 * deque.h - the per-server array deque of fork/join filaments [paper §4.5].
 *
 * A split deque (after Lace, van Dijk and van de Pol 2014): the slots
 * [top, split) are public and thieves claim the oldest by a CAS on the word
 * `ts` = top << 32 | split; the slots [split, bottom) are private to the
 * owner, which pushes and pops them with plain stores: no fence and no
 * atomic read-modify-write on the fast path.  A thief that finds nothing
 * public sets `splitreq` and zeroes the owner's fork limit; the owner's
 * next fork then takes the slow path and publishes half of its private
 * slots.  A stolen filament's completion is a release store of
 * `done` into its slot, which the owner's join waits for: only children
 * that ran on another server touch a shared word.
 *
 * The owner's part (struct f_deque_, filaments/inline-private.h) is what
 * the inline fast paths of f_fork, f_join and the typed forks read and
 * write, in the server's thread; its bounds and the marks in the slots'
 * words keep them off everything else: a fork at bottom >= limit and a pop
 * of a marked slot go through fork.c and forkjoin.c, which keep both right
 * (fi_forkjoin_bounds, the marks of publish and of a filament's base).  doc/design.md,
 * "Fork/join", has the states.
 */
#ifndef FI_DEQUE_H
#define FI_DEQUE_H

#include "base.h"

_Static_assert(sizeof(struct f_task_) == 64, "a fork/join slot is one cache line on x86-64");
_Static_assert(sizeof(AO_t) == sizeof(unsigned long) && sizeof(AO_t) == sizeof(void *),
               "f_task_.done_, thief_ and f_deque_.limit_, peak_ are AO_t");
_Static_assert(sizeof(void (*)(void)) == sizeof(unsigned long) && sizeof(long) == 8,
               "a slot's word holds a function's address below 2^56 and its kind above");
_Static_assert(offsetof(struct f_task_, j_) == offsetof(struct f_task_, word_) + sizeof(long) &&
                   offsetof(struct f_task_, arg_) == offsetof(struct f_task_, i_) + sizeof(long),
               "a fork stores word_ and a zero j_, i_ and a zero arg_, as pairs (f_store_pair_)");
_Static_assert(offsetof(struct f_task_, i_) == offsetof(struct f_task_, j_) + sizeof(long),
               "j_, i_ and arg_ are one run of bytes, where a typed task's structure travels "
               "(F_TASK_SLOT_, struct f_words_)");

/* A slot's word, taken apart (filaments/inline-private.h, struct f_task_). */
static inline unsigned long fi_task_kind(const struct f_task_ *t)
{
    return t->word_ >> F_KIND_SHIFT_ & F_KIND_BITS_;
}

/* The mark that keeps the inline pops off a slot (F_MARK_,
 * filaments/inline-private.h): the owner's alone to set and take off, while
 * the slot is private, or before it publishes it. */
static inline int fi_task_marked(const struct f_task_ *t)
{
    return (t->word_ >> F_KIND_SHIFT_ & F_MARK_) != 0;
}

static inline void fi_task_mark(struct f_task_ *t)
{
    t->word_ |= (F_MARK_ | F_NOT_UNTYPED_) << F_KIND_SHIFT_;
}

/* An untyped slot's word is its function again, with no top bit. */
static inline void fi_task_unmark(struct f_task_ *t)
{
    t->word_ &= ~(F_MARK_ << F_KIND_SHIFT_);
    if (fi_task_kind(t) == F_KIND_VOID_)
        t->word_ &= F_FN_MASK_;
}

static inline void (*fi_task_fn(const struct f_task_ *t))(void)
{
    return (void (*)(void))(t->word_ & F_FN_MASK_);
}

/* A typed fork pruned in a full deque, which has no slot for its result:
 * the result, and its forker's base_ (whose syncs alone may take it). */
struct fi_pruned {
    f_value result;
    size_t base;
};

struct fi_deque {
    /* Thieves and the owner: CAS. */
    _Alignas(FI_CACHE_LINE) volatile AO_t ts;
    /* A thief that finds nothing public sets it, then zeroes own->limit_ so
     * that the owner's next fork goes through the slow path and publishes. */
    _Alignas(FI_CACHE_LINE) volatile AO_t splitreq;
    /* F_PRUNE_AUTO: the pieces thieves took from here in this run, and
     * those of them that ran FI_PRUNE_WORTH_NS or more (publish.c,
     * adapt_depth).  Thieves add. */
    volatile AO_t stolen_pieces, stolen_big;
    /* The owner's part, which the inline fast paths use: the server thread's
     * f_deque_ while its fast paths are open, else `home` (deque.c,
     * fi_forkjoin_open).  Thieves zero its limit_ and peak_. */
    struct f_deque_ *own;
    /* Owner only. */
    _Alignas(FI_CACHE_LINE) struct f_deque_ home;
    size_t split;   /* the owner's copy of ts's split: only the owner moves it */
    size_t cap;
    struct fi_pruned *pruned;  /* typed results pruned in a full deque, in fork order */
    size_t npruned, pruned_cap;
    size_t peak;
    /* F_PRUNE_AUTO: the children held before a fork is pruned, and when the
     * last thief's request was answered (publish.c, adapt_depth). */
    size_t prune_depth;
    unsigned long answered_ns;
    /* The forks pushed here are the sum of the slots' counts (below peak)
     * and forks_moved (struct f_task_ says when a slot counts); the
     * fork/join filaments this server ran are derived, so that no pop
     * counts them: pushed + carried - lost - live + taken (stats.c). */
    unsigned long forks_moved;
    unsigned long lost;     /* slots pushed here that a thief ran */
    unsigned long taken;    /* slots taken from other deques and run here */
    unsigned long carried;  /* live slots when the statistics were reset */
};

/* The owner's cursors as slot indexes, in which the library keeps its books. */
static inline size_t fi_slot_index(const struct fi_deque *d, const struct f_task_ *t)
{
    return (size_t)(t - d->own->slot_);
}

static inline size_t fi_bottom(const struct fi_deque *d)
{
    return fi_slot_index(d, d->own->bottom_);
}

static inline size_t fi_base(const struct fi_deque *d)
{
    return fi_slot_index(d, d->own->base_);
}

/* Does the deque hold fork/join work: slots, or pruned typed results kept
 * aside?  Owner only. */
static inline int fi_deque_holds_work(const struct fi_deque *d)
{
    return fi_bottom(d) > 0 || d->npruned > 0;
}

#define FI_TS(top, split) (((AO_t)(top) << 32) | (AO_t)(split))
#define FI_TS_TOP(ts) ((size_t)((ts) >> 32))
#define FI_TS_SPLIT(ts) ((size_t)((ts)&0xffffffffu))

/* The slot's atomic words as libatomic_ops sees them. */
static inline volatile AO_t *fi_task_done(struct f_task_ *t)
{
    return (volatile AO_t *)&t->done_;
}

static inline volatile AO_t *fi_task_thief(struct f_task_ *t)
{
    return (volatile AO_t *)&t->thief_;
}

static inline volatile AO_t *fi_deque_limit(struct fi_deque *d)
{
    return (volatile AO_t *)&d->own->limit_;
}

static inline volatile AO_t *fi_deque_peak(struct fi_deque *d)
{
    return (volatile AO_t *)&d->own->peak_;
}

/* The oldest of the children this server holds: the oldest slot that no
 * thief has claimed, public or private (top).  Thieves move it up at any
 * time, so to the owner it is a hint. */
static inline size_t fi_deque_oldest_held(const struct fi_deque *d)
{
    return FI_TS_TOP(AO_load(&d->ts));
}

/*
 * Mark the slot below the running filament's first child, if it is
 * private and no child lies above it, so that no sync through a frame at
 * base pops a slot of another filament's (doc/design.md, "Fork/join").
 * 1 if this call marked it: the caller may take the mark off again.
 */
static inline int fi_deque_guard_base(struct fi_deque *d)
{
    size_t base = fi_base(d);
    if (base == 0 || base - 1 < d->split || fi_bottom(d) != base)
        return 0;
    struct f_task_ *below = &d->own->slot_[base - 1];
    if (fi_task_marked(below))
        return 0;
    fi_task_mark(below);
    return 1;
}

#endif /* FI_DEQUE_H */
