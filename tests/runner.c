/*
 * runner.c - main for every tests/check_<mechanism> program: runs the one
 * suite that make_suite() builds.  Check's environment applies:
 * CK_RUN_SUITE, CK_RUN_CASE, CK_VERBOSITY, CK_FORK=no (for valgrind).
 */
#include <stdlib.h>

#include "tests.h"

int main(void)
{
    SRunner *sr = srunner_create(make_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
