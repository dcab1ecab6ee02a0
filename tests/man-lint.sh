#!/bin/sh
# tests/man-lint.sh - the man pages in doc/ parse without warnings.
#
# Runs `mandoc -T lint -W warning` over every page that has content, and checks
# that every link page (one line, `.so man3/<page>.3`) names a page that exists
# in doc/.  The link pages themselves are not linted: mandoc always warns that
# .so is fragile, and resolves the path only below an installed man directory.
# Exits 77 (skipped) when mandoc is not installed (Debian: apt-get install mandoc).
set -u
srcdir=${srcdir:-.}
doc=$srcdir/doc

if ! command -v mandoc >/dev/null 2>&1; then
    echo "man-lint: mandoc not found: skipped"
    exit 77
fi

status=0
pages=
for page in "$doc"/*.[37]; do
    [ -f "$page" ] || continue
    first=$(sed -n 1p "$page")
    case $first in
    .so\ *)
        target=${first#.so }
        if [ "$(wc -l <"$page")" -ne 1 ] || [ ! -f "$doc/${target#*/}" ]; then
            echo "man-lint: $page: bad link page: '$first'"
            status=1
        fi
        ;;
    *)
        pages="$pages $page"
        ;;
    esac
done

if [ -z "$pages" ]; then
    echo "man-lint: no man pages in $doc"
    exit 1
fi
# shellcheck disable=SC2086 # one word per page; the paths have no blanks
mandoc -T lint -W warning $pages || status=1
exit $status
