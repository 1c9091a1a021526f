#!/bin/sh
# What a compile job's cc1 references per unit of CPU (docs/kbuild-measured.md, "References
# inside a compile job").
# usage: tools/measure/kbuild/cc1refs.sh SRCDIR RAWDIR [FILE.c ...]
# SRCDIR: the v2.6.24 tree of jobs-2.6.24-i386.csv with run.sh's two-line Makefile split; it is
# configured here (ARCH=i386 defconfig, prepare) if it is not yet. FILEs default to every 6th
# job of data/measured/kbuild/jobs-2.6.24-i386.csv by cc1 anonymous peak (the 4th, 10th, ...,
# 94th smallest). For each FILE:
#   - Kbuild's own command (`make V=1`, CC="gcc -m32", KCFLAGS = gcc 3.3's collector defaults
#     as in the sample) and the cc1 command the gcc driver runs for it (`-###`), output to
#     /dev/null instead of the pipe to as;
#   - cc1's native CPU, 5 runs: RAWDIR/NAME.time (ms user + sys, ms user, peak RSS kB);
#   - cc1 under the pagerefs Valgrind tool (pagerefs.c, built here): the distinct pages per
#     window of instructions and every page's first and last reference: RAWDIR/NAME.out;
#   - the same without -quiet, for the positions of gcc's garbage collections (cc1 then
#     prints " {GC 5325k -> 3012k}" at each; it also times its passes, ~10 % more
#     instructions): the G/g/E lines only, RAWDIR/NAME.gc (kept if it is there already).
# Then tools/measure/kbuild/cc1refs.py RAWDIR writes the summaries in data/measured/kbuild/.
set -e
src=$(cd "$1" && pwd)
raw=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../../../data/measured/kbuild
files=$*
[ -n "$files" ] || files=$(python3 -c "
import csv
r = sorted(csv.DictReader(open('$data/jobs-2.6.24-i386.csv')),
           key=lambda x: (int(x['cc1_anon_peak_kb']), x['source']))
print(' '.join(r[i]['source'] for i in range(3, len(r), 6)))")

# the tool, against Debian's valgrind
lib=$(mktemp -d)
"$here/pagerefs-build.sh" "$lib"

mk="make -C $src ARCH=i386"
kc="--param ggc-min-heapsize=4096 --param ggc-min-expand=30"
if [ ! -f "$src/include/linux/autoconf.h" ] || [ ! -f "$src/include/asm-x86/asm-offsets.h" ]; then
	$mk CC="gcc -m32" defconfig >/dev/null
	$mk CC="gcc -m32" KCFLAGS="$kc" prepare >/dev/null 2>&1
fi
cd "$src"
for f in $files; do
	name=$(echo "${f%.c}" | tr / _)
	o=${f%.c}.o
	rm -f "$o"
	gcccmd=$($mk CC="gcc -m32" KCFLAGS="$kc" V=1 "$o" 2>/dev/null | grep -- "-c -o $o " | tail -1)
	[ -n "$gcccmd" ] || {
		echo "$f: no compile command" >&2
		continue
	}
	cc1=$(eval "$gcccmd -###" 2>&1 | grep '/cc1 ' | sed "s| -o - .*\$| -o /dev/null|; s| -MD [^ ]*| -MD $raw/$name.d|")
	echo "$cc1" >"$raw/$name.cmd"
	# user + sys ms and peak RSS kB of each of 5 runs (getrusage of the children)
	python3 -c '
import resource, subprocess, sys
for i in range(5):
    a = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(sys.argv[1], shell=True, stderr=subprocess.DEVNULL, check=True)
    b = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime) * 1000
    print("%.2f %.2f %d" % (cpu, (b.ru_utime - a.ru_utime) * 1000, b.ru_maxrss))
' "$cc1" >"$raw/$name.time"
	eval "VALGRIND_LIB=$lib valgrind --tool=pagerefs --out=$raw/$name.out $cc1" 2>"$raw/$name.vg"
	if [ ! -s "$raw/$name.gc" ]; then
		loud=$(echo "$cc1" | sed 's/ -quiet//g')
		eval "VALGRIND_LIB=$lib valgrind --tool=pagerefs --out=$raw/$name.loud $loud" 2>/dev/null
		grep '^[GgE] ' "$raw/$name.loud" >"$raw/$name.gc"
		rm -f "$raw/$name.loud"
	fi
	echo "$f: $(grep '^E' "$raw/$name.out")"
done
rm -rf "$lib"
