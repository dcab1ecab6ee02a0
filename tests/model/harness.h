/*
 * harness.h - included after the library's files: what the checks call in
 * place of the system's clock, sched_yield and the library's allocator,
 * and the library's state set up as f_initialize would (lifecycle.c).
 *
 * Each clock read is 2^40 ns after the last, so that every timed stage of
 * a wait (wait.c) ends at its first look and a waiter goes to sleep; but
 * a server's CPU clock (FI_MODEL_CPU_CLOCK, model.h) stands still at 0, as
 * a late server's does while it is off its core (handoff.c).
 */
#ifndef FI_MODEL_HARNESS_H
#define FI_MODEL_HARNESS_H

static _Thread_local unsigned long fi_model_ns;

int clock_gettime(clockid_t id, struct timespec *t)
{
    if (id == FI_MODEL_CPU_CLOCK) {
        t->tv_sec = 0;
        t->tv_nsec = 0;
        return 0;
    }
    fi_model_ns += 1UL << 40;
    t->tv_sec = (time_t)(fi_model_ns / 1000000000UL);
    t->tv_nsec = (long)(fi_model_ns % 1000000000UL);
    return 0;
}

int sched_yield(void)
{
    return 0;
}

/* The allocator (lib/memory.c): the main thread allocates, before the
 * servers' threads start; nothing is freed. */
static _Alignas(64) unsigned char fi_model_pool[1 << 14];
static size_t fi_model_used;

void *fi_alloc(size_t size)
{
    void *p = &fi_model_pool[fi_model_used];
    fi_model_used += (size + 63) & ~(size_t)63;
    assert(fi_model_used <= sizeof fi_model_pool);
    return p;
}

/* A queue's chunks (lib/queue.c): memory as a reused block may come, with
 * a bad pointer in each of the chunk's three header words (next, head,
 * tail).  Relaxed stores by the allocating thread, before its own: a
 * reader that has not synchronized with the chunk's set-up may read them,
 * and one that follows the pointer is reported by GenMC. */
#define FI_MODEL_POISON 8UL

void *fi_alloc_big(size_t size)
{
    volatile unsigned long *p = fi_alloc(size);
    for (int k = 0; k < 3; ++k)
        __atomic_store_n(&p[k], FI_MODEL_POISON, __ATOMIC_RELAXED);
    return (void *)p;
}

void fi_free_big(void *p, size_t size) { (void)p, (void)size; }
void *fi_alloc_aligned(size_t size) { return fi_alloc(size); }
void *fi_alloc_zeroed_pages(size_t size) { return fi_alloc(size); }
void fi_free(void *p) { (void)p; }
void fi_free_pages(void *p, size_t size) { (void)p, (void)size; }

#define FI_MODEL_MAX_SERVERS 4

static struct fi_server fi_model_servers[FI_MODEL_MAX_SERVERS];

/* n servers, their waitset (and, by the checks that include deque.c, their deques). */
static void fi_model_init(int n)
{
    assert(n <= FI_MODEL_MAX_SERVERS);
    fi_lib.nservers = n;
    fi_lib.servers = fi_model_servers;
    for (int k = 0; k < n; ++k) {
        fi_model_servers[k].index = k;
        fi_model_servers[k].steal_seed = (unsigned)k;
    }
    if (fi_waitset_init(&fi_lib.servers_wait) < 0)
        abort();
}

/* Run fn(server k) on a thread of its own for k in [first, n), and
 * fn(server 0) on this one if first is 1; then join them. */
static void fi_model_run(int n, int first, void *(*fn)(void *))
{
    pthread_t t[FI_MODEL_MAX_SERVERS];
    for (int k = first; k < n; ++k)
        if (pthread_create(&t[k], NULL, fn, &fi_model_servers[k]) != 0)
            abort();
    if (first == 1)
        fn(&fi_model_servers[0]);
    for (int k = first; k < n; ++k)
        pthread_join(t[k], NULL);
}

#endif /* FI_MODEL_HARNESS_H */
