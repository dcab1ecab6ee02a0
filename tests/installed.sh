#!/bin/sh
# tests/installed.sh - the README's first program (mm.c, "A first program")
# against an installed libfilaments, as a user builds it: with pkg-config
# alone, the README's command line; and with CMake (find_package, the
# project in tests/cmake/), as C and as C++, and where libfilaments-mpi is
# installed, a program linked to filaments::mpi; each one run.
# Under make check it installs this build tree into a temporary DESTDIR
# first, and skips (77) where cmake or a C++ compiler is missing.
# --installed: the library as installed on this system (scripts/debian-check
# runs it so, on the Debian packages, with README and tests/ beside it).
set -u
. "${srcdir:-.}/tests/script-helpers.sh"
case "${1-}" in
    --installed) installed=1 ;;
    "") installed=0 ;;
    *) echo "installed.sh: unknown option '$1' (expected --installed)" >&2; exit 2 ;;
esac
need cmake
need c++
need pkg-config
scratch installed
cmake_args=
if [ "$installed" = 1 ]; then
    cc=cc san=
else
    build_compiler
    install_into "$tmp/dest"
    cmake_args="-Dfilaments_DIR=$libdir/cmake/filaments"
    LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
fi

# The program: the indented lines after "(mm.c):" in the README, up to the
# first line that is neither indented nor blank, less their indent.
awk '/\(mm\.c\):$/ { on = 1; next }
     on && /^[^ ]/ { exit }
     on { sub(/^    /, ""); print }' "$srcdir/README" >"$tmp/mm.c"
grep -q "f_parallel" "$tmp/mm.c" || fail "no program after '(mm.c):' in $srcdir/README"

# run WHAT PROGRAM [ARGS...]: PROGRAM prints the README's check=ok line.
run() {
    what=$1
    shift
    if "$@" >"$tmp/out" 2>&1 && grep -q "check=ok" "$tmp/out"; then
        echo "ok: $what: $(cat "$tmp/out")"
    else
        fail "$what: $* printed: $(cat "$tmp/out")"
    fi
}

# As the README builds it.
# shellcheck disable=SC2046,SC2086 # pkg-config's flags and $san: lists of words
if (cd "$tmp" && $cc -O2 $san mm.c $(pkg-config --cflags --libs filaments)); then
    run "pkg-config filaments" "$tmp/a.out"
else
    fail "cc -O2 mm.c \$(pkg-config --cflags --libs filaments) failed"
fi

# With CMake: the README's program as C and as C++ (mm.cc).
cp "$srcdir/tests/cmake/CMakeLists.txt" "$srcdir/tests/cmake/mpi.c" "$tmp/"
cp "$tmp/mm.c" "$tmp/mm.cc"
# shellcheck disable=SC2086 # $cmake_args: one word or none
if ! cmake -S "$tmp" -B "$tmp/build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$san" \
        -DCMAKE_CXX_FLAGS="$san" $cmake_args >"$tmp/cmake.log" 2>&1 ||
    ! cmake --build "$tmp/build" >>"$tmp/cmake.log" 2>&1; then
    cat "$tmp/cmake.log"
    fail "the CMake project (tests/cmake) did not build"
    finish
fi
run "CMake filaments::filaments, C" "$tmp/build/mm-c"
run "CMake filaments::filaments, C++" "$tmp/build/mm-cxx"
# libfilaments-mpi, where it is installed (its filaments-mpi.pc beside filaments.pc).
if pkg-config --exists filaments-mpi; then
    if [ -x "$tmp/build/mpi" ]; then
        # As tests/mpi.sh: root may run it; Open MPI's own leaks are not ours.
        run "CMake filaments::mpi" env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
            "${MPIRUN:-mpirun}" -np 1 "$tmp/build/mpi"
    else
        fail "libfilaments-mpi is installed, but CMake defined no filaments::mpi"
    fi
fi
finish
