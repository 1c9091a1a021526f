#!/usr/bin/env bash
# The compiled-in tables of measured programs are what their generators make of the data in
# data/measured/ (docs/kbuild-measured.md, docs/desktop-measured.md): regenerate and compare.
set -eu
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 tools/measure/kbuild/table.py data/measured/kbuild/jobs-2.6.24-i386.csv \
	data/measured/kbuild/jobs-2.6.24-i386-other.csv data/measured/kbuild/cc1refs-2.6.24-i386 \
	data/measured/kbuild/gcc-era/text-gcc346-x86_64host.txt \
	data/measured/kbuild/gcc-era/cc1refs-gcc346-x86_64host >"$tmp/k.c"
diff -q "$tmp/k.c" src/workloads/kbuild_measured.c ||
	{ echo "FAIL: src/workloads/kbuild_measured.c is not what table.py makes of the data"; exit 1; }
python3 tools/measure/kbuild/maketable.py data/measured/kbuild/makerefs-2.6.24-i386.csv \
	data/measured/kbuild/cc1refs-2.6.24-i386-jobs.csv >"$tmp/km.c"
diff -q "$tmp/km.c" src/workloads/kbuild_measured_make.c ||
	{ echo "FAIL: src/workloads/kbuild_measured_make.c is not what maketable.py makes of the data"; exit 1; }
python3 tools/measure/desktop/table.py c data/measured/desktop "$tmp/m.c" "$tmp/p.c" "$tmp/a.c" \
	"$tmp/i.c" >"$tmp/d.c"
diff -q "$tmp/i.c" src/workloads/desktop_measured_idle.c ||
	{ echo "FAIL: src/workloads/desktop_measured_idle.c is not what table.py makes of the data"; exit 1; }
diff -q "$tmp/a.c" src/workloads/desktop_measured_anon.c ||
	{ echo "FAIL: src/workloads/desktop_measured_anon.c is not what table.py makes of the data"; exit 1; }
diff -q "$tmp/m.c" src/workloads/desktop_measured_maps.c ||
	{ echo "FAIL: src/workloads/desktop_measured_maps.c is not what table.py makes of the data"; exit 1; }
diff -q "$tmp/p.c" src/workloads/desktop_measured_pages.c ||
	{ echo "FAIL: src/workloads/desktop_measured_pages.c is not what table.py makes of the data"; exit 1; }
diff -q "$tmp/d.c" src/workloads/desktop_measured.c ||
	{ echo "FAIL: src/workloads/desktop_measured.c is not what table.py makes of the data"; exit 1; }
python3 tools/measure/desktop/xsends_table.py data/measured/desktop "$tmp/x.c" >/dev/null
diff -q "$tmp/x.c" src/workloads/desktop_measured_x.c ||
	{ echo "FAIL: src/workloads/desktop_measured_x.c is not what xsends_table.py makes of the data"; exit 1; }
# the page sets, decoded back to file pages, are the measured ones (and the anonymous
# pages of each switch the ranks in anonsets.csv)
python3 tools/measure/desktop/table.py verify data/measured/desktop src/workloads >"$tmp/v" ||
	{ cat "$tmp/v"; echo "FAIL: the compiled-in page sets differ from data/measured/desktop/pages.csv or anonsets.csv"; exit 1; }
echo "ok   the measured tables match data/measured/"
