#!/usr/bin/env bash
# mmsim run --sample: time-ordered rows of every counter; the run's results unchanged by it;
# the last row is the end-of-run /proc/vmstat; no "samples" key without --sample.
set -u
mmsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

"$mmsim" run scenarios/demo.conf --quiet --json "$tmp/plain.json" || fail "plain run"
"$mmsim" run scenarios/demo.conf --quiet --sample 100ms --json "$tmp/s.json" || fail "sampled run"
# --opt=value and --opt value are the same option
"$mmsim" run scenarios/demo.conf --quiet --sample=100ms --json="$tmp/s2.json" || fail "--opt=value"
cmp -s "$tmp/s.json" "$tmp/s2.json" || fail "--sample=100ms differs from --sample 100ms"
python3 - "$tmp/plain.json" "$tmp/s.json" <<'PY' || fails=$((fails + 1))
import json, sys
plain = json.load(open(sys.argv[1]))
sampled = json.load(open(sys.argv[2]))
assert "samples" not in plain, "samples without --sample"
rows = sampled.pop("samples")
assert plain == sampled, "sampling changed the run's results"
ts = [r["t"] for r in rows]
assert len(rows) >= 10, f"only {len(rows)} samples"
assert all(a < b for a, b in zip(ts, ts[1:])), "samples not time-ordered"
assert ts[0] == 0 and abs(ts[1] - 0.1) < 1e-9, ts[:3]
assert abs(ts[-1] - plain["time"]["elapsed_s"]) < 1e-9, "no row at the end of the run"
for k, v in plain["vmstat"].items():
    assert rows[-1][k] == v, f"last row {k}={rows[-1][k]}, /proc/vmstat {v}"
# the per-zone gauges add up to the machine-wide ones
for r in rows:
    for g in ("nr_free_pages", "nr_active_file", "nr_inactive_anon"):
        zs = sum(v for k, v in r.items() if k.startswith(g + "_"))
        assert zs == r[g], (r["t"], g, zs, r[g])
    assert r["mmsim_reclaimers_incl_kswapd"] >= r["mmsim_direct_reclaimers"]
    assert r["pgscan_kswapd_dma"] <= rows[-1]["pgscan_kswapd_dma"]
print(f"ok   {len(rows)} samples, time-ordered, results unchanged")
PY

# --sample-tasks and --sample-disks (top and iostat): results unchanged; each instant's rows
# add up to that instant's counters
"$mmsim" run scenarios/demo.conf --quiet --sample 1s --sample-tasks --sample-disks \
	--json "$tmp/p.json" || fail "run with --sample-tasks --sample-disks"
"$mmsim" run scenarios/demo.conf --quiet --sample 1s --json "$tmp/p0.json" || fail "run at 1s"
python3 - "$tmp/p0.json" "$tmp/p.json" <<'PY' || fails=$((fails + 1))
import json, sys
from collections import defaultdict
plain = json.load(open(sys.argv[1]))
mon = json.load(open(sys.argv[2]))
assert "task_samples" not in plain and "disk_samples" not in plain
tasks, disks = mon.pop("task_samples"), mon.pop("disk_samples")
assert plain == mon, "the task and disk monitors changed the run's results or samples"
rows = {r["t"]: r for r in mon["samples"]}
by_t, disk_t = defaultdict(list), defaultdict(list)
for r in tasks:
    assert r["t"] in rows, ("task row at an instant with no sample", r)
    by_t[r["t"]].append(r)
for r in disks:
    disk_t[r["t"]].append(r)
assert sorted(disk_t) == sorted(rows), "not one disk row set per instant"
assert [r["t"] for r in tasks] == sorted(r["t"] for r in tasks), "task rows not time-ordered"
usemem = max(len([x for x in v if x["comm"] == "usemem"]) for v in by_t.values())
assert usemem >= 2, usemem
last = {}
for t in sorted(rows):
    s, ts, ds = rows[t], by_t[t], disk_t[t]
    maj = sum(x["majflt"] for x in ts)
    flt = sum(x["majflt"] + x["minflt"] for x in ts)
    # a fault counts in pgfault on entry, in the task's minflt on its way out; majflt
    # when its read starts, as pgmajfault does; an exited task's faults leave the sums
    assert maj <= s["pgmajfault"] and flt <= s["pgfault"], (t, maj, flt)
    if len([x for x in ts if x["comm"] == "usemem"]) == usemem:
        assert maj == s["pgmajfault"], (t, maj, s["pgmajfault"])
    # usemem's processes share no anonymous page
    assert sum(x["rss_anon"] for x in ts) == s["nr_anon_pages"], t
    # the disks count a request when it completes, pgpgin/pgpgout when it is submitted
    rd = sum(x["sectors_read"] for x in ds) // 2
    wr = sum(x["sectors_written"] for x in ds) // 2
    assert rd <= s["pgpgin"] and wr <= s["pgpgout"], (t, rd, wr)
    if sum(x["in_flight"] for x in ds) == 0:
        assert rd == s["pgpgin"] and wr == s["pgpgout"], (t, rd, s["pgpgin"], wr, s["pgpgout"])
    for x in ts:
        k = (x["pid"],)
        v = (x["majflt"], x["minflt"], x["utime_s"] + x["stime_s"])
        assert all(a >= b for a, b in zip(v, last.get(k, v))), ("a counter went back", x)
        last[k] = v
    for x in ds:
        assert x["busy_s"] <= t + 1e-9, x
print(f"ok   {len(tasks)} task rows and {len(disks)} disk rows add up; results unchanged")
PY
"$mmsim" run scenarios/demo.conf --quiet --sample-tasks >/dev/null 2>"$tmp/err"
st=$?
if [ $st -ne 2 ] || ! grep -q -- '--sample-tasks needs --sample' "$tmp/err"; then
	fail "--sample-tasks without --sample: status $st"; cat "$tmp/err"
fi

for bad in 0 1ns fast -1s; do
	"$mmsim" run scenarios/demo.conf --quiet --sample "$bad" >/dev/null 2>"$tmp/err"
	st=$?
	if [ $st -ne 2 ] || ! grep -q -- '--sample' "$tmp/err"; then
		fail "--sample $bad: status $st"; cat "$tmp/err"
	fi
done
[ $fails = 0 ] && echo "ok   bad --sample values are exit 2"
exit $((fails > 0))
