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
