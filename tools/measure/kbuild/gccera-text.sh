#!/bin/sh
# The file-backed pages an old gcc's cc1 references on the 16 jobs of cc1refs.sh
# (docs/kbuild-measured.md, "gcc 3.3's memory against gcc 12's").
# usage: tools/measure/kbuild/gccera-text.sh SRCDIR GCCDIR RAWDIR [FILE.c ...]
# SRCDIR, GCCDIR as for gccera-cc1.py (the tree gccera.sh built; the old gcc's gcc/ build
# directory). FILEs default to cc1refs.sh's: every 6th job of jobs-2.6.24-i386.csv by cc1
# anonymous peak. Each cc1 runs under the pagerefs Valgrind tool (RAWDIR/NAME.out); then
# `gccera-text.sh --count RAWDIR` prints the distinct file-backed pages all the jobs
# referenced together (Valgrind's own files left out), by file: the measure of
# kbuild.text (cc1refs.py's text union). The .out files are cc1refs.sh's kind (every window
# of 2^16..2^28 instructions): `cc1refs.py RAWDIR data/measured/kbuild/jobs-2.6.24-i386.csv
# data/measured/kbuild/gcc-era/cc1refs-gcc346-x86_64host` summarises them as for gcc 12, and
# table.py derives gcc 3.4.6's kbuild.text_refs from that by refs_rule.py.
set -e
here=$(cd "$(dirname "$0")" && pwd)
count() {
	python3 - "$1" <<'PY'
import collections, os, sys
raw = sys.argv[1]
pages, per = set(), collections.Counter()
for n in sorted(f for f in os.listdir(raw) if f.endswith(".out")):
    files = {}
    for line in open(os.path.join(raw, n)):
        f = line.split()
        if f and f[0] == "F":
            files[int(f[1])] = f[2]
        elif f and f[0] == "P" and f[1] == "file":
            name = files[int(f[6])]
            if "valgrind" not in name:
                pages.add((os.path.basename(name), int(f[7])))
for name, pg in pages:
    per[name] += 1
print("jobs %d; file-backed pages referenced together: %d (%.1f MB)" % (
    sum(1 for f in os.listdir(raw) if f.endswith(".out")), len(pages), len(pages) * 4096 / 1e6))
for name, c in per.most_common():
    print("  %6d  %s" % (c, name))
PY
}
if [ "$1" = --count ]; then
	count "$2"
	exit 0
fi
src=$(cd "$1" && pwd)
gccdir=$(cd "$2" && pwd)
raw=$(mkdir -p "$3" && cd "$3" && pwd)
shift 3
data=$here/../../../data/measured/kbuild
files=$*
[ -n "$files" ] || files=$(python3 -c "
import csv
r = sorted(csv.DictReader(open('$data/jobs-2.6.24-i386.csv')),
           key=lambda x: (int(x['cc1_anon_peak_kb']), x['source']))
print(' '.join(r[i]['source'] for i in range(3, len(r), 6)))")
lib=$(mktemp -d)
"$here/pagerefs-build.sh" "$lib"
cd "$src"
for f in $files; do
	name=$(echo "${f%.c}" | tr / _)
	args=$(python3 "$here/gccera-cc1.py" --cmd "$src" "$gccdir" "$f")
	eval "VALGRIND_LIB=$lib valgrind --tool=pagerefs --out=$raw/$name.out $gccdir/cc1 $args" \
		2>"$raw/$name.vg"
	echo "$f: $(grep '^E' "$raw/$name.out")"
done
rm -rf "$lib"
count "$raw"
