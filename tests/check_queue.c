/*
 * check_queue.c - suite "queue": white-box tests of the per-server array
 * queues (lib/queue.h, lib/queue.c) [paper §4.2]: FIFO order across chunk
 * boundaries, descriptors that never move, claims from a shared queue by
 * several threads while its owner pushes, reset and destroy, and running
 * out of memory while growing.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "memory.h"  /* fi_alloc_fail_reset */
#include "queue.h"
#include "tests.h"

static struct fi_desc desc(long i)
{
    return (struct fi_desc){ t_count_fn, i, -i, (void *)(i + 1) };
}

static void assert_desc(const struct fi_desc *d, long i)
{
    if (d == NULL || d->i != i || d->j != -i || d->arg != (void *)(i + 1) || d->fn != t_count_fn)
        ck_abort_msg("descriptor %ld: got %s i=%ld", i, d ? "one with" : "NULL,", d ? d->i : 0);
}

static size_t chunks(const struct fi_queue *q)
{
    size_t n = 0;
    for (const struct fi_chunk *c = q->origin; c != NULL; c = (struct fi_chunk *)c->next)
        ++n;
    return n;
}

START_TEST(test_queue_init_empty)
{
    struct fi_queue q;
    ck_assert_int_eq(fi_queue_init(&q), F_OK);
    ck_assert_ptr_null(fi_queue_take(&q));
    ck_assert_uint_eq(fi_queue_length(&q), 0);
    ck_assert_int_eq(fi_queue_nonempty(&q), 0);
    struct fi_desc *first = NULL;
    ck_assert_uint_eq(fi_queue_claim(&q, 8, &first), 0);
    ck_assert_uint_eq(q.origin->cap, FI_CHUNK_MIN);
    ck_assert_uint_eq(chunks(&q), 1);
    fi_queue_destroy(&q);
    ck_assert_ptr_null(q.origin);
    fi_queue_destroy(&q);  /* a second destroy is harmless */
}
END_TEST

/* 100000 descriptors: chunks of 256, 512, 1024, ...; FIFO all the way. */
START_TEST(test_queue_push_take_fifo)
{
    struct fi_queue q;
    ck_assert_int_eq(fi_queue_init(&q), F_OK);
    const long n = 100000;
    for (long i = 0; i < n; ++i) {
        struct fi_desc d = desc(i);
        T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
    }
    ck_assert_uint_eq(fi_queue_length(&q), (size_t)n);
    ck_assert_int_eq(fi_queue_nonempty(&q), 1);
    /* 256 * (2^k - 1) >= 100000 -> k = 9 chunks. */
    ck_assert_uint_eq(chunks(&q), 9);
    for (long i = 0; i < n; ++i) {
        assert_desc(fi_queue_take(&q), i);
        if (i % 9973 == 0)
            T_REQUIRE_EQ(fi_queue_length(&q), n - i - 1);
    }
    ck_assert_ptr_null(fi_queue_take(&q));
    ck_assert_ptr_null(fi_queue_take(&q));
    ck_assert_uint_eq(fi_queue_length(&q), 0);
    ck_assert_int_eq(fi_queue_nonempty(&q), 0);
    fi_queue_destroy(&q);
}
END_TEST

/* A million: the chunks stop doubling at FI_CHUNK_MAX, so the unused
 * tail of the last one is under FI_CHUNK_MAX descriptors. */
START_TEST(test_queue_chunk_cap)
{
    struct fi_queue q;
    ck_assert_int_eq(fi_queue_init(&q), F_OK);
    const size_t n = 1000000;
    for (size_t i = 0; i < n; ++i) {
        struct fi_desc d = desc((long)i);
        T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
    }
    size_t slots = 0;
    for (struct fi_chunk *c = q.origin; c != NULL; c = (struct fi_chunk *)c->next) {
        T_REQUIRE(c->cap <= FI_CHUNK_MAX);
        slots += c->cap;
    }
    ck_assert_uint_lt(slots - n, FI_CHUNK_MAX);
    for (size_t i = 0; i < n; ++i)
        assert_desc(fi_queue_take(&q), (long)i);
    ck_assert_ptr_null(fi_queue_take(&q));
    fi_queue_destroy(&q);
}
END_TEST

/* Pushes and takes interleaved, so the taker reaches the end of a chunk
 * (and finds the queue empty there) before the next chunk exists. */
START_TEST(test_queue_interleaved)
{
    struct fi_queue q;
    ck_assert_int_eq(fi_queue_init(&q), F_OK);
    long pushed = 0, taken = 0;
    for (int round = 0; round < 3000; ++round) {
        int npush = 1 + round % 7, ntake = 1 + (round * 5) % 6;
        for (int k = 0; k < npush; ++k, ++pushed) {
            struct fi_desc d = desc(pushed);
            T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
        }
        for (int k = 0; k < ntake; ++k) {
            struct fi_desc *d = fi_queue_take(&q);
            if (taken == pushed) {
                T_REQUIRE(d == NULL);
                break;
            }
            assert_desc(d, taken++);
        }
        T_REQUIRE_EQ(fi_queue_length(&q), pushed - taken);
    }
    for (struct fi_desc *d; (d = fi_queue_take(&q)) != NULL;)
        assert_desc(d, taken++);
    ck_assert_int_eq(taken, pushed);
    ck_assert_int_gt(pushed, 2 * FI_CHUNK_MIN);
    fi_queue_destroy(&q);
}
END_TEST

/* Exactly at the boundaries: 256 fill the first chunk, the 257th links one. */
START_TEST(test_queue_chunk_boundary)
{
    struct fi_queue q;
    ck_assert_int_eq(fi_queue_init(&q), F_OK);
    for (long i = 0; i < FI_CHUNK_MIN; ++i) {
        struct fi_desc d = desc(i);
        T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
    }
    ck_assert_uint_eq(chunks(&q), 1);
    for (long i = 0; i < FI_CHUNK_MIN; ++i)
        assert_desc(fi_queue_take(&q), i);
    ck_assert_ptr_null(fi_queue_take(&q));  /* full and used up, nothing next */
    struct fi_desc d = desc(FI_CHUNK_MIN);
    T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
    ck_assert_uint_eq(chunks(&q), 2);
    ck_assert_uint_eq(q.last->cap, 2 * FI_CHUNK_MIN);
    assert_desc(fi_queue_take(&q), FI_CHUNK_MIN);
    ck_assert_ptr_null(fi_queue_take(&q));
    fi_queue_destroy(&q);
}
END_TEST

/* A descriptor stays where it is while the queue grows behind it. */
START_TEST(test_queue_descriptors_never_move)
{
    struct fi_queue q;
    ck_assert_int_eq(fi_queue_init(&q), F_OK);
    struct fi_desc d0 = desc(0);
    ck_assert_int_eq(fi_queue_push(&q, &d0), F_OK);
    struct fi_desc *p0 = fi_queue_take(&q);
    assert_desc(p0, 0);
    struct fi_desc *p[10];
    long at = 1;
    for (int k = 0; k < 10; ++k) {
        for (long e = at + 5000; at < e; ++at) {
            struct fi_desc d = desc(at);
            T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
        }
        p[k] = fi_queue_take(&q);
        ck_assert_ptr_nonnull(p[k]);
    }
    assert_desc(p0, 0);
    for (int k = 0; k < 10; ++k)
        assert_desc(p[k], k + 1);
    fi_queue_destroy(&q);
}
END_TEST

/* Reset empties the queue and keeps every chunk for the next run; pushes
 * after it reuse them, so the chunk count never grows past the peak. */
START_TEST(test_queue_reset)
{
    struct fi_queue q;
    ck_assert_int_eq(fi_queue_init(&q), F_OK);
    struct fi_chunk *origin = q.origin;
    size_t peak = 1;
    for (int round = 0; round < 5; ++round) {
        long n = round % 2 ? 100000 : 10;
        for (long i = 0; i < n; ++i) {
            struct fi_desc d = desc(i);
            T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
        }
        for (long i = 0; i < n / 3; ++i)
            assert_desc(fi_queue_take(&q), i);
        size_t before = chunks(&q);
        ck_assert_uint_ge(before, peak);    /* reused, not reallocated */
        if (round > 1)
            ck_assert_uint_eq(before, peak);
        peak = before;
        fi_queue_reset(&q);
        ck_assert_ptr_eq(q.origin, origin);
        ck_assert_ptr_eq(q.last, origin);
        ck_assert_ptr_eq((void *)q.first, origin);
        ck_assert_uint_eq(chunks(&q), before);
        ck_assert_uint_eq(fi_queue_length(&q), 0);
        ck_assert_int_eq(fi_queue_nonempty(&q), 0);
        ck_assert_ptr_null(fi_queue_take(&q));
        struct fi_desc *first;
        ck_assert_uint_eq(fi_queue_claim(&q, 100, &first), 0);
    }
    fi_queue_destroy(&q);
}
END_TEST

/* Claims from one thread: the oldest first, at most max, never across chunks. */
START_TEST(test_queue_claim_batches)
{
    struct fi_queue q;
    ck_assert_int_eq(fi_queue_init(&q), F_OK);
    const long n = 5000;
    for (long i = 0; i < n; ++i) {
        struct fi_desc d = desc(i);
        T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
    }
    long next = 0;
    size_t max = 1;
    struct fi_desc *first;
    for (size_t got; (got = fi_queue_claim(&q, max, &first)) > 0; max = max % 37 + 1) {
        T_REQUIRE(got <= max);
        for (size_t k = 0; k < got; ++k)
            assert_desc(&first[k], next + (long)k);
        next += (long)got;
        T_REQUIRE_EQ(fi_queue_length(&q), n - next);
    }
    ck_assert_int_eq(next, n);
    ck_assert_int_eq(fi_queue_nonempty(&q), 0);
    /* A batch larger than what is left in a chunk stops at its end. */
    fi_queue_reset(&q);
    for (long i = 0; i < FI_CHUNK_MIN + 10; ++i) {
        struct fi_desc d = desc(i);
        T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
    }
    ck_assert_uint_eq(fi_queue_claim(&q, FI_CHUNK_MIN - 6, &first), FI_CHUNK_MIN - 6);
    ck_assert_uint_eq(fi_queue_claim(&q, 1000, &first), 6);
    assert_desc(first, FI_CHUNK_MIN - 6);
    ck_assert_uint_eq(fi_queue_claim(&q, 1000, &first), 10);
    assert_desc(first, FI_CHUNK_MIN);
    ck_assert_uint_eq(fi_queue_claim(&q, 1000, &first), 0);
    fi_queue_destroy(&q);
}
END_TEST

/*
 * Several threads claim from a shared queue while its owner pushes (and
 * claims too, as a server does with its own F_ANY queue).  A bitmap shows
 * every descriptor claimed exactly once; each claimed batch is FIFO.
 *
 * Under --enable-sanitizer=thread it also checks the ordering: a claimer
 * that moves q->first to a new chunk releases it (CAS), and every reader
 * acquires it, so the chunk's head, tail and cap, and slot[0] (released
 * with tail = 1), are seen initialized.  With relaxed moves and loads of
 * first (before b85203c) ThreadSanitizer reported races here, from
 * fi_queue_claim, fi_queue_nonempty and fi_queue_length.
 */
#define CLAIM_N 200000L
struct claim_job {
    struct fi_queue q;
    atomic_ulong bits[CLAIM_N / 64 + 1];
    atomic_long claimed, doubles, disorder;
    atomic_int done_pushing;
};

static void claim_batch(struct claim_job *c, struct fi_desc *first, size_t got)
{
    for (size_t k = 0; k < got; ++k) {
        long i = first[k].i;
        if (i < 0 || i >= CLAIM_N || first[k].j != -i || (k > 0 && i != first[k - 1].i + 1)) {
            atomic_fetch_add(&c->disorder, 1);
            continue;
        }
        unsigned long bit = 1UL << (i % 64);
        if (atomic_fetch_or(&c->bits[i / 64], bit) & bit)
            atomic_fetch_add(&c->doubles, 1);
    }
    atomic_fetch_add(&c->claimed, (long)got);
}

static void *claimer(void *arg)
{
    struct claim_job *c = arg;
    unsigned seed = (unsigned)(size_t)pthread_self();
    for (;;) {
        int done = atomic_load(&c->done_pushing);
        struct fi_desc *first;
        seed = seed * 1103515245u + 12345u;
        size_t got = fi_queue_claim(&c->q, 1 + (seed >> 16) % 16, &first);
        if (got > 0)
            claim_batch(c, first, got);
        else if (done)
            return NULL;  /* empty after the last push: nothing more will come */
        else
            sched_yield();  /* 2 cores: let the owner push */
    }
}

START_TEST(test_queue_claim_concurrent)
{
    int nthreads = t_servers(_i);
    struct claim_job *c = calloc(1, sizeof *c);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(fi_queue_init(&c->q), F_OK);
    pthread_t t[8];
    for (int k = 0; k < nthreads; ++k)
        ck_assert_int_eq(pthread_create(&t[k], NULL, claimer, c), 0);
    for (long i = 0; i < CLAIM_N; ++i) {
        struct fi_desc d = desc(i);
        T_REQUIRE_EQ(fi_queue_push(&c->q, &d), F_OK);
        if (i % 4096 == 0)
            sched_yield();  /* let the claimers in between pushes */
        if (i % 64 == 0) {
            struct fi_desc *first;
            size_t got = fi_queue_claim(&c->q, FI_CLAIM_BATCH, &first);
            if (got > 0)
                claim_batch(c, first, got);
        }
    }
    atomic_store(&c->done_pushing, 1);
    struct fi_desc *first;
    for (size_t got; (got = fi_queue_claim(&c->q, FI_CLAIM_BATCH, &first)) > 0;)
        claim_batch(c, first, got);
    for (int k = 0; k < nthreads; ++k)
        ck_assert_int_eq(pthread_join(t[k], NULL), 0);
    ck_assert_int_eq(t_ldl(&c->disorder), 0);
    ck_assert_int_eq(t_ldl(&c->doubles), 0);
    ck_assert_int_eq(t_ldl(&c->claimed), CLAIM_N);
    for (long i = 0; i < CLAIM_N; ++i)
        if (!(atomic_load(&c->bits[i / 64]) & (1UL << (i % 64))))
            ck_abort_msg("%ld never claimed", i);
    ck_assert_uint_eq(fi_queue_length(&c->q), 0);
    fi_queue_destroy(&c->q);
    free(c);
}
END_TEST

/* Out of memory while growing: the push fails, the queue is as it was. */
START_TEST(test_queue_push_enomem)
{
    struct fi_queue q;
    fi_alloc_fail_reset(1);
    ck_assert_int_eq(fi_queue_init(&q), F_ENOMEM);
    fi_alloc_fail_reset(0);
    ck_assert_int_eq(fi_queue_init(&q), F_OK);
    for (long i = 0; i < FI_CHUNK_MIN; ++i) {
        struct fi_desc d = desc(i);
        T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
    }
    fi_alloc_fail_reset(1);
    struct fi_desc d = desc(FI_CHUNK_MIN);
    ck_assert_int_eq(fi_queue_push(&q, &d), F_ENOMEM);
    fi_alloc_fail_reset(0);
    ck_assert_uint_eq(chunks(&q), 1);
    ck_assert_uint_eq(fi_queue_length(&q), FI_CHUNK_MIN);
    T_REQUIRE_EQ(fi_queue_push(&q, &d), F_OK);
    for (long i = 0; i <= FI_CHUNK_MIN; ++i)
        assert_desc(fi_queue_take(&q), i);
    ck_assert_ptr_null(fi_queue_take(&q));
    fi_queue_destroy(&q);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("queue");
    TCase *core = t_tcase(s, "core");
    tcase_add_test(core, test_queue_init_empty);
    tcase_add_test(core, test_queue_push_take_fifo);
    tcase_add_test(core, test_queue_chunk_cap);
    tcase_add_test(core, test_queue_interleaved);
    tcase_add_test(core, test_queue_chunk_boundary);
    tcase_add_test(core, test_queue_descriptors_never_move);
    tcase_add_test(core, test_queue_reset);
    tcase_add_test(core, test_queue_claim_batches);
    TCase *errors = t_tcase(s, "errors");
    tcase_add_test(errors, test_queue_push_enomem);
    TCase *stress = t_tcase(s, "stress");
    tcase_add_loop_test(stress, test_queue_claim_concurrent, 0, T_NCOUNTS);
    return s;
}
