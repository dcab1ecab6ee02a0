/*
 * exprtree-fil.c - the matrix-expression tree with fork/join filaments
 * only [paper §5]: no locks, no other synchronization.  A node forks both
 * of its subtrees (leaves need nothing), joins them, and computes its
 * product.  The root is forked from the main thread; f_parallel() joins it.
 *
 * --impl=fil also forks the product: one filament per row, then a join,
 * the data parallelism that Chores had (it is what keeps the servers busy
 * in the 8-leaf tree, whose root is one seventh of the work).  With
 * automatic pruning, row forks become plain calls while a server has work
 * enough, so the 128-leaf tree, whose subtrees keep the servers busy, pays
 * little for them.
 *
 * --impl=fil-tree forks only the subtrees and computes each product with
 * a loop: the functional parallelism alone.
 */
#include <filaments.h>

#include "app.h"
#include "exprtree.h"

static void row(long k, long i, void *t)
{
    exprtree_row(t, k, i);
}

/* Node k; fork_rows in j. */
static void node(long k, long fork_rows, void *arg)
{
    const struct exprtree *t = arg;
    if (2 * k < t->leaves) {  /* the children are products too */
        if (f_fork(node, 2 * k, fork_rows, arg) < 0)
            node(2 * k, fork_rows, arg);
        if (f_fork(node, 2 * k + 1, fork_rows, arg) < 0)
            node(2 * k + 1, fork_rows, arg);
        app_check_f(f_join(), "f_join");
    }
    if (fork_rows) {
        for (long i = 0; i < t->n; ++i)
            if (f_fork(row, k, i, arg) < 0)
                row(k, i, arg);
        app_check_f(f_join(), "f_join");
    } else {
        for (long i = 0; i < t->n; ++i)
            exprtree_row(t, k, i);
    }
}

static void run(struct exprtree *t, int servers, int fork_rows)
{
    app_check_f(f_initialize(servers), "f_initialize");
    app_check_f(f_fork(node, 1, fork_rows, t), "f_fork");
    app_check_f(f_parallel(), "f_parallel");
    f_finalize();
}

void exprtree_fil(void *problem, int servers)
{
    run(problem, servers, 1);
}

void exprtree_fil_tree(void *problem, int servers)
{
    run(problem, servers, 0);
}
