#!/bin/sh
# tests/adaptapps.sh - the iterative apps while their filaments move.
#
# Jacobi, SOR, multigrid, LU and Gauss let every filament move
# (f_set_adaptive(F_ADAPT_ALL)); here the ends of their strips move every
# pass (FILAMENTS_TEST_MOVES=1, a setting for tests only: lib/env.c), so
# that filaments run on other servers than the ones that created them and
# servers take runs from each other within passes.  Each Filaments program
# must still give the sequential program's answer bitwise, at 1 to 8
# servers, as tests/app-test.sh compares them.
#
# Run by `make check` from the top of the build tree; small sizes.

. "$(dirname "$0")/app-test.sh"

export FILAMENTS_TEST_MOVES=1
compare jacobi "fil fil-norange fil-main" --size=40 --iters=30
compare sor fil --size=41 --iters=30
compare multigrid fil --size=32 --iters=4
compare lu fil --size=60
compare gauss fil --size=60
finish adaptapps
