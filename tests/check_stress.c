/*
 * check_stress.c - suite "stress": a bounded set of the randomized programs
 * of tests/stress.c (all three kinds mixed, 1 to 8 servers), each checked
 * against its sequential evaluation.  `make soak` runs seeds beyond these
 * for as long as it is given (tests/soak.c).  A failure names its seed:
 * tests/soak --seed=N --count=1 runs that program alone.
 */
#include "stress.h"
#include "tests.h"

/* Seeds 1 .. 5000, 50 per test (a Check fork each): about 25 s on 2 cores.
 * A sanitizer slows the programs 5 to 15 times: there, seeds 1 .. 500. */
#ifdef STRESS_SANITIZED
enum { STRESS_TESTS = 10, SEEDS_PER_TEST = 50 };
#else
enum { STRESS_TESTS = 100, SEEDS_PER_TEST = 50 };
#endif

START_TEST(test_stress_random_programs)
{
    long n = t_scaled(SEEDS_PER_TEST);
    for (long k = 0; k < n; ++k) {
        unsigned long seed = (unsigned long)_i * SEEDS_PER_TEST + (unsigned long)k + 1;
        char why[256];
        if (stress_run(seed, why, sizeof why) != 0)
            ck_abort_msg("seed=%lu servers=%d: %s", seed, stress_servers(seed), why);
    }
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("stress");
    TCase *stress = t_tcase(s, "stress");
    tcase_add_loop_test(stress, test_stress_random_programs, 0, (int)t_scaled(STRESS_TESTS));
    return s;
}
