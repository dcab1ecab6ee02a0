#!/bin/sh
# tests/fjapps.sh - the fork/join applications end to end: fib, quad and
# quicksort, with their OpenMP and oneTBB peers where they were built
# (apps/common/app.h).
#
# Every parallel impl that a program lists in --help against seq, as
# tests/app-test.sh says; then bad options.
#
# Run by `make check` from the top of the build tree; small sizes, some
# 20 seconds on two busy cores.

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
# 1024 servers, more than the leaves of the recursion: quad's static program
# at 1024 segments, against seq --segments=1024.
many fib --size=10
many quad --size=4 --epsilon=1e-2
many quicksort --size=1000 --cutoff=2

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
for prog in $(llvm fib) $(llvm quad); do
    bad "$prog" --impl=omp
    bad "$prog" --impl=fil
done

helps fib quad quicksort $(llvm fib) $(llvm quad)
finish fjapps
