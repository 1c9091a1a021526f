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
python3 tools/measure/hackbench_text_table.py data/measured/hackbench_text.txt >"$tmp/ht.c"
diff -q "$tmp/ht.c" src/workloads/hackbench_text.c ||
	{ echo "FAIL: src/workloads/hackbench_text.c is not what hackbench_text_table.py makes of the data"; exit 1; }
# hackbench's defaults: the program text is the measured total (tools/measure/hackbench_text.py)
# and the ARM926's skb truesize for 100 bytes is ALIGN(100, 32) + the EABI sizeof(struct sk_buff)
# of tools/measure/skb_layout.sh
mmsim=${1:-build/mmsim}
if [ -x "$mmsim" ]; then
	printf 'machine.profile = arm926-2008\nmachine.ram = 32M\nworkload = hackbench\nhackbench.groups = 1\nhackbench.loops = 1\n' >"$tmp/hb.conf"
	"$mmsim" run "$tmp/hb.conf" --json "$tmp/hb.json" >"$tmp/hb.txt" 2>&1 ||
		{ cat "$tmp/hb.txt"; echo "FAIL: the one-group hackbench run"; exit 1; }
	kib=$(sed -n 's/^program .*total [0-9]* pages (\([0-9]*\) KiB)$/\1/p' data/measured/hackbench_text.txt | head -1)
	text=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["hackbench.text"])' "$tmp/hb.json")
	[ -n "$kib" ] && [ "$text" = "$((kib * 1024))" ] ||
		{ echo "FAIL: hackbench.text $text is not data/measured/hackbench_text.txt's ${kib:-?} KiB"; exit 1; }
	skb=$(awk '/^ARM EABI/{f=1; next} f && /sizeof_sk_buff/{print $2; exit}' data/measured/skb_layout.txt)
	grep -q "truesize $((128 + skb));" "$tmp/hb.txt" ||
		{ echo "FAIL: the ARM926's skb truesize is not 128 + skb_layout.txt's EABI sk_buff (${skb:-?})"; exit 1; }
	# fs_mark's steps: data/measured/fsmark_costs.txt's medians on each 2011 profile, the work
	# scaled by the clock and a system call's entry at the profile's syscall_ns
	# (docs/hardware.md, "fs_mark's steps")
	for prof in amd-2011 intel-2011; do
		printf 'machine.profile = %s\nmachine.ram = 64M\nworkload = fsmark\nfsmark.files = 1\nfsmark.loops = 1\nfsmark.size = 4096\n' "$prof" >"$tmp/fm.conf"
		"$mmsim" run "$tmp/fm.conf" --json "$tmp/fm.json" >"$tmp/fm.txt" 2>&1 ||
			{ cat "$tmp/fm.txt"; echo "FAIL: the one-file fs_mark run on $prof"; exit 1; }
		python3 - data/measured/fsmark_costs.txt "$tmp/fm.json" <<'PY' || exit 1
import json, re, statistics, sys
text = open(sys.argv[1]).read()
host = float(re.search(r"^# cpu .* ([0-9.]+) MHz", text, re.M).group(1))
med = {k: statistics.median(float(v) for v in re.findall(r"^  %s ([0-9]+)" % k, text, re.M))
       for k in ("name_ns", "mkdir_eexist_ns", "create_ns", "close_ns", "null_syscall_ns")}
run = json.load(open(sys.argv[2]))
ratio = host / run["profile"]["cpu_mhz"]
sysc = run["profile"]["syscall_ns"]
want = {"name": med["name_ns"] * ratio}
for key, m in (("mkdir", "mkdir_eexist_ns"), ("create", "create_ns"), ("close", "close_ns")):
    want[key] = (med[m] - med["null_syscall_ns"]) * ratio + sysc
line = re.search(r"CPU of the steps: (.*)", run["result"]["text"]).group(1)
got = {k: int(v) for k, v in re.findall(r"(\w+) (\d+) ns", line)}
for key, w in want.items():
    if abs(got[key] - w) > 1:
        sys.exit("FAIL: %s %s costs %d ns, data/measured/fsmark_costs.txt gives %.0f" % (
            run["profile"]["name"], key, got[key], w))
PY
	done
fi
echo "ok   the measured tables match data/measured/"
