/*
 * fj_main.c - main for the fork/join suites (check_deque, check_forkjoin,
 * check_prune): run the one suite that make_suite() builds and exit with
 * its verdict.  The Check variables apply: CK_RUN_CASE=stress runs one
 * case, CK_FORK=no keeps every test in this process (for gdb or valgrind),
 * CK_VERBOSITY=verbose names every test.
 */
#include <stdlib.h>

#include <check.h>

Suite *make_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(make_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
