/*
 * check_continuation.c - suite "continuation": values carried across
 * barriers [paper §2.2, §4.4].  One zeroed block per server; the filaments
 * of one phase leave values in their server's block and those of the next
 * phase on that server find them; f_continuation_of reads any server's.
 */
#include <stdint.h>
#include <string.h>

#include "tests.h"

/* The line size configure was given (config.h), not the library's default. */
#include "config.h"
#define CONFIGURED_CACHE_LINE FI_CACHE_LINE

START_TEST(test_continuation_zeroed_blocks)
{
    int n = t_start_loop(_i);
    static const size_t sizes[] = { 0, 1, 8, 63, 64, 65, 1000, 100000 };
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; ++z) {
        size_t size = sizes[z];
        f_continuation *c = f_new_continuation(size);
        ck_assert_ptr_nonnull(c);
        unsigned char *blocks[8];
        for (int s = 0; s < n; ++s) {
            blocks[s] = f_continuation_of(c, s);
            ck_assert_ptr_nonnull(blocks[s]);
            for (size_t b = 0; b < size; ++b)
                T_REQUIRE(blocks[s][b] == 0);
        }
        /* Distinct blocks that do not overlap: writing one leaves the others. */
        for (int s = 0; s < n; ++s)
            memset(blocks[s], 0x40 + s, size);
        for (int s = 0; s < n; ++s) {
            for (int t = 0; t < n; ++t)
                if (t != s)
                    ck_assert(blocks[s] + size <= blocks[t] || blocks[t] + size <= blocks[s] ||
                              size == 0);
            for (size_t b = 0; b < size; ++b)
                T_REQUIRE(blocks[s][b] == 0x40 + s);
        }
        ck_assert_ptr_null(f_continuation_of(c, -1));
        ck_assert_ptr_null(f_continuation_of(c, n));
        ck_assert_ptr_null(f_continuation_of(NULL, 0));
        if (z % 2)
            f_free_continuation(c);  /* the others are freed by f_finalize */
    }
}
END_TEST

/*
 * Phase 0 filaments on server s add their i to the block of their server;
 * phase 1 filaments check the block holds this pass's sum for s, and reset
 * it.  Many cycles; the blocks persist between passes on each server.
 */
struct cont_job {
    f_continuation *c;
    int n;
    long sum_of[8];   /* per server, per pass */
    long cycles, calls;
};

struct cont_block {
    long sum;
    long filaments;
    long passes_seen;
};

static void cont_produce(long i, long j, void *arg)
{
    struct cont_job *cj = arg;
    struct cont_block *b = f_continuation_local(cj->c);
    T_EXPECT(b == f_continuation_of(cj->c, f_my_server()));
    b->sum += i;
    b->filaments++;
}

static void cont_consume(long i, long j, void *arg)
{
    struct cont_job *cj = arg;
    int s = f_my_server();
    struct cont_block *b = f_continuation_local(cj->c);
    T_EXPECT(b->sum == cj->sum_of[s]);
    b->passes_seen++;
    b->sum = 0;  /* only one consumer per server: i == 0 */
    b->filaments = 0;
}

static int cont_seq(void *arg)
{
    struct cont_job *cj = arg;
    return ++cj->calls == cj->cycles ? F_DONE : F_NOTDONE;
}

START_TEST(test_continuation_across_phases)
{
    int n = t_start_loop(_i);
    struct cont_job cj = { .n = n, .cycles = 20 };
    cj.c = f_new_continuation(sizeof(struct cont_block));
    ck_assert_ptr_nonnull(cj.c);
    ck_assert_int_ge(f_new_barrier(NULL, NULL), 0);
    for (int s = 0; s < n; ++s)
        for (long i = 1; i <= 10 + s; ++i) {
            ck_assert_int_eq(f_iterative_thread(s, cont_produce, i * (s + 1), 0, &cj), F_OK);
            cj.sum_of[s] += i * (s + 1);
        }
    ck_assert_int_ge(f_new_barrier(cont_seq, &cj), 0);
    for (int s = 0; s < n; ++s)
        ck_assert_int_eq(f_iterative_thread(s, cont_consume, 0, 0, &cj), F_OK);
    ck_assert_int_eq(f_parallel(), F_OK);
    T_ASSERT_NO_FAILURES();
    ck_assert_int_eq(cj.calls, 20);
    for (int s = 0; s < n; ++s) {
        struct cont_block *b = f_continuation_of(cj.c, s);
        ck_assert_int_eq(b->passes_seen, 20);
        ck_assert_int_eq(b->sum, 0);
    }
}
END_TEST

/* What filaments leave in their blocks is there after f_parallel, and in
 * the next run. */
static void cont_count(long i, long j, void *arg)
{
    long *block = f_continuation_local(arg);
    *block += 1;
}

START_TEST(test_continuation_read_after_run)
{
    int n = t_start_loop(_i);
    f_continuation *c = f_new_continuation(sizeof(long));
    ck_assert_ptr_nonnull(c);
    for (int run = 1; run <= 3; ++run) {
        for (int s = 0; s < n; ++s)
            for (int k = 0; k <= s; ++k)
                ck_assert_int_eq(f_rtc_thread(s, cont_count, 0, 0, c), F_OK);
        ck_assert_int_eq(f_parallel(), F_OK);
        for (int s = 0; s < n; ++s)
            ck_assert_int_eq(*(long *)f_continuation_of(c, s), (long)run * (s + 1));
    }
}
END_TEST

/*
 * The blocks are whole cache lines apart, the line being what configure was
 * told (--with-cache-line, 64 by default; config.h has it), so that two
 * servers never write the same line.  The reduction slots likewise.
 *
 * The test follows the configured line (CONFIGURED_CACHE_LINE), so a build
 * --with-cache-line=128 checks that lib/ reads config.h: before b85203c it
 * did not, and the option changed nothing.
 */
START_TEST(test_continuation_cache_line_stride)
{
    int n = t_start_loop(_i);
    if (n < 2)
        return;
    static const size_t sizes[] = { 1, 8, CONFIGURED_CACHE_LINE, CONFIGURED_CACHE_LINE + 1 };
    for (size_t z = 0; z < 4; ++z) {
        f_continuation *c = f_new_continuation(sizes[z]);
        ck_assert_ptr_nonnull(c);
        size_t lines = (sizes[z] + CONFIGURED_CACHE_LINE - 1) / CONFIGURED_CACHE_LINE;
        for (int s = 1; s < n; ++s) {
            char *a = f_continuation_of(c, s - 1), *b = f_continuation_of(c, s);
            ck_assert_uint_eq((size_t)(b - a), lines * CONFIGURED_CACHE_LINE);
            ck_assert_uint_eq((uintptr_t)b % CONFIGURED_CACHE_LINE, 0);
        }
    }
    f_reduction *r = f_new_reduction(F_SUM);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq((uintptr_t)r->slots_ % CONFIGURED_CACHE_LINE, 0);
}
END_TEST

/* Sizes no memory can hold: NULL, and the library goes on working. */
START_TEST(test_continuation_huge)
{
    t_start_loop(_i);
    ck_assert_ptr_null(f_new_continuation((size_t)-1));
    ck_assert_ptr_null(f_new_continuation((size_t)-1 / 2));
    ck_assert_ptr_null(f_new_continuation((size_t)-1 - 100));
    f_free_continuation(NULL);
    t_assert_library_works();
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("continuation");
    TCase *core = t_tcase(s, "core");
    tcase_add_loop_test(core, test_continuation_zeroed_blocks, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_continuation_across_phases, 0, T_NCOUNTS);
    tcase_add_loop_test(core, test_continuation_read_after_run, 0, T_NCOUNTS);
    TCase *limits = t_tcase(s, "limits");
    tcase_add_loop_test(limits, test_continuation_huge, 0, T_NCOUNTS);
    tcase_add_loop_test(limits, test_continuation_cache_line_stride, 0, T_NCOUNTS);
    return s;
}
