#!/bin/sh
# tests/fjapps.sh - the fork/join applications end to end: fib, quad,
# quicksort, the unbalanced tree search, the knapsack, and BOTS's shapes
# (sparselu, allpairs, floorplan), with their OpenMP and oneTBB peers where
# they were built (apps/common/app.h).
#
# Every parallel impl that a program lists in --help against seq, as
# tests/app-test.sh says; then bad options.
#
# Run by `make check` from the top of the build tree; small sizes, some
# 45 to 80 seconds on two shared cores (2026-11-27).

. "$(dirname "$0")/app-test.sh"

for prog in fib $(llvm fib); do
    compare "$prog" all --size=18
    compare "$prog" all --size=2
done
compare fib all --size=0
compare fib all --size=1
run fib --impl=seq-ptr --size=20 --verify

for prog in quad $(llvm quad); do
    compare "$prog" all --size=12 --epsilon=1e-4
done
compare quad all --size=2 --epsilon=1e-3
compare quad all --size=12 --epsilon=1e10    # the whole interval is one leaf

compare quicksort all --size=20000 --cutoff=100
compare quicksort all --size=5000 --keys=3 --cutoff=2    # many equal keys, the finest grain
compare quicksort all --size=1
# Small trees of both shapes; a root alone and a root of leaves; the
# paper's T3 and T1 by the sequential program, whose check compares their
# counts with the paper's (apps/uts/uts-common.c).
for prog in uts $(llvm uts); do
    compare "$prog" all --size=20 --b0=100
    compare "$prog" all --shape=geometric --size=5
done
compare uts all --size=3 --seed=5 --m=2 --b0=10
compare uts all --size=1 --b0=50
compare uts all --shape=geometric --size=1 --b0=1
run uts --impl=seq
run uts --impl=seq --shape=geometric

# Branch and bound: the optimal value against meet in the middle.
for prog in knapsack $(llvm knapsack); do
    compare "$prog" all --size=18
done
compare knapsack all --size=1
compare knapsack all --size=22 --seed=7

# The even-odd instances (apps/knapsack/knapsack.h): an odd capacity that
# no subset fills, and a search that expands as many branches in any
# order, pruned or not (within one in 1000; a few dozen apart here), so
# that the programs' times compare the same work.
field() {    # NAME: its value in run's $line
    value=${line##* "$1"=}
    echo "${value%% *}"
}
knapsack_20() {    # IMPL: at 2 servers, FILAMENTS_PRUNE as the caller sets it
    run knapsack --impl="$1" --size=20 --seed=3 --servers=2
}
if FILAMENTS_PRUNE=auto knapsack_20 fil-typed; then
    capacity=$(field capacity) best=$(field value) want=$(field forks)
    if [ $((capacity % 2)) -ne 1 ] || [ "$best" -ge "$capacity" ]; then
        fail "knapsack --size=20 --seed=3: capacity $capacity, best $best: not an even-odd instance"
    fi
    for prune in auto 0 1; do
        FILAMENTS_PRUNE=$prune knapsack_20 fil || continue
        got=$(field forks)
        if [ $(((got - want) * 1000)) -gt "$want" ] || [ $(((want - got) * 1000)) -gt "$want" ]; then
            fail "knapsack --size=20 --seed=3, FILAMENTS_PRUNE=$prune: $got forks, typed $want"
        fi
    done
fi

# BOTS's shapes (issue 46): one filament forking a loop of children and
# joining once per phase (sparselu) or once in all (allpairs), and a
# branch and bound with copied state (floorplan), at 1, 2, 3 and 8 servers;
# the loops with pruning off too, where every update is a child.  Small:
# a second or two in all.
compare_at "1 2 3 8" sparselu all --size=7
compare_at "1 2 3 8" sparselu all --size=1
compare_at "1 2 3 8" allpairs all --size=5
compare_at "1 2 3 8" allpairs all --size=1
compare_at "1 2 3 8" floorplan all --size=9
compare_at "1 2 3 8" floorplan all --size=1
FILAMENTS_PRUNE=0 compare_at "2 3" sparselu fil --size=7
FILAMENTS_PRUNE=0 compare_at "2 3" allpairs fil --size=5

# 1024 servers, more than the leaves of the recursion: quad's static program
# at 1024 segments, against seq --segments=1024.
many fib --size=10
many quad --size=4 --epsilon=1e-2
many quicksort --size=1000 --cutoff=2
many uts --size=10 --b0=20
many knapsack --size=10

bad fib --size=93
bad fib --size=-1
bad fib --impl=static
bad fib --impl=seq-ptr --servers=2
bad fib --impl=seq-call --servers=2
bad fib --epsilon=1
bad quad --size=1
bad quad --size=201
bad quad --epsilon=0
bad quad --epsilon=-1e-9
bad quad --epsilon=inf
bad quad --impl=cg
bad quicksort --size=0
bad quicksort --cutoff=1
bad quicksort --keys=-1
bad quicksort --impl=bag
bad uts --shape=ternary
bad uts --b0=-1
bad uts --q=0.1
bad uts --impl=static
bad knapsack --size=0
bad knapsack --size=41
bad knapsack --impl=bag
bad sparselu --size=0
bad sparselu --size=401
bad sparselu --impl=cg
bad allpairs --size=0
bad allpairs --size=2001
bad allpairs --impl=bag
bad floorplan --size=0
bad floorplan --size=41
bad floorplan --impl=fil-typed
for prog in $(llvm fib) $(llvm quad) $(llvm uts) $(llvm knapsack); do
    bad "$prog" --impl=omp
    bad "$prog" --impl=fil
done

helps fib quad quicksort uts knapsack sparselu allpairs floorplan $(llvm fib) $(llvm quad) $(llvm uts) $(llvm knapsack)
finish fjapps
