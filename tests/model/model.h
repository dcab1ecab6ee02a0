/*
 * model.h - what the model checks need around the library's own sources
 * (doc/model-check.md).  Each check is one C file that includes this, then
 * the library's .c files it exercises, unchanged, then its client threads;
 * GenMC compiles it with -DFI_MODEL_CHECK (lib/atomic.h: the AO_ calls as
 * __atomic builtins, in x86's mapping with -DFI_MODEL_X86, else in
 * libatomic_ops' generic one) and explores every execution that RC11 or
 * IMM allows.
 *
 * What GenMC cannot run, replaced here and only here:
 *  - thread-locals (f_deque_, fi_self): GenMC keeps one copy per thread at
 *    one address, so a thief that follows the owner's d->own would read its
 *    own copy.  They are plain globals: one server per check forks, and its
 *    children fork nothing, so that the thieves never read them.
 *  - inline assembly (the sync's compiler barrier, F_REREAD_, and the x86
 *    bound test): dropped, and the bound read as ThreadSanitizer builds
 *    read it, a relaxed atomic load (filaments/inline-private.h,
 *    __SANITIZE_THREAD__).
 *  - condition variables (GenMC has none): a wait is a spin on a counter
 *    that a broadcast bumps, both under the waitset's mutex, as POSIX's
 *    cond_wait unlocks, waits for a broadcast that comes after, relocks.
 *    GenMC's -check-liveness reports a wait that no broadcast ends: a lost
 *    wake-up.
 *  - vector types, which GenMC's metadata pass cannot name, and
 *    __builtin_constant_p, which it cannot run: every fork stores its words
 *    one by one (F_ZERO_ is 0; f_pair_ is a long, so F_PAIRS_ZERO_ is 0,
 *    filaments/inline-private.h).
 *  - memset, memcpy and memmove, and the copies of structures that the
 *    compiler makes calls of them, which GenMC takes apart only where the
 *    types on both sides agree: loops of word stores.
 *  - thread attributes (the servers' stack size, server.c): none.
 *  - clocks, sched_yield and the allocator (harness.h).
 *  - the spins of a wait: FI_SPIN_POLLS and FI_YIELD_POLLS (tunables.h) 2
 *    and 1, so that each stage runs and the checker sees a few polls.
 */
#ifndef FI_MODEL_H
#define FI_MODEL_H

#include <assert.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The clock of a server thread's CPU time (handoff.c): it stands still
 * (harness.h), as a late server's does while it is off its core. */
#define FI_MODEL_CPU_CLOCK ((clockid_t)-1000)

#define FI_SPIN_POLLS 2
#define FI_YIELD_POLLS 1

#define __SANITIZE_THREAD__ 1
#define __thread
#define tls_model(model) unused
#define __asm__(...)
#define vector_size(bytes) aligned(8)
#define __builtin_constant_p(x) 0

/* Word by word (every copy and fill of the library's is of whole, aligned
 * words): volatile, so that the compiler does not make them calls of
 * themselves. */
__attribute__((noinline)) void *memset(void *p, int c, size_t n)
{
    assert(c == 0 && n % sizeof(unsigned long) == 0);
    for (volatile unsigned long *w = p; n > 0; n -= sizeof *w)
        *w++ = 0;
    return p;
}

__attribute__((noinline)) void *memcpy(void *restrict to, const void *restrict from, size_t n)
{
    assert(n % sizeof(unsigned long) == 0);
    volatile unsigned long *w = to;
    const volatile unsigned long *r = from;
    for (; n > 0; n -= sizeof *w)
        *w++ = *r++;
    return to;
}

__attribute__((noinline)) void *memmove(void *to, const void *from, size_t n)
{
    assert(n % sizeof(unsigned long) == 0);
    volatile unsigned long *w = to;
    const volatile unsigned long *r = from;
    if (w <= r)
        for (; n > 0; n -= sizeof *w)
            *w++ = *r++;
    else
        for (size_t k = n / sizeof *w; k-- > 0;)
            w[k] = r[k];
    return to;
}

/* Thread attributes, which GenMC's pthread.h lacks: the servers' stack
 * size (server.c) is the system's business, not the protocol's. */
#define pthread_attr_init(attr) ((void)(attr), 0)
#define pthread_attr_setstacksize(attr, bytes) ((void)(attr), (void)(bytes), 0)
#define pthread_attr_destroy(attr) ((void)(attr), 0)
#define pthread_create(thread, attr, fn, arg) pthread_create((thread), NULL, (fn), (arg))

typedef struct {
    volatile unsigned long gen;
} pthread_cond_t;

static inline int pthread_cond_init(pthread_cond_t *c, const void *attr)
{
    (void)attr;
    __atomic_store_n(&c->gen, 0, __ATOMIC_RELAXED);
    return 0;
}

static inline int pthread_cond_destroy(pthread_cond_t *c)
{
    (void)c;
    return 0;
}

/* Under the mutex, as every broadcast of the library's is (wait.c). */
static inline int pthread_cond_broadcast(pthread_cond_t *c)
{
    __atomic_fetch_add(&c->gen, 1, __ATOMIC_RELAXED);
    return 0;
}

/* The mutex orders our read of gen before a broadcast that takes it after
 * us, whose bump we then wait for; a broadcast before we took it we have
 * no need of: the caller's re-check under the mutex saw its publication. */
static inline int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    unsigned long gen = __atomic_load_n(&c->gen, __ATOMIC_RELAXED);
    pthread_mutex_unlock(m);
    while (__atomic_load_n(&c->gen, __ATOMIC_RELAXED) == gen)
        ;
    pthread_mutex_lock(m);
    return 0;
}

#endif /* FI_MODEL_H */
