/*
 * quad-cg.c - the coarse-grain adaptive quadratures [paper §3.3]: one
 * pthread per server, each keeping its part of the area in its own slot.
 *
 * static: the interval cut into `servers` equal segments, one per thread,
 * each integrated by the sequential recursion; the main thread adds the
 * areas in segment order.  Its area is that of the sequential recursion
 * over the same segments, not the whole recursion's (quad.h).
 *
 * bag: a central bag of tasks [paper §3.3; Korch and Rauber §3.1], a FIFO
 * of intervals under one mutex.  A thread takes the oldest interval (the
 * largest), applies one level of the rule, and either has a leaf or puts
 * the right half back in the bag and keeps the left half, and goes on with
 * it.  Pruning: if the bag holds at least 2 * servers tasks once the right
 * half is in, the thread integrates the half it keeps by the sequential
 * recursion.  The bag refills itself (each task taken puts one back) until
 * the halves are leaves; then it drains, and the last pieces are split
 * finely among the threads.
 *
 * The bag's area is bitwise the sequential recursion's: every task is a
 * node of the recursion's tree, holding its parent and its side; a node's
 * area is its leaf value, its pruned recursion's, or its two children's
 * areas added as left + right by whichever thread completes the second
 * child.  A node waits for its children with a count of 2; the thread whose
 * decrement takes it to 0 adds them, and goes on up.  The count's full
 * decrement releases this child's area and, for the second, acquires the
 * first's.  The root's completion ends the run.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <atomic_ops.h>

#include "app.h"
#include "quad.h"

/* ---------------------------------------------------------------- static */

struct segments {
    const struct quad *q;
    int parts;
    struct app_slot *area;
    long *intervals;  /* one per thread, APP_CACHE_LINE apart */
};

#define LONGS_PER_LINE (APP_CACHE_LINE / sizeof(long))

static void segment(int t, void *arg)
{
    struct segments *s = arg;
    long n = 0;
    s->area[t].v = quad_segment(s->q, t, s->parts, &n);
    s->intervals[t * LONGS_PER_LINE] = n;
}

void quad_static(void *problem, int servers)
{
    struct quad *q = problem;
    struct segments s = { q, servers, app_alloc((size_t)servers, sizeof *s.area),
                          app_alloc((size_t)servers * LONGS_PER_LINE, sizeof(long)) };
    app_threads_run(servers, segment, &s);
    double area = s.area[0].v;
    long n = s.intervals[0];
    for (int t = 1; t < servers; ++t) {
        area += s.area[t].v;
        n += s.intervals[t * LONGS_PER_LINE];
    }
    q->r.area = area;
    q->r.intervals = n;
    app_free(s.area);
    app_free(s.intervals);
}

/* ------------------------------------------------------------------- bag */

/* A node of the recursion's tree: a task, then a parent waiting for its halves. */
struct node {
    struct quad_interval iv;
    struct node *parent;  /* NULL: the root */
    int side;             /* 0: the left half of its parent, 1: the right */
    volatile AO_t pending;  /* halves not yet complete: each decrements once */
    double area[2];       /* the halves' areas, each written by the half's completer */
    long intervals[2];
};

struct bag {
    pthread_mutex_t lock;
    pthread_cond_t nonempty;  /* a task was put, or the run is done */
    struct node **ring;       /* the FIFO: ring[(head + k) % cap], k < count */
    size_t head, count, cap;
    size_t prune;             /* prune the kept half at this many tasks in the bag */
    int done;                 /* the root is complete */
    const struct quad *q;
    struct quad_result r;
};

static struct node *new_node(struct node *parent, int side, double a, double b, double fa,
                             double fb, double area)
{
    struct node *n = malloc(sizeof *n);
    if (n == NULL)
        app_fail("out of memory (bag task)");
    n->iv = (struct quad_interval){ a, b, fa, fb, area };
    n->parent = parent;
    n->side = side;
    AO_store(&n->pending, 2);
    return n;
}

/* Under the lock: put a task at the back, growing the ring if full. */
static size_t put(struct bag *g, struct node *n)
{
    if (g->count == g->cap) {
        g->ring = app_ring_grow(g->ring, g->head, g->cap, sizeof *g->ring);
        g->head = 0;
        g->cap *= 2;
    }
    g->ring[(g->head + g->count) % g->cap] = n;
    return ++g->count;
}

/* Node n has area `area` over `intervals` leaves: hand it to its parent,
 * and complete the parent too if n was its second half. */
static void complete(struct bag *g, struct node *n, double area, long intervals)
{
    for (;;) {
        struct node *p = n->parent;
        if (p == NULL) {
            free(n);
            pthread_mutex_lock(&g->lock);
            g->r.area = area;
            g->r.intervals = intervals;
            g->done = 1;
            pthread_cond_broadcast(&g->nonempty);
            pthread_mutex_unlock(&g->lock);
            return;
        }
        p->area[n->side] = area;
        p->intervals[n->side] = intervals;
        free(n);
        /* Full: release our half's area to the other completer; if we are
         * the second, acquire the first's. */
        if (AO_fetch_and_sub1_full(&p->pending) != 1)
            return;
        area = p->area[0] + p->area[1];
        intervals = p->intervals[0] + p->intervals[1];
        n = p;
    }
}

/* A task: one level of the rule per loop, keeping the left half. */
static void work(struct bag *g, struct node *n)
{
    double eps = g->q->epsilon;
    for (;;) {
        const struct quad_interval *iv = &n->iv;
        double m, fm, left, right;
        if (quad_split(iv->a, iv->b, iv->fa, iv->fb, iv->area, eps, &m, &fm, &left, &right)) {
            complete(g, n, left + right, 1);
            return;
        }
        struct node *l = new_node(n, 0, iv->a, m, iv->fa, fm, left);
        struct node *r = new_node(n, 1, m, iv->b, fm, iv->fb, right);
        pthread_mutex_lock(&g->lock);
        size_t count = put(g, r);
        pthread_cond_signal(&g->nonempty);
        pthread_mutex_unlock(&g->lock);
        if (count >= g->prune) {
            long k = 0;
            double area = quad_rec(l->iv.a, l->iv.b, l->iv.fa, l->iv.fb, l->iv.area, eps, &k);
            complete(g, l, area, k);
            return;
        }
        n = l;
    }
}

static void worker(int t, void *arg)
{
    struct bag *g = arg;
    for (;;) {
        pthread_mutex_lock(&g->lock);
        while (g->count == 0 && !g->done)
            pthread_cond_wait(&g->nonempty, &g->lock);
        if (g->count == 0) {
            pthread_mutex_unlock(&g->lock);
            return;
        }
        struct node *n = g->ring[g->head];
        g->head = (g->head + 1) % g->cap;
        g->count--;
        pthread_mutex_unlock(&g->lock);
        work(g, n);
    }
}

void quad_bag(void *problem, int servers)
{
    struct quad *q = problem;
    struct bag *g = app_alloc(1, sizeof *g);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->nonempty, NULL);
    g->cap = 64;
    g->ring = app_alloc(g->cap, sizeof *g->ring);
    g->prune = 2 * (size_t)servers;
    g->q = q;
    struct quad_interval iv;
    quad_interval(q, 0, 1, &iv);
    put(g, new_node(NULL, 0, iv.a, iv.b, iv.fa, iv.fb, iv.area));
    app_threads_run(servers, worker, g);
    q->r = g->r;
    pthread_cond_destroy(&g->nonempty);
    pthread_mutex_destroy(&g->lock);
    app_free(g->ring);
    app_free(g);
}
