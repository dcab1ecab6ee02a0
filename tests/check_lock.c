/*
 * check_lock.c - suite "lock": spin locks [paper §2].  Mutual exclusion
 * over a non-atomic counter incremented by many filaments on every server,
 * F_LOCK_INITIALIZER and f_lock_init, locks in iterative phases, locks
 * used by plain threads without the library, and, in a library configured
 * with --enable-debug, the lock rule: f_join with a lock held is F_ESTATE.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "config.h"  /* FI_DEBUG: the library checks the lock rule */
#include "tests.h"

struct locked {
    f_lock_t lock;
    long counter;           /* plain: only the lock protects it */
    volatile int inside;    /* filaments between lock and unlock */
    long overlaps;
};

static void locked_add(struct locked *l, long times)
{
    for (long k = 0; k < times; ++k) {
        f_lock(&l->lock);
        if (l->inside++ != 0)
            l->overlaps++;
        long v = l->counter;
        t_work(40);  /* widen the window a racing increment would hit */
        if (k % 32 == 0)
            sched_yield();  /* even on one busy core, let the others try */
        l->counter = v + 1;
        l->inside--;
        f_unlock(&l->lock);
    }
}

static void lock_filament(long i, long times, void *arg)
{
    locked_add(arg, times);
}

START_TEST(test_lock_mutual_exclusion)
{
    int n = t_start_loop(_i);
    struct locked l = { .lock = F_LOCK_INITIALIZER };
    long want = 0;
    for (int s = 0; s < n; ++s)
        for (int k = 0; k < 50; ++k, want += 200)
            ck_assert_int_eq(f_rtc_thread(s, lock_filament, k, 200, &l), F_OK);
    for (int k = 0; k < 100; ++k, want += 200)
        ck_assert_int_eq(f_rtc_thread(F_ANY, lock_filament, k, 200, &l), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(l.overlaps, 0);
    ck_assert_int_eq(l.inside, 0);
    ck_assert_int_eq(l.counter, want);
}
END_TEST

/* f_lock_init makes a usable lock of any memory, a held one included. */
START_TEST(test_lock_init)
{
    int n = t_start_loop(_i);
    struct locked *l = malloc(sizeof *l);
    ck_assert_ptr_nonnull(l);
    l->lock.f_word_ = (size_t)-1;  /* garbage, as if held */
    f_lock_init(&l->lock);
    l->counter = 0;
    l->inside = 0;
    l->overlaps = 0;
    f_lock(&l->lock);  /* the main thread can take it, and release it */
    f_unlock(&l->lock);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_rtc_thread(s, lock_filament, s, 1000, l), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(l->counter, 1000L * n);
    ck_assert_int_eq(l->overlaps, 0);
    free(l);
}
END_TEST

/* Several locks, each guarding its own counter; filaments use two in turn. */
struct two_locks {
    struct locked a[4];
};

static void two_filament(long i, long j, void *arg)
{
    struct two_locks *t = arg;
    locked_add(&t->a[i % 4], 50);
    locked_add(&t->a[(i + 1) % 4], 50);
}

START_TEST(test_lock_several_locks)
{
    int n = t_start_loop(_i);
    struct two_locks t = { .a = { { F_LOCK_INITIALIZER }, { F_LOCK_INITIALIZER },
                                   { F_LOCK_INITIALIZER }, { F_LOCK_INITIALIZER } } };
    for (long i = 0; i < 400; ++i)
        ck_assert_int_eq(f_rtc_thread(i % 2 ? F_ANY : (int)(i % n), two_filament, i, 0, &t), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    for (int k = 0; k < 4; ++k) {
        ck_assert_int_eq(t.a[k].counter, 100L * 100);
        ck_assert_int_eq(t.a[k].overlaps, 0);
    }
}
END_TEST

/* Locks in iterative filaments over many passes; seq checks the total. */
struct iter_lock_job {
    struct locked l;
    long per_pass, calls, bad;
};

static void iter_lock_fn(long i, long j, void *arg)
{
    struct iter_lock_job *it = arg;
    locked_add(&it->l, 10);
}

static int iter_lock_seq(void *arg)
{
    struct iter_lock_job *it = arg;
    if (it->l.counter != ++it->calls * it->per_pass)
        it->bad++;
    return it->calls == 50 ? F_DONE : F_NOTDONE;
}

START_TEST(test_lock_in_phases)
{
    int n = t_start_loop(_i);
    struct iter_lock_job it = { .l = { .lock = F_LOCK_INITIALIZER } };
    ck_assert_int_ge(f_new_barrier(iter_lock_seq, &it), 0);
    for (int s = 0; s < n; ++s)
        for (int k = 0; k < 8; ++k, it.per_pass += 10)
            ck_assert_int_eq(f_iterative_thread(s, iter_lock_fn, k, s, &it), F_OK);
    for (int k = 0; k < 8; ++k, it.per_pass += 10)
        ck_assert_int_eq(f_iterative_thread(F_ANY, iter_lock_fn, 50 + k, 0, &it), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    ck_assert_int_eq(it.bad, 0);
    ck_assert_int_eq(it.l.counter, 50 * it.per_pass);
    ck_assert_int_eq(it.l.overlaps, 0);
}
END_TEST

/* The lock needs no library: plain threads, before f_initialize. */
static void *lock_thread(void *arg)
{
    locked_add(arg, 20000);
    return NULL;
}

START_TEST(test_lock_without_library)
{
    int nthreads = t_servers(_i);
    struct locked l = { .lock = F_LOCK_INITIALIZER };
    pthread_t t[8];
    for (int k = 0; k < nthreads; ++k)
        ck_assert_int_eq(pthread_create(&t[k], NULL, lock_thread, &l), 0);
    for (int k = 0; k < nthreads; ++k)
        ck_assert_int_eq(pthread_join(t[k], NULL), 0);
    ck_assert_int_eq(l.counter, 20000L * nthreads);
    ck_assert_int_eq(l.overlaps, 0);
}
END_TEST

#ifdef FI_DEBUG
struct rule {
    f_lock_t lock;
    atomic_int child_ran;
};

static void rule_child(long i, long j, void *arg)
{
    struct rule *r = arg;
    f_lock(&r->lock);    /* would spin forever under a joining holder */
    atomic_store(&r->child_ran, 1);
    f_unlock(&r->lock);
}

/* A filament that joins while it holds a lock is refused, every time, and
 * its children wait; once it lets go, the same join works.  The lock is
 * taken before the fork: a thief may run the child at once, and it must
 * find the lock held. */
static void rule_parent(long i, long j, void *arg)
{
    struct rule *r = arg;
    f_lock(&r->lock);
    T_EXPECT(f_fork(rule_child, 0, 0, r) == F_OK);
    T_EXPECT(f_join() == F_ESTATE);
    T_EXPECT(f_join() == F_ESTATE);
    T_EXPECT(atomic_load(&r->child_ran) == 0);    /* it needs the lock */
    f_unlock(&r->lock);
    T_EXPECT(f_join() == F_OK);
    T_EXPECT(atomic_load(&r->child_ran) == 1);
}

START_TEST(test_lock_rule_checked)
{
    t_start_loop(_i);
    struct rule r = { .lock = F_LOCK_INITIALIZER };
    ck_assert_int_eq(f_rtc_thread(0, rule_parent, 0, 0, &r), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
}
END_TEST
#endif

Suite *make_suite(void)
{
    Suite *s = suite_create("lock");
    TCase *core = t_tcase(s, "core");
    tcase_add_loop_test(core, test_lock_mutual_exclusion, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_lock_init, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_lock_several_locks, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_lock_in_phases, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_lock_without_library, 0, T_NCOUNTS);
#ifdef FI_DEBUG
    tcase_add_loop_test(core, test_lock_rule_checked, 0, T_NCOUNTS);
#endif
    return s;
}
