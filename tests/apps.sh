#!/bin/sh
# tests/apps.sh - the applications end to end (apps/common/app.h).
#
# Every impl of every app against seq, as tests/app-test.sh says (the same
# digest, so the same result bitwise); sizes include the degenerate ones.
# Then bad options.
#
# Run by `make check` from the top of the build tree; small sizes, a few
# seconds on two cores.

. "$(dirname "$0")/app-test.sh"

compare matmul all --size=64
compare matmul all --size=5
compare jacobi all --size=40 --iters=30
compare jacobi all --size=3 --iters=7
compare jacobi all --size=12 --iters=100000 --epsilon=1e-4
compare sor all --size=41 --iters=30
compare sor all --size=2 --iters=7 --omega=1.2
compare sor all --size=1 --iters=3
compare sor all --size=12 --iters=100000 --epsilon=1e-4
# 1024 servers, more than the rows and points.
many matmul --size=5
many jacobi --size=3 --iters=7
many sor --size=2 --iters=7

# The OpenMP and oneTBB peers, where configure found them (doc/benchmarks.md, "Peers"):
# in the app's program, or in APP-llvm for clang's libomp.
for prog in matmul $(llvm matmul); do
    compare "$prog" "$(peer_impls "$prog")" --size=37
done
for prog in jacobi $(llvm jacobi); do
    compare "$prog" "$(peer_impls "$prog")" --size=23 --iters=15
done

# The sequential variants besides seq.
run jacobi --impl=calls --size=40 --iters=30 --verify

bad matmul --size=abc
bad matmul --size=0
bad matmul --size=-3
bad matmul --size=
bad matmul --size=99999999999999999999
bad matmul --size=100000
bad matmul --servers=0
bad matmul --servers=two
bad matmul --impl=nope
bad matmul --impl=seq --servers=2
bad matmul --bogus
bad matmul --size
bad matmul --verify=yes
bad matmul extra
bad jacobi --iters=0
bad jacobi --iters=1.5
bad jacobi --epsilon=-1
bad jacobi --epsilon=nan
bad jacobi --epsilon=1e999
bad sor --omega=2
bad sor --omega=0
bad sor --impl=fil-norange

helps matmul jacobi sor $(llvm matmul) $(llvm jacobi)
finish apps
