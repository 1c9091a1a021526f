#!/bin/sh
# What make references between the jobs it starts (docs/kbuild-measured.md, "make's own
# references").
# usage: tools/measure/kbuild/makerefs.sh SRCDIR RAWDIR [JOBS]
# SRCDIR: the v2.6.24 tree of jobs-2.6.24-i386.csv with run.sh's two-line Makefile split. It
# is cleaned and configured here (ARCH=i386 defconfig), then `make -jJOBS -k vmlinux` (JOBS
# default 4) runs with every make process under the pagerefs Valgrind tool with --forks=yes
# (pagerefs.c): for each make, the pages it referenced between one fork and the next.
# Valgrind follows make's children through exec and lets the compilers, the shell and the
# build's small tools run natively (--trace-children-skip), so each make of the recursive
# build, and only make, writes RAWDIR/make.PID.out. The shell is skipped too: Kbuild runs
# its sub-makes without one (a plain command line), which makerefs.py checks (every
# `make -f scripts/Makefile.build obj=DIR` the top make runs has its file). Then
# tools/measure/kbuild/makerefs.py RAWDIR OUT.csv summarises.
set -e
[ $# -ge 2 ] || {
	echo "usage: $0 SRCDIR RAWDIR [JOBS]" >&2
	exit 2
}
command -v valgrind >/dev/null || {
	echo "makerefs.sh: valgrind is missing (apt-get install valgrind)" >&2
	exit 2
}
src=$(cd "$1" && pwd)
raw=$(mkdir -p "$2" && cd "$2" && pwd)
jobs=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
lib=$(mktemp -d)
"$here/pagerefs-build.sh" "$lib"
rm -f "$raw"/make.*.out "$raw"/make.*.out.x
kc="--param ggc-min-heapsize=4096 --param ggc-min-expand=30"
cd "$src"
make ARCH=i386 CC="gcc -m32" clean >/dev/null 2>&1
make ARCH=i386 CC="gcc -m32" defconfig >/dev/null
skip='*/sh,*/bash,*/dash,*/gcc*,*/cc1,*/as,*/ld*,*/objcopy,*/objdump,*/nm,*/ar,*/strip'
skip="$skip,*/perl*,*/python*,*/sed,*/grep,*/cat,*/awk,*/mawk,*/gawk,*/rm,*/mv,*/cp,*/mkdir"
skip="$skip,*/cmp,*/touch,*/echo,*/expr,*/sort,*/uniq,*/tr,*/cut,*/head,*/tail,*/wc,*/ln"
skip="$skip,*/basename,*/dirname,*/date,*/whoami,*/hostname,*/uname,*/od,*/xargs,*/find"
skip="$skip,*/scripts/*,*/usr/gen_init_cpio,*/arch/*"
start=$(date +%s)
VALGRIND_LIB=$lib nice valgrind -q --tool=pagerefs --forks=yes --out="$raw/make.%p.out" \
	--trace-children=yes --trace-children-skip="$skip" \
	make ARCH=i386 CC="gcc -m32" KCFLAGS="$kc" -k -j"$jobs" vmlinux >"$raw/make.log" 2>&1 ||
	true
echo "makerefs.sh: $(ls "$raw"/make.*.out | wc -l) make processes, $(($(date +%s) - start)) s" >&2
# keep only the fork windows and the header lines (the instruction windows are not used)
for f in "$raw"/make.*.out; do
	grep -E '^(X|K|k|Z|E) ' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
