#!/bin/sh
# tests/mpi.sh - libfilaments-mpi under mpirun: suite "mpi" (tests/check_mpi.c)
# at 1 to 4 ranks, each test at 1 and 2 servers; and a thread level below
# MPI_THREAD_SERIALIZED refused.  Ranks share the cores (--oversubscribe:
# CI has 2), and root may run them (CI runs the tests as root).
set -u
MPIRUN=${MPIRUN:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Under AddressSanitizer, LeakSanitizer reports Open MPI's own allocations
# from MPI_Init (some 120 kB in 3,000 blocks, in components it has unloaded
# by then, which no suppression can name): leaks are not checked here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
status=0
for np in 1 2 3 4; do
    if ! "$MPIRUN" --oversubscribe -np "$np" tests/check_mpi; then
        echo "mpi: suite failed at $np ranks"
        status=1
    fi
done
if ! "$MPIRUN" -np 1 tests/check_mpi funneled; then
    echo "mpi: MPI_THREAD_FUNNELED was not refused"
    status=1
fi
exit $status
