#!/bin/sh
# tests/man-lint.sh - the man pages in doc/ parse without warnings, and
# every alias page renders from the source tree.
#
# Runs `mandoc -T lint -W warning` over every page that has content.  An
# alias (f_join.3 for f_fork.3) is a relative symbolic link to its family's
# page in doc/, not a `.so` stub: a stub's path resolves only below an
# installed man directory, so `man -l doc/f_join.3` printed nothing from the
# top of the tree and a troff error from doc/; `make install` copies what
# the link points to.  Checks that no stub is left, that every link names a
# page of doc/ that is no link itself, and, where man(1) is installed, that
# each alias renders the family's NAME from the top of the tree and from
# doc/, as the README says to read them.
# Exits 77 (skipped) when mandoc is not installed (Debian: apt-get install mandoc).
set -u
srcdir=${srcdir:-.}
doc=$srcdir/doc

if ! command -v mandoc >/dev/null 2>&1; then
    echo "man-lint: mandoc not found: skipped"
    exit 77
fi

# The page's NAME section as man -l renders it from directory $1, else empty.
rendered() {
    (cd "$1" && MANWIDTH=80 man -l "$2" 2>&1 | sed -n '/^NAME/,/^SYNOPSIS/p')
}

status=0
pages=
for page in "$doc"/*.[37]; do
    if [ -L "$page" ]; then
        target=$(readlink "$page")
        case $target in
        */*) ok=0 ;;
        *) [ -f "$doc/$target" ] && [ ! -L "$doc/$target" ] && ok=1 || ok=0 ;;
        esac
        if [ $ok -eq 0 ]; then
            echo "man-lint: $page: bad alias: a link to '$target', not to a page of doc/"
            status=1
        elif command -v man >/dev/null 2>&1; then
            name=${page##*/}
            want=$(rendered "$doc" "$target")
            for from in "$srcdir" "$doc"; do
                got=$(rendered "$from" "${page#"$from"/}")
                if [ -z "$want" ] || [ "$got" != "$want" ]; then
                    echo "man-lint: $name: man -l from $from does not render $target"
                    status=1
                fi
            done
        fi
        continue
    fi
    [ -f "$page" ] || continue
    case $(sed -n 1p "$page") in
    .so\ *)
        echo "man-lint: $page: a .so stub: make it a link to its family's page"
        status=1
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
