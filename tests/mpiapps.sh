#!/bin/sh
# tests/mpiapps.sh - the apps' MPI programs under mpirun (app-mpi.h): at 1
# to 4 ranks, --impl=mpi-fil (and Jacobi's and SOR's mpi-fil-nooverlap,
# grid-mpi.h) at 1 and 2 servers per rank, mpi (and mpi-nooverlap) at 1,
# each with --verify: one line from rank 0, check=ok, ranks=R, and the
# sequential program's line apart from impl=, servers=, ranks= and
# seconds=, so the same digest: matmul's strips, and quad's intervals
# handed out as the ranks ask, whatever rank did which.  Then bad input:
# more ranks than rows, a rank count that leaves a rank one row (Jacobi,
# SOR), servers for a one-thread program, quad's --segments: one line on
# stderr, exit status 2.
# The ranks share the cores (--oversubscribe: CI has 2) and root may run
# them (CI runs the tests as root).  Sourced helpers: tests/app-test.sh.
srcdir=${srcdir:-.}
. "$srcdir/tests/app-test.sh"
MPIRUN=${MPIRUN:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Under AddressSanitizer, LeakSanitizer reports Open MPI's own allocations
# from MPI_Init (some 120 kB in 3,000 blocks, in components it has unloaded
# by then, which no suppression can name): leaks are not checked here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
plain=$timeout

# on RANKS: run() and bad() start the program under mpirun on RANKS ranks.
on() {
    timeout="$plain $MPIRUN -q --oversubscribe -np $1"
}

# Jacobi's and SOR's MPI programs; matmul and quad have mpi-fil and mpi.
grid_impls="mpi-fil mpi-fil-nooverlap mpi mpi-nooverlap"

# mpi_compare PROG IMPLS ARGS...
mpi_compare() {
    prog=$1
    impls=$2
    shift 2
    timeout=$plain
    run "$prog" --impl=seq "$@" || return
    strip "$line"
    want=$stripped
    for ranks in 1 2 3 4; do
        on "$ranks"
        for impl in $impls; do
            servers=1
            case $impl in mpi-fil*) servers="1 2" ;; esac
            for s in $servers; do
                run "$prog" --impl="$impl" --servers="$s" --verify "$@" || continue
                case $line in
                *" ranks=$ranks "*) ;;
                *) fail "$prog --impl=$impl on $ranks ranks: no ranks=$ranks in '$line'" ;;
                esac
                strip "$line"
                [ "$stripped" = "$want" ] ||
                    fail "$prog --impl=$impl --servers=$s on $ranks ranks $*: '$stripped', seq: '$want'"
            done
        done
    done
    timeout=$plain
}

mpi_compare jacobi "$grid_impls" --size=40 --iters=30
mpi_compare jacobi "$grid_impls" --size=12 --iters=100000 --epsilon=1e-4
mpi_compare sor "$grid_impls" --size=41 --iters=30
mpi_compare sor "$grid_impls" --size=12 --iters=100000 --epsilon=1e-4
# 5 rows: 4 ranks get 1 or 2 each.
mpi_compare matmul "mpi-fil mpi" --size=37
mpi_compare matmul "mpi-fil mpi" --size=5
# Some 20,000 leaves, 64 units at 4 ranks; and a tree of one leaf, no units.
mpi_compare quad "mpi-fil mpi" --size=12
mpi_compare quad "mpi-fil mpi" --size=2 --epsilon=1

for prog in jacobi sor; do
    on 3
    bad "$prog" --impl=mpi-fil --servers=1 --size=2
    on 4
    bad "$prog" --impl=mpi --servers=1 --size=7
    on 2
    bad "$prog" --impl=mpi --servers=2 --size=40
    bad "$prog" --impl=mpi-fil --size=0
done
on 4
bad matmul --impl=mpi-fil --servers=1 --size=3
on 2
bad matmul --impl=mpi --servers=2 --size=40
bad quad --impl=mpi --servers=2
bad quad --impl=mpi-fil --segments=2
timeout=$plain
finish mpiapps
