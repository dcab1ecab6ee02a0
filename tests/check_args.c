/*
 * check_args.c - suite "args": filaments with typed arguments (F_TASK_n,
 * F_FORK and its kin; F_TASK(3)), fork/join [paper §2.3, §4.5].
 *
 * Every child is numbered; it recomputes from its number what its parent
 * passed and counts a mismatch, and counts its own run, so that an
 * argument that arrived changed, a child that never ran or one that ran
 * twice shows.  Both ways arguments travel are covered: in the slot's
 * three words (up to 24 bytes: three words, six ints), and in a block
 * (more: long doubles, a structure by value, six words, nine and ten
 * arguments).  Untyped and
 * typed (long, double, pointer) tasks, with and without a sequential
 * version, typed roots (F_RUN) among them, at 1, 2, 4 and 8 servers
 * (fj.h), with pruning auto, off and at every fork (1).
 */
#include "fj.h"
#include "../bench/floor.h"    /* floor_knapsack_task, struct item */

#include <limits.h>
#include <stdatomic.h>

#define N 200                 /* children per parent */
static atomic_int ran[N];     /* runs of child k, fn and seq together */
static atomic_int bad;        /* children whose arguments differed */
static atomic_long seq_calls; /* runs of the sequential versions */
static int marks[N];          /* what pointer arguments point at */

static const long modes[] = { F_PRUNE_AUTO, 0, 1 };
#define NMODES ((int)(sizeof modes / sizeof *modes))

static void reset(void)
{
    for (int k = 0; k < N; ++k)
        atomic_store(&ran[k], 0);
    atomic_store(&bad, 0);
    atomic_store(&seq_calls, 0);
}

/* Child k ran, and its arguments were (ok) as sent. */
static void note(long k, int ok)
{
    FJ_REQUIRE(k >= 0 && k < N);
    atomic_fetch_add(&ran[k], 1);
    if (!ok)
        atomic_fetch_add(&bad, 1);
}

/* Each child ran once, with its arguments intact. */
static void check_all_ran_once(void)
{
    for (int k = 0; k < N; ++k) {
        int runs = atomic_load(&ran[k]);
        ck_assert_msg(runs == 1, "child %d ran %d times", k, runs);
    }
    int wrong = atomic_load(&bad);
    ck_assert_msg(wrong == 0, "%d children had arguments other than those sent", wrong);
}

/* ------------------------------------------------------------ untyped */

typedef long (*pick_fn)(long);
static long twice(long x) { return 2 * x; }

struct big {
    double d[3];
    short s;
    unsigned char tag[7];
};

static struct big big_of(long k)
{
    struct big b = { { k * 0.5, -k * 0.25, 1e300 / (k + 1) }, (short)-k, { 0 } };
    for (int t = 0; t < 7; ++t)
        b.tag[t] = (unsigned char)(k + t);
    return b;
}

static int same_big(struct big a, struct big b)
{
    return a.d[0] == b.d[0] && a.d[1] == b.d[1] && a.d[2] == b.d[2] && a.s == b.s &&
           memcmp(a.tag, b.tag, sizeof a.tag) == 0;
}

/* Three words: in the slot. */
F_TASK_3(void, words3, long, k, double, x, int *, p)
{
    note(k, x == k / 8.0 && p == &marks[k]);
}

/* Six ints, 24 bytes: in the slot too. */
F_TASK_6(void, ints6, int, k, int, a, int, b, int, c, int, d, int, e)
{
    note(k, a == -k && b == k * 3 && c == INT_MAX - k && d == INT_MIN + k && e == 7);
}

/* Six of every size, a long double among them: a block. */
F_TASK_6(void, mixed6, char, c, short, s, long, k, float, f, long double, ld, _Bool, odd)
{
    note(k, c == (char)(k % 100) && s == (short)(k - 1000) && f == (float)k / 4 &&
                ld == (long double)k / 3 && odd == (k % 2 == 1));
}

/* Ten, as BOTS's FFT tasks take nine: a block. */
F_TASK_10(void, ten, long, k, int, a, char, c, const int *, p, double, x, short, s, float, f,
          unsigned char, u, long long, ll, struct big, b)
{
    note(k, a == (int)-k && c == (char)(k % 100) && p == &marks[k] && x == k / 8.0 &&
                s == (short)(k - 1000) && f == (float)k / 4 && u == (unsigned char)(k + 7) &&
                ll == -k * 1000003LL && same_big(b, big_of(k)));
}

/* A structure by value and a function pointer: a block. */
F_TASK_3(void, byvalue, long, k, struct big, b, pick_fn, pick)
{
    note(k, same_big(b, big_of(k)) && pick == twice && pick(k) == 2 * k);
}

/* mixed6's sequential version: the same arguments, counted apart. */
F_TASK_6(void, mixed6_seq, char, c, short, s, long, k, float, f, long double, ld, _Bool, odd)
{
    atomic_fetch_add(&seq_calls, 1);
    F_CALL(mixed6, c, s, k, f, ld, odd);
}

F_TASK_3(void, words3_seq, long, k, double, x, int *, p)
{
    atomic_fetch_add(&seq_calls, 1);
    F_CALL(words3, k, x, p);
}

/* Which task the parent forks N of, and how. */
enum { WORDS3, INTS6, MIXED6, BYVALUE, WORDS3_SEQ, MIXED6_SEQ, TEN, NSHAPES };

static void fork_one(int shape, long k)
{
    int rc = F_OK;
    switch (shape) {
    case WORDS3: rc = F_FORK(words3, k, k / 8.0, &marks[k]); break;
    case INTS6:
        rc = F_FORK(ints6, (int)k, (int)-k, (int)k * 3, INT_MAX - (int)k, INT_MIN + (int)k, 7);
        break;
    case MIXED6:
        rc = F_FORK(mixed6, (char)(k % 100), (short)(k - 1000), k, (float)k / 4,
                    (long double)k / 3, k % 2 == 1);
        break;
    case BYVALUE: rc = F_FORK(byvalue, k, big_of(k), twice); break;
    case WORDS3_SEQ: rc = F_FORK_SEQ(words3, words3_seq, k, k / 8.0, &marks[k]); break;
    case MIXED6_SEQ:
        rc = F_FORK_SEQ(mixed6, mixed6_seq, (char)(k % 100), (short)(k - 1000), k, (float)k / 4,
                        (long double)k / 3, k % 2 == 1);
        break;
    case TEN:
        rc = F_FORK(ten, k, (int)-k, (char)(k % 100), &marks[k], k / 8.0, (short)(k - 1000),
                    (float)k / 4, (unsigned char)(k + 7), -k * 1000003LL, big_of(k));
        break;
    }
    FJ_REQUIRE(rc == F_OK);
}

/* A parent that forks N children of one shape, half of them from a nested
 * filament, and joins. */
static void nested(long shape, long from, void *unused)
{
    for (long k = from; k < N; ++k)
        fork_one((int)shape, k);
    FJ_REQUIRE(f_join() == F_OK);
}

static void parent(long shape, long unused, void *unused2)
{
    for (long k = 0; k < N / 2; ++k)
        fork_one((int)shape, k);
    FJ_REQUIRE(f_fork(nested, shape, N / 2, NULL) == F_OK);
    FJ_REQUIRE(f_join() == F_OK);
}

/* Loop index: the servers (fj.h) and the shape (i / 4).  With a
 * sequential version, seq ran for the pruned forks of children: as many
 * as the library pruned, less the nested parent's fork where that one was
 * pruned too; never with pruning off. */
START_TEST(test_args_untyped_intact_once)
{
    int shape = fj_variant(_i);
    FJ_START(_i);
    for (int m = 0; m < NMODES; ++m) {
        struct f_stats st;
        f_set_prune(modes[m]);
        reset();
        ck_assert_int_eq(f_reset_stats(), F_OK);
        ck_assert_int_eq(f_fork(parent, shape, 0, NULL), F_OK);
        ck_assert_int_eq(fj_parallel(), F_OK);
        check_all_ran_once();
        ck_assert_int_eq(f_get_stats(F_ANY, &st), F_OK);
        ck_assert_uint_eq(st.forks, N + 2);
        if (shape == WORDS3_SEQ || shape == MIXED6_SEQ) {
            ck_assert_uint_le((unsigned long)atomic_load(&seq_calls), st.pruned_forks);
            ck_assert_uint_ge((unsigned long)atomic_load(&seq_calls) + 1, st.pruned_forks);
        } else {
            ck_assert_int_eq(atomic_load(&seq_calls), 0);
        }
        if (modes[m] == 0)
            ck_assert_int_eq(atomic_load(&seq_calls), 0);
    }
}
END_TEST

/* -------------------------------------------------------------- typed */

/* fib with its depth and a table it reads through a pointer: three words. */
static const long fibs[] = { 0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144 };

F_TASK_3(long, tfib, long, n, int, depth, const long *, table)
{
    FJ_REQUIRE(table == fibs && depth >= 0);
    if (n < 13)
        return table[n];
    F_FORK_LONG(&fr, tfib, n - 1, depth + 1, table);
    long b = F_CALL(tfib, fr, n - 2, depth + 1, table);
    return f_sync_long(&fr, tfib) + b;
}

/* tfib with nine arguments, eight of them constant: a block for each
 * fork, typed. */
F_TASK_9(long, tfib9, long, n, char, c, short, sh, int, i, long, l, float, f, double, d,
         const int *, p, unsigned char, u)
{
    FJ_REQUIRE(c == 'c' && sh == -2 && i == 3 && l == -4 && f == 0.5f && d == 0.25 &&
               p == &marks[1] && u == 200);
    if (n < 2)
        return n;
    F_FORK_LONG(&fr, tfib9, n - 1, c, sh, i, l, f, d, p, u);
    long b = F_CALL(tfib9, fr, n - 2, c, sh, i, l, f, d, p, u);
    return f_sync_long(&fr, tfib9) + b;
}

static long fib_plain(long n)
{
    return n < 2 ? n : fib_plain(n - 1) + fib_plain(n - 2);
}

/* The sum of 1/(k+1) over [lo, hi), split in halves, with a long double
 * scale and a pointer, 40 bytes: a block for each fork. */
F_TASK_4(double, harmonic, long, lo, long, hi, long double, scale, const int *, p)
{
    FJ_REQUIRE(scale == 0.5L && p == &marks[3]);
    if (hi - lo == 1) {
        note(lo, 1);
        return 1.0 / (double)(lo + 1);
    }
    long mid = lo + (hi - lo) / 2;
    FJ_REQUIRE(F_FORK_DOUBLE(&fr, harmonic, lo, mid, scale, p) == F_OK);
    FJ_REQUIRE(F_FORK_DOUBLE(&fr, harmonic, mid, hi, scale, p) == F_OK);
    double b = f_sync_double(&fr, harmonic);
    return f_sync_double(&fr, harmonic) + b;
}

static double harmonic_plain(long lo, long hi)
{
    if (hi - lo == 1)
        return 1.0 / (double)(lo + 1);
    long mid = lo + (hi - lo) / 2;
    double b = harmonic_plain(mid, hi);
    return harmonic_plain(lo, mid) + b;
}

/* A pointer result: child k returns &marks[k], with a sequential version. */
F_TASK_2(ptr, mark_seq, long, k, short, check)
{
    atomic_fetch_add(&seq_calls, 1);
    note(k, check == (short)~k);
    return &marks[k];
}

F_TASK_2(ptr, mark, long, k, short, check)
{
    note(k, check == (short)~k);
    return &marks[k];
}

F_TASK_1(long, marks_all, long, n)
{
    for (long k = 0; k < n; ++k)
        FJ_REQUIRE(F_FORK_PTR_SEQ(&fr, mark, mark_seq, k, (short)~k) == F_OK);
    long wrong = 0;
    for (long k = n - 1; k >= 0; --k)
        wrong += f_sync_ptr(&fr, mark) != &marks[k];
    return wrong;
}

/* Lace's knapsack as its users port it, bench/floor's knapsack-task
 * (bench/floor-task.c): a pointer and three ints, which its child loads
 * from its frame (F_TASK(3)), its fork checked with a fallback call, its
 * base cases returning early. */
static struct item items[] = { { 51, 29 }, { 36, 17 }, { 83, 42 }, { 65, 34 }, { 88, 45 },
                               { 54, 30 }, { 26, 14 }, { 36, 20 }, { 36, 21 }, { 40, 25 },
                               { 19, 12 }, { 17, 11 }, { 24, 16 }, { 12, 8 },  { 9, 7 },
                               { 5, 4 } };
#define NITEMS ((int)(sizeof items / sizeof *items))

static long knapsack_plain(const struct item *e, int c, int n, int v)
{
    if (c < 0)
        return INT_MIN;
    if (n == 0 || c == 0)
        return v;
    long without = knapsack_plain(e + 1, c, n - 1, v);
    long with = knapsack_plain(e + 1, c - e->weight, n - 1, v + e->value);
    return with > without ? with : without;
}

/* A long double alone, 16 bytes aligned to 16: it fits in the words but
 * not at the slot's alignment, so it travels as words. */
F_TASK_1(double, halves, long double, x)
{
    if (x < 1.0L)
        return (double)x;
    F_FORK_DOUBLE(&fr, halves, x / 2);
    double b = F_CALL(halves, fr, x / 2 - 0.25L);
    return f_sync_double(&fr, halves) + b;
}

static double halves_plain(long double x)
{
    if (x < 1.0L)
        return (double)x;
    double b = halves_plain(x / 2 - 0.25L);
    return halves_plain(x / 2) + b;
}

/* Loop index: the servers and the deque (fj.h; FILAMENTS_DEQUE 2, 3 or
 * the default, in turn), so that children are synced inline, stolen, run
 * by the library in a full deque (at its top, the slot above the last)
 * and forked from the main thread (tfib, three words: loaded from its
 * frame too), where each runs at once with a frame of its own: the same
 * values as the plain recursions. */
START_TEST(test_args_typed_in_slot)
{
    static const char *deque[] = { "2", "3", NULL };
    const char *slots = deque[_i % 3];
    if (slots != NULL)
        ck_assert_int_eq(setenv("FILAMENTS_DEQUE", slots, 1), 0);
    FJ_START(_i / 3);
    long best = knapsack_plain(items, 100, NITEMS, 0);
    for (int m = 0; m < NMODES; ++m) {
        long r = -1;
        double h = -1;
        f_set_prune(modes[m]);
        ck_assert_int_eq(floor_knapsack_task(items, 100, NITEMS, &r), F_OK);
        ck_assert_msg(r == best, "FILAMENTS_DEQUE=%s: knapsack %ld, not %ld",
                      slots != NULL ? slots : "default", r, best);
        ck_assert_int_eq(F_RUN(halves, &h, 300.0L), F_OK);
        ck_assert(h == halves_plain(300.0L));
    }
    f_frame fr = f_frame_here();
    ck_assert_int_eq(F_FORK_LONG(&fr, tfib, 20, 0, fibs), F_OK);
    ck_assert_int_eq(F_FORK_DOUBLE(&fr, halves, 40.0L), F_OK);
    ck_assert(f_sync_double(&fr, halves) == halves_plain(40.0L));
    ck_assert_int_eq(f_sync_long(&fr, tfib), fib_plain(20));
}
END_TEST

/* Loop index: the servers (fj.h).  Values bitwise those of the plain
 * recursions; each leaf of harmonic and each child of marks_all once. */
START_TEST(test_args_typed_values)
{
    FJ_START(_i);
    for (int m = 0; m < NMODES; ++m) {
        long r = -1, wrong = -1;
        f_set_prune(modes[m]);
        ck_assert_int_eq(F_RUN(tfib, &r, 24, 0, fibs), F_OK);
        ck_assert_int_eq(r, fib_plain(24));
        r = -1;
        ck_assert_int_eq(F_RUN(tfib9, &r, 18, 'c', -2, 3, -4L, 0.5f, 0.25, &marks[1], 200), F_OK);
        ck_assert_int_eq(r, fib_plain(18));

        double h = -1;
        reset();
        ck_assert_int_eq(F_RUN(harmonic, &h, 0, N, 0.5L, &marks[3]), F_OK);
        ck_assert(h == harmonic_plain(0, N));
        check_all_ran_once();

        reset();
        ck_assert_int_eq(F_RUN(marks_all, &wrong, N), F_OK);
        ck_assert_int_eq(wrong, 0);
        check_all_ran_once();
        if (modes[m] == 0)
            ck_assert_int_eq(atomic_load(&seq_calls), 0);
    }
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("args");
    TCase *core = fj_tcase(s, "core");
    FJ_ADD(core, test_args_untyped_intact_once, 0, 4 * NSHAPES);
    FJ_ADD(core, test_args_typed_values, 0, 4);
    FJ_ADD(core, test_args_typed_in_slot, 0, 12);
    return s;
}
