/*
 * taskpool-cg.c - the synthetic algorithm with a central task pool
 * [Korch §3, §7.2]: one pthread per server and one bag of tasks, a stack
 * of task arguments under one mutex.  A thread pops A(i), does its work,
 * and pushes A(i-2) and A(i-1) where the algorithm creates them.
 *
 * Termination detection: `pending` counts the tasks pushed and not yet
 * finished.  A thread that finds the stack empty while tasks are pending
 * sleeps on a condition variable (a pending task may still create work);
 * when the last pending task finishes, the stack is empty and nothing can
 * create more, so its thread wakes the sleepers and every thread leaves.
 * Finishing a task and popping the next are one critical section, so a
 * task costs two lock acquisitions: its push, and its pop together with
 * the finish of the thread's previous task.  Each thread counts its own
 * tasks and work in a padded slot.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "taskpool.h"

struct bag {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    long *stack;   /* task arguments; the top is stack[top - 1] */
    size_t top, cap;
    long pending;  /* tasks pushed and not finished */
    int sleepers;  /* threads waiting on `wake` */
};

/* A thread's totals, alone on its cache line. */
struct slot {
    _Alignas(APP_CACHE_LINE) struct taskpool_count c;
};

struct cg {
    struct bag bag;
    long f;
    struct slot *slot;
};

/* Under the lock. */
static void push_locked(struct bag *b, long i)
{
    if (b->top == b->cap) {
        long *grown = realloc(b->stack, 2 * b->cap * sizeof *grown);
        if (grown == NULL)
            app_fail("out of memory (task stack of %zu)", 2 * b->cap);
        b->stack = grown;
        b->cap *= 2;
    }
    b->stack[b->top++] = i;
    b->pending++;
}

static void push(struct bag *b, long i)
{
    pthread_mutex_lock(&b->lock);
    push_locked(b, i);
    if (b->sleepers > 0)
        pthread_cond_signal(&b->wake);
    pthread_mutex_unlock(&b->lock);
}

/* Finish the previous task, if any, and take the next: 1, or 0 when the
 * computation is over. */
static int finish_and_take(struct bag *b, int finished, long *i)
{
    int more = 1;
    pthread_mutex_lock(&b->lock);
    if (finished && --b->pending == 0 && b->sleepers > 0)
        pthread_cond_broadcast(&b->wake);
    while (b->top == 0 && b->pending > 0) {
        b->sleepers++;
        pthread_cond_wait(&b->wake, &b->lock);
        b->sleepers--;
    }
    if (b->top > 0)
        *i = b->stack[--b->top];
    else
        more = 0;  /* nothing queued, nothing pending: done */
    pthread_mutex_unlock(&b->lock);
    return more;
}

static void thread(int t, void *arg)
{
    struct cg *cg = arg;
    struct bag *b = &cg->bag;
    long f = cg->f, i;
    struct taskpool_count c = { 0, 0 };
    for (int finished = 0; finish_and_take(b, finished, &i); finished = 1) {
        uint64_t x = taskpool_first(i, f);
        if (i > 0) {
            push(b, i - 2);
            x = taskpool_middle(x, f);
            push(b, i - 1);
            x = taskpool_last(x, f);
        }
        c.tasks++;
        c.work += x;
    }
    cg->slot[t].c = c;
}

void taskpool_cg(void *problem, int servers)
{
    struct taskpool *tp = problem;
    struct cg *cg = app_alloc(1, sizeof *cg);
    struct bag *b = &cg->bag;
    cg->f = tp->f;
    cg->slot = app_alloc((size_t)servers, sizeof *cg->slot);
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->wake, NULL);
    b->cap = (size_t)(2 * tp->k + 64);
    b->stack = malloc(b->cap * sizeof *b->stack);
    if (b->stack == NULL)
        app_fail("out of memory (task stack of %zu)", b->cap);
    for (long i = tp->k - 1; i >= 0; --i)  /* the initial tasks; A(0) on top */
        push_locked(b, i);
    app_threads_run(servers, thread, cg);
    struct taskpool_count total = { 0, 0 };
    for (int t = 0; t < servers; ++t) {
        total.tasks += cg->slot[t].c.tasks;
        total.work += cg->slot[t].c.work;
    }
    tp->result[0] = total.tasks;
    tp->result[1] = total.work;
    free(b->stack);
    pthread_cond_destroy(&b->wake);
    pthread_mutex_destroy(&b->lock);
    app_free(cg->slot);
    app_free(cg);
}
