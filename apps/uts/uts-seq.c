/*
 * uts-seq.c - the sequential unbalanced tree search: a depth-first
 * recursion, no parallel constructs [Olivier].
 *
 * uts_visit() is also the sequential code of the peers below their cutoff.
 */
#include "uts.h"

void uts_visit(const struct uts_tree *t, const unsigned char *parent, long k, long depth,
               struct uts_result *r)
{
    unsigned char d[UTS_DIGEST];
    uts_digest(t, parent, k, depth, d);
    long n = uts_children(t, d, depth);
    r->nodes++;
    if (n == 0)
        uts_leaf(r, depth);
    for (long c = 0; c < n; ++c)
        uts_visit(t, d, c, depth + 1, r);
}

struct uts_result uts_slots_sum(const struct uts_slot *slot, int n)
{
    struct uts_result r = { 0, 0, 0 };
    for (int t = 0; t < n; ++t) {
        r.nodes += slot[t].r.nodes;
        r.leaves += slot[t].r.leaves;
        if (slot[t].r.depth > r.depth)
            r.depth = slot[t].r.depth;
    }
    return r;
}

void uts_seq(void *problem, int servers)
{
    struct uts *p = problem;
    struct uts_result r = { 0, 0, 0 };
    uts_visit(&p->tree, NULL, 0, 0, &r);
    p->r = r;
}
