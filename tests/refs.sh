#!/bin/sh
# tests/refs.sh - every reference in the sources and documents resolves
# inside the tree (doc/style.md, "Citations"), so that a reader of a fresh
# clone or of the release tarball can follow each one.
#
# Reads the comments and documents of include/ lib/ apps/ bench/ tests/
# doc/ scripts/ and the top-level files, and fails on
#   - a name that only exists outside the repository: the notes the project
#     was first written from (STYLE §N, API.md, ...), ../shared or papers/;
#   - a path of the tree with a source or document suffix (lib/wait.h,
#     doc/benchmarks.md) or a script (scripts/NAME) that is not there;
#   - a man page of the library, f_NAME(3) or filaments(7), not in doc/;
#   - `NAME.md, "Words"` where doc/NAME.md does not contain the words (the
#     citation and the words on one line; a section is cited by its first
#     words);
#   - a file of lib/ that doc/design.md's table, "Layout of lib/", leaves out.
# Build outputs (apps/fib/fib, tests/check_rtc) have no suffix and are not
# checked.
# $files is split into names on purpose (the tree has no names with spaces).
# shellcheck disable=SC2086
set -u
srcdir=${srcdir:-.}
cd "$srcdir" || exit 1

files=$(
    for f in README Makefile.am configure.ac bootstrap filaments.pc.in .ci/run; do
        [ -f "$f" ] && echo "$f"
    done
    find include lib apps bench tests doc \( -name '.*' -prune \) -o -type f \
        \( -name '*.[ch]' -o -name '*.cc' -o -name '*.sh' -o -name '*.md' \
        -o -name '*.[37]' -o -name '*.py' \) -print
    find scripts tests/data -type f ! -name '*.*'
)
files=$(echo "$files" | grep -v '^tests/refs\.sh$' | sort -u)
[ -n "$files" ] || { echo "refs: no files found in $srcdir"; exit 1; }

status=0
fail() {
    echo "refs: $*"
    status=1
}

# 1. Names that exist only outside the repository.
outside='STYLE( §|\.md)|BENCHMARKS\.md|API\.md|DESIGN(\.md|:)|\.\./shared|(^|[^a-z])shared/|papers/|scaling/'
hits=$(grep -nE "$outside" $files)
[ -z "$hits" ] || fail "names outside the repository:
$hits"

# 2. Paths of the tree.  A path starts a word (not /usr/include/...).
paths=$(grep -ohE '(^|[^A-Za-z0-9_./$-])(include|lib|apps|bench|tests|doc|scripts)/[A-Za-z0-9_./+-]*[A-Za-z0-9_]' $files |
    sed 's/^[^a-z]//' | sort -u)
for p in $paths; do
    case $p in
    *.c | *.h | *.cc | *.sh | *.md | *.3 | *.7 | *.py | *.supp | *.txt | *.csv) ;;
    scripts/*/*) continue ;;
    scripts/*) ;;
    *) continue ;;
    esac
    [ -e "$p" ] || fail "no such file: $p (named in: $(grep -lF "$p" $files | tr '\n' ' '))"
done

# 3. The library's man pages.
pages=$(grep -ohE '\b(f|F)_[A-Za-z0-9_]+\(3\)|\bfilaments\(7\)' $files | sort -u)
for r in $pages; do
    name=${r%(*}
    sect=${r#*(}
    sect=${sect%)}
    [ -f "doc/$name.$sect" ] || fail "no man page doc/$name.$sect for $r"
done

# 4. Sections of the doc/ pages: NAME.md, "Words".
grep -ohE '[a-z]+\.md, "[^"]+"' $files | sort -u | {
    bad=0
    while IFS= read -r r; do
        page=doc/${r%%,*}
        words=${r#*\"}
        words=${words%\"}
        if [ ! -f "$page" ]; then
            echo "refs: no page $page for $r"
            bad=1
        elif ! grep -qF "$words" "$page"; then
            echo "refs: $page has no \"$words\" ($r)"
            bad=1
        fi
    done
    exit $bad
} || status=1

# 5. Every file of lib/ in the table of doc/design.md.
table=$(sed -n '/^## Layout of lib\//,/^## [^L]/p' doc/design.md)
for f in lib/*.[ch]; do
    name=${f#lib/}
    re=$(echo "$name" | sed 's/\./\\./g')
    echo "$table" | grep -qE "(^|[| ,])${re}[ ,|]" || fail "doc/design.md, \"Layout of lib/\", lacks $name"
done

[ $status -eq 0 ] && echo "refs: every reference resolves"
exit $status
