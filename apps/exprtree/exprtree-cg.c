/*
 * exprtree-cg.c - the matrix-expression tree with pthreads and a bag of
 * tasks: one thread per server, one stack of ready tasks under a mutex.
 *
 * A task is one block of rows of one product: each product is cut into
 * min(n, threads) blocks, the strips of app_strip_begin(), so that even the
 * root, alone at the top of the tree, keeps every thread busy.  A
 * product's blocks become ready when both of its children are complete;
 * at the start, those of the products of two leaves.  The thread that
 * completes a product's last block counts it off its parent, and if that
 * was the parent's second child, pushes the parent's blocks.  The run is
 * over when the root's last block is done; threads that find the bag empty
 * before that sleep on a condition variable.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>

#include "app.h"
#include "exprtree.h"

struct cg {
    const struct exprtree *t;
    long blocks;          /* per product */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    long *stack;          /* ready tasks, node * blocks + block; room for all of them */
    long top;
    long *blocks_left;    /* per node: blocks not yet done */
    int *children_left;   /* per node: children not yet complete */
    int done;             /* the root is complete */
};

/* Under the lock. */
static void push_product(struct cg *cg, long k)
{
    for (long b = cg->blocks - 1; b >= 0; --b)
        cg->stack[cg->top++] = k * cg->blocks + b;
}

static void thread(int unused, void *arg)
{
    struct cg *cg = arg;
    const struct exprtree *t = cg->t;
    pthread_mutex_lock(&cg->lock);
    for (;;) {
        while (cg->top == 0 && !cg->done)
            pthread_cond_wait(&cg->wake, &cg->lock);
        if (cg->top == 0)
            break;
        long task = cg->stack[--cg->top], k = task / cg->blocks, b = task % cg->blocks;
        pthread_mutex_unlock(&cg->lock);

        long end = app_strip_begin((int)b + 1, t->n, (int)cg->blocks);
        for (long i = app_strip_begin((int)b, t->n, (int)cg->blocks); i < end; ++i)
            exprtree_row(t, k, i);

        pthread_mutex_lock(&cg->lock);
        if (--cg->blocks_left[k] > 0)
            continue;
        if (k == 1) {
            cg->done = 1;
            pthread_cond_broadcast(&cg->wake);
        } else if (--cg->children_left[k / 2] == 0) {
            push_product(cg, k / 2);
            pthread_cond_broadcast(&cg->wake);
        }
    }
    pthread_mutex_unlock(&cg->lock);
}

void exprtree_cg(void *problem, int servers)
{
    const struct exprtree *t = problem;
    long leaves = t->leaves;
    struct cg *cg = app_alloc(1, sizeof *cg);
    cg->t = t;
    cg->blocks = t->n < servers ? t->n : servers;
    pthread_mutex_init(&cg->lock, NULL);
    pthread_cond_init(&cg->wake, NULL);
    cg->stack = app_alloc((size_t)((leaves - 1) * cg->blocks), sizeof *cg->stack);
    cg->blocks_left = app_alloc((size_t)leaves, sizeof *cg->blocks_left);
    cg->children_left = app_alloc((size_t)leaves, sizeof *cg->children_left);
    for (long k = 1; k < leaves; ++k) {
        cg->blocks_left[k] = cg->blocks;
        cg->children_left[k] = 2 * k < leaves ? 2 : 0;
    }
    for (long k = leaves - 1; k >= leaves / 2; --k)  /* products of two leaves */
        push_product(cg, k);
    app_threads_run(servers, thread, cg);
    app_free(cg->children_left);
    app_free(cg->blocks_left);
    app_free(cg->stack);
    pthread_cond_destroy(&cg->wake);
    pthread_mutex_destroy(&cg->lock);
    app_free(cg);
}
