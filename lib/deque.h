/*
 * deque.h - the per-server array deque of fork/join filaments [paper §4.5]
 * and its fast paths.
 *
 * A split deque (after Lace, van Dijk and van de Pol 2014): the slots
 * [top, split) are public and thieves claim the oldest by a CAS on the word
 * `ts` = top << 32 | split; the slots [split, bottom) are private to the
 * owner, which pushes and pops them with plain stores: no fence and no
 * atomic read-modify-write on the fast path.  A thief that finds nothing
 * public sets `splitreq`; the owner, at its next fork, publishes half of
 * its private slots.  A stolen filament's completion is a release store of
 * `done` into its slot, which the owner's join waits for: only children
 * that ran on another server touch a shared word.
 *
 * doc/design.md, "Fork/join", has the states and the proof sketch.
 */
#ifndef FI_DEQUE_H
#define FI_DEQUE_H

struct fi_task {
    void (*call)(struct fi_task *t);  /* runs fn on the arguments, keeps a result */
    void (*fn)(void);                 /* f_func, f_long_func, ...: call knows which */
    long i;
    long j;
    void *arg;
    f_value result;
    volatile AO_t done;   /* a thief has run it: release store, owner acquires */
    volatile AO_t thief;  /* 1 + index of the server that stole it, 0 if none */
};
_Static_assert(sizeof(struct fi_task) == 64, "a fork/join slot is one cache line on x86-64");

/* A typed fork that was pruned: its result, and the deque bottom when it was made. */
struct fi_pruned {
    f_value result;
    size_t bottom;
};

struct fi_deque {
    /* Thieves and the owner: CAS. */
    _Alignas(FI_CACHE_LINE) volatile AO_t ts;
    /* Thieves set it when nothing is public; the owner reads it at each fork. */
    _Alignas(FI_CACHE_LINE) volatile AO_t splitreq;
    /* Owner only.  The fast paths compare bottom with two bounds that the
     * slow paths keep up to date (fi_forkjoin_bounds in forkjoin.c):
     *   fork pushes while bottom < limit (deque full, pruning, new peak);
     *   join and sync pop while bottom > floor (public slots, the running
     *   filament's first child, a pruned typed result). */
    _Alignas(FI_CACHE_LINE) size_t bottom;
    size_t limit;
    size_t floor;
    size_t split;   /* the owner's copy of ts's split: only the owner moves it */
    size_t base;    /* the first slot of the running filament's children */
    size_t cap;
    struct fi_task *slot;
    struct fi_pruned *pruned;  /* results of pruned typed forks, in fork order */
    size_t npruned, pruned_cap;
    /* Statistics, kept here to stay on the owner's line. */
    size_t peak;
    unsigned long forks, pruned_forks, ran;
};

#define FI_TS(top, split) (((AO_t)(top) << 32) | (AO_t)(split))
#define FI_TS_TOP(ts) ((size_t)((ts) >> 32))
#define FI_TS_SPLIT(ts) ((size_t)((ts)&0xffffffffu))

#endif /* FI_DEQUE_H */
