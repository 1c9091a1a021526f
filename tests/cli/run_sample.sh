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

for bad in 0 1ns fast -1s; do
	"$mmsim" run scenarios/demo.conf --quiet --sample "$bad" >/dev/null 2>"$tmp/err"
	st=$?
	if [ $st -ne 2 ] || ! grep -q -- '--sample' "$tmp/err"; then
		fail "--sample $bad: status $st"; cat "$tmp/err"
	fi
done
[ $fails = 0 ] && echo "ok   bad --sample values are exit 2"
exit $((fails > 0))
