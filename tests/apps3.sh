#!/bin/sh
# tests/apps3.sh - multigrid, LU, the expression tree and the task pool end
# to end (apps/common/app.h), as tests/apps.sh does the first apps.
#
# Every impl of every app against seq, as tests/app-test.sh says (the same
# digest, so the same result bitwise); sizes include the degenerate ones.
# The task pool's counts are also checked against Korch and Rauber's
# Table 4, and the expression tree at the paper's two shapes.
# Then bad options.
#
# Run by `make check` from the top of the build tree; small sizes, some
# seconds on two cores.

. "$(dirname "$0")/app-test.sh"

compare multigrid all --size=32 --iters=4
compare multigrid all --size=2 --iters=3
compare multigrid all --size=4 --iters=2 --sweeps=1
compare multigrid all --size=16 --iters=100 --epsilon=1e-12 --sweeps=1
compare lu all --size=40
compare lu all --size=7
compare lu all --size=2
compare lu all --size=1
compare exprtree all --shape=8x20
compare exprtree all --shape=16x5
compare exprtree all --shape=2x1
compare exprtree all --leaves=4 --size=3
compare taskpool all --k=15 --f=1
compare taskpool all --k=20 --f=0
compare taskpool all --k=1 --f=3
compare taskpool all --k=2 --f=0
# A deque of 16 slots, which the 20 roots and their children fill (at 1
# server the roots alone would): the forks that find it full run as calls,
# some 80 to 110 of them at 2 to 8 servers, with no check or fallback in
# the program (apps/taskpool/taskpool-fil.c).
FILAMENTS_DEQUE=16 FILAMENTS_PRUNE=0 compare_at "2 3 4 8" taskpool "fil fil-typed" --k=20 --f=0
# 1024 servers, more than the rows, leaves and tasks.
many multigrid --size=4 --iters=2 --sweeps=1
many lu --size=7
many exprtree --leaves=4 --size=3
many taskpool --k=2 --f=0

# Korch and Rauber's Table 4, on the line of every impl: k=15, 20, 25 and
# 32 (18 million tasks, under a second with f=0).
for impl in seq cg fil fil-typed; do
    servers=2
    [ $impl = seq ] && servers=1
    for kt in 15:5149 20:57290 25:635593 32:18454894; do
        run taskpool --impl=$impl --servers=$servers --k="${kt%:*}" --f=0 || continue
        case $line in
        *" tasks=${kt#*:} "*) ;;
        *) fail "taskpool --impl=$impl --k=${kt%:*}: want tasks=${kt#*:}: $line" ;;
        esac
    done
done

# The paper's two expression trees, at their own sizes.
for shape in 128x25 8x100; do
    run exprtree --shape=$shape --impl=fil --servers=2 --verify
    case $line in
    *" size=${shape#*x} leaves=${shape%x*} "*) ;;
    *) fail "exprtree --shape=$shape: $line" ;;
    esac
done

bad multigrid --size=48
bad multigrid --size=1
bad multigrid --size=3 --impl=fil
bad multigrid --sweeps=0
bad multigrid --iters=0
bad multigrid --epsilon=-1
bad lu --size=0
bad lu --impl=fil-tree
bad lu --servers=0
bad exprtree --shape=3x25
bad exprtree --shape=8x
bad exprtree --shape=x8
bad exprtree --shape=8x100x2
bad exprtree --shape=8x0
bad exprtree --shape
bad exprtree --leaves=6
bad exprtree --leaves=1
bad exprtree --size=0
bad taskpool --k=0
bad taskpool --k=61
bad taskpool --f=-1
bad taskpool --size=2
bad taskpool --impl=fil-tree
bad taskpool --impl=seq --servers=2

helps multigrid lu exprtree taskpool
finish apps3
