/*
 * uts.h - the unbalanced tree search of Olivier, Huan, Liu, Prins, Dinan,
 * Sadayappan and Tseng, "UTS: An Unbalanced Tree Search Benchmark" (LCPC
 * 2006): count the nodes of a tree whose shape is not known until it is
 * explored, and is so unbalanced that no static division of it works.
 *
 * The tree is defined by a splittable random stream [Olivier]: every
 * node carries a 20-byte SHA-1 digest (sha1.c, FIPS 180-4).  The root's
 * is the SHA-1 of 16 zero bytes and the 4-byte big-endian seed; child k's
 * is the SHA-1 of its parent's digest and k (4 bytes, big-endian).  A
 * node's random number is its digest's last 4 bytes, big-endian, less
 * the top bit: u = that / 2^31, uniform in [0, 1).  So every node's number
 * of children depends on its digest alone, and every program explores the
 * same tree in any order.  Two shapes [Olivier]:
 *
 *   binomial   the root has b0 children; every other node has m children
 *              with probability q, else none.  With m q just under 1 the
 *              tree is deep, narrow and wildly unbalanced: the paper's T3
 *              (b0 = 2000, m = 8, q = 0.124875, seed 42) has 4 112 897
 *              nodes, 3 599 034 leaves and depth 1 572.
 *   geometric  ("fixed": the same law at every depth) the number of
 *              children is floor(log(1 - u) / log(1 - p)), p = 1 / (1 + b0),
 *              geometric with mean b0, for nodes at depth < d; none at d.
 *              The paper's T1 (b0 = 4, d = 10, seed 19) has 4 130 071
 *              nodes, 3 305 118 leaves and depth 10.
 *
 * --size scales the tree.  Binomial: q = (1 - 1 / size) / m, so that size
 * is 1 / (1 - m q), the nodes expected below each of the root's children,
 * and the tree has about b0 * size nodes (unevenly: the subtrees' sizes
 * have a heavy tail); T3 is size 1000.  Geometric: the depth d, about
 * b0^d nodes; T1 is size 10.  0 is the paper's tree.  The result is the
 * node count, the leaf count and the depth of the deepest leaf: the same
 * for every program.
 *
 * Included by the C++ peer (uts-tbb.cc), hence the extern "C".
 */
#ifndef UTS_H
#define UTS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "app-stats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UTS_DIGEST 20  /* bytes of a SHA-1 digest */

/* sha1.c: the digest of n bytes, and a check against FIPS 180's examples
 * (1 ok; 0, with a line on stderr, wrong). */
void sha1(const void *message, size_t n, unsigned char digest[UTS_DIGEST]);
int sha1_selftest(void);

enum uts_shape { UTS_BINOMIAL, UTS_GEOMETRIC };

/* The tree's parameters. */
struct uts_tree {
    long shape;       /* enum uts_shape */
    long size;        /* binomial: 1 / (1 - m q); geometric: the depth of the last level */
    long b0;          /* binomial: the root's children; geometric: the mean */
    long m;           /* binomial: the children of a node that has any */
    double q;         /* binomial: the probability that a node has children */
    double log_keep;  /* geometric: log(1 - p), p = 1 / (1 + b0) */
    long seed;
};

/* The result: compared bitwise by --verify and digested. */
struct uts_result {
    long nodes, leaves, depth;
};

struct uts {
    struct uts_tree tree;
    struct uts_result r;
    struct app_stats stats;  /* Filaments programs: the library's counters over the run */
};

/* A thread's or server's counts, on a cache line of its own (the slots
 * come from app_alloc, line-aligned; app.h is C only): the parallel
 * programs count leaves and depth (and all but fil-typed the nodes) where
 * they visit them, as the UTS programs keep per-thread statistics. */
#define UTS_CACHE_LINE 64
struct uts_slot {
    struct uts_result r;
    char pad[UTS_CACHE_LINE - sizeof(struct uts_result)];
};

/* What a node hands its children: its digest, and what they all share. */
struct uts_frame {
    unsigned char digest[UTS_DIGEST];
    const struct uts_tree *tree;
    struct uts_slot *slot;  /* one per thread or server */
};

static inline void uts_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* The digest of child k of the node with digest `parent`, at `depth`;
 * at depth 0, of the root (parent unused). */
static inline void uts_digest(const struct uts_tree *t, const unsigned char *parent, long k,
                              long depth, unsigned char digest[UTS_DIGEST])
{
    unsigned char m[UTS_DIGEST + 4] = { 0 };
    if (depth == 0) {
        uts_be32(m + 16, (uint32_t)t->seed);
        sha1(m, 20, digest);
    } else {
        for (int b = 0; b < UTS_DIGEST; ++b)
            m[b] = parent[b];
        uts_be32(m + UTS_DIGEST, (uint32_t)k);
        sha1(m, sizeof m, digest);
    }
}

/* The number of children of the node with this digest, at this depth. */
static inline long uts_children(const struct uts_tree *t, const unsigned char *d, long depth)
{
    uint32_t r = ((uint32_t)d[16] << 24 | (uint32_t)d[17] << 16 | (uint32_t)d[18] << 8 | d[19]) &
                 0x7fffffffu;
    double u = (double)r * 0x1.0p-31;
    if (t->shape == UTS_BINOMIAL)
        return depth == 0 ? t->b0 : u < t->q ? t->m : 0;
    return depth < t->size ? (long)floor(log(1.0 - u) / t->log_keep) : 0;
}

/* A leaf at this depth, counted into r. */
static inline void uts_leaf(struct uts_result *r, long depth)
{
    r->leaves++;
    if (depth > r->depth)
        r->depth = depth;
}

/* uts-seq.c: the sequential recursion on the subtree of child k of
 * `parent` at `depth` (the root: depth 0), counted into r.  Every
 * program's sequential code. */
void uts_visit(const struct uts_tree *t, const unsigned char *parent, long k, long depth,
               struct uts_result *r);

/* uts-seq.c: the slots' counts added up (depth: the largest). */
struct uts_result uts_slots_sum(const struct uts_slot *slot, int n);

/* The peers' task cutoff: nodes at depth >= app_peer_depth(UTS_PEER_LEVELS,
 * servers) run uts_visit(). */
#define UTS_PEER_LEVELS 8

/* The programs: run(problem, servers), as struct app_impl wants. */
void uts_seq(void *problem, int servers);
void uts_fil(void *problem, int servers);        /* uts-fil.c */
void uts_fil_typed(void *problem, int servers);
void uts_omp(void *problem, int servers);        /* uts-omp.c: libgomp, or libomp in uts-llvm */
void uts_omp_fine(void *problem, int servers);
void uts_tbb(void *problem, int servers);        /* uts-tbb.cc */

#ifdef __cplusplus
}
#endif
#endif /* UTS_H */
