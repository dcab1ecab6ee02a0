# tests/script-helpers.sh - what the test scripts share, sourced (not a
# test): after `. "${srcdir:-.}/tests/script-helpers.sh"`, srcdir is set,
# fail counts a failure and goes on, need skips the test where a program is
# missing, scratch makes a temporary folder removed on exit, and finish ends
# the script with its verdict.  Automake's exit statuses: 77 skipped, 99 a
# hard error.
srcdir=${srcdir:-.}
fails=0

# fail MESSAGE...: one failure, said in one line; the test goes on.
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# need PROGRAM: skip the test (exit 77) where PROGRAM is not installed.
need() {
    command -v "$1" >/dev/null 2>&1 || { echo "$1 not found: skipped"; exit 77; }
}

# scratch NAME: $tmp, a new folder named after NAME, removed on exit.
scratch() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 99
    trap 'rm -rf "$tmp"' EXIT
}

# finish [LINE]: exit 1 with the count of failures, if any; else print LINE
# (default "ok") and exit 0.
finish() {
    [ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
    echo "${1:-ok}"
    exit 0
}

# build_compiler: cc, this build tree's C compiler, and san, its sanitizer
# flags (configure --enable-sanitizer), from its Makefile: a program that
# links a sanitized library must be built with them too.
build_compiler() {
    cc=$(sed -n 's/^CC = //p' Makefile)
    san=$(sed -n 's/^SAN_CFLAGS = //p' Makefile)
}

# install_into DEST: make install DESTDIR=DEST from this build tree (exit 1
# with make's output where it fails), then point pkg-config at it:
# PKG_CONFIG_PATH at its filaments.pc and PKG_CONFIG_SYSROOT_DIR at DEST,
# since the .pc file names the configured prefix and pkg-config prepends
# the sysroot to its -I and -L; and set libdir, the libraries' folder there.
install_into() {
    # A make of its own, not the one running the tests (its jobserver, its
    # command-line variables).
    if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make install DESTDIR="$1" >"$1.log" 2>&1; then
        cat "$1.log"
        echo "FAIL: make install DESTDIR=$1"
        exit 1
    fi
    pc=$(find "$1" -name filaments.pc | head -n 1)
    [ -n "$pc" ] || { echo "FAIL: make install put no filaments.pc under $1"; exit 1; }
    PKG_CONFIG_PATH=$(dirname "$pc")
    PKG_CONFIG_SYSROOT_DIR=$1
    export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
    libdir=$(dirname "$(dirname "$pc")")
}
