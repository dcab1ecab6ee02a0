/*
 * quicksort-cg.c - the coarse-grain quicksort [paper §3.4]: one pthread
 * per server and a central bag of tasks [Korch and Rauber §3.1], a FIFO of
 * subarrays under one mutex.  A thread takes the oldest subarray (the
 * largest), partitions it, puts the larger part back in the bag and goes
 * on with the smaller, until what it keeps has at most `cutoff` elements,
 * which it sorts sequentially.  The run ends when every element is in a
 * subarray that has been sorted: the threads count them under the mutex.
 */
#include <pthread.h>

#include "app.h"
#include "quicksort.h"

struct range {
    long lo, hi;
};

struct bag {
    pthread_mutex_t lock;
    pthread_cond_t wake;  /* a subarray was put, or the last one is sorted */
    struct range *ring;   /* the FIFO: ring[(head + k) % cap], k < count */
    size_t head, count, cap;
    long sorted;          /* elements in sorted subarrays */
    struct qsort *s;
};

/* Under the lock: put a subarray at the back, growing the ring if full. */
static void put(struct bag *g, long lo, long hi)
{
    if (g->count == g->cap) {
        g->ring = app_ring_grow(g->ring, g->head, g->cap, sizeof *g->ring);
        g->head = 0;
        g->cap *= 2;
    }
    g->ring[(g->head + g->count) % g->cap] = (struct range){ lo, hi };
    g->count++;
}

static void worker(int t, void *arg)
{
    struct bag *g = arg;
    long *a = g->s->a, n = g->s->n, cutoff = g->s->cutoff;
    for (;;) {
        pthread_mutex_lock(&g->lock);
        while (g->count == 0 && g->sorted < n)
            pthread_cond_wait(&g->wake, &g->lock);
        if (g->count == 0) {
            pthread_mutex_unlock(&g->lock);
            return;
        }
        struct range r = g->ring[g->head];
        g->head = (g->head + 1) % g->cap;
        g->count--;
        pthread_mutex_unlock(&g->lock);

        while (r.hi - r.lo > cutoff) {
            long p = qsort_partition(a, r.lo, r.hi);
            struct range left = { r.lo, p }, right = { p, r.hi };
            int keep_left = p - r.lo <= r.hi - p;
            struct range give = keep_left ? right : left;
            r = keep_left ? left : right;
            pthread_mutex_lock(&g->lock);
            put(g, give.lo, give.hi);
            pthread_cond_signal(&g->wake);
            pthread_mutex_unlock(&g->lock);
        }
        qsort_seq_sort(a, r.lo, r.hi);
        pthread_mutex_lock(&g->lock);
        g->sorted += r.hi - r.lo;
        if (g->sorted == n)
            pthread_cond_broadcast(&g->wake);
        pthread_mutex_unlock(&g->lock);
    }
}

void qsort_cg(void *problem, int servers)
{
    struct bag *g = app_alloc(1, sizeof *g);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->wake, NULL);
    g->cap = 64;
    g->ring = app_alloc(g->cap, sizeof *g->ring);
    g->s = problem;
    put(g, 0, g->s->n);
    app_threads_run(servers, worker, g);
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->lock);
    app_free(g->ring);
    app_free(g);
}
