#!/bin/sh
# tests/loopapps.sh - the apps of parallel loops end to end: the
# Needleman-Wunsch wavefront (nw) and the blocked LU (blu), each
# sequential, coarse grain, Filaments (f_parallel_for) and OpenMP where it
# was built (apps/common/app.h).
#
# Every parallel impl that a program lists in --help against seq at 1, 2,
# 3 and 8 servers, bitwise, as tests/app-test.sh says: sizes whose
# diagonals and phases divide unevenly among the servers, sizes of a block
# or less (nw's last blocks short), and 1024 servers; then bad options.
#
# Run by `make check` from the top of the build tree; small sizes, a few
# seconds on two cores.

. "$(dirname "$0")/app-test.sh"

compare_at "1 2 3 8" nw all --size=100
compare_at "1 2 3 8" nw all --size=47 --penalty=3
compare_at "1 2 3 8" nw all --size=16
compare_at "1 2 3 8" nw all --size=1
compare_at "1 2 3 8" blu all --size=112
compare_at "1 2 3 8" blu all --size=32
compare_at "1 2 3 8" blu all --size=16
many nw --size=40
many blu --size=48

bad nw --size=0
bad nw --size=40001
bad nw --penalty=-1
bad nw --penalty=1001
bad nw --impl=fil-tree
bad nw --impl=seq --servers=2
bad blu --size=0
bad blu --size=17
bad blu --size=100
bad blu --size=32784
bad blu --impl=bag

helps nw blu
finish loopapps
