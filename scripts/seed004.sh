#!/bin/sh
# Prints the seed-004 comparison (Mel Gorman 2011, "Reduce filesystem writeback from page
# reclaim"; docs/writeback-series.md): fs_mark on the v1 machine (nr_cpus=1 mem=512M) with the
# patches applied one by one, or on the v2 machine (4 cores, RAID-0, dirty_ratio 40) with
# vanilla, p1-7 and p1-8. First `mmsim compare`'s mmtests-style report, then a table in the
# thread's shape with the thread's numbers beside it.
# usage: scripts/seed004.sh [v1|v2] [MMSIM] [RUNS]   (defaults v1, build/mmsim, 3)
# SEED004_DB names the results store (default seed004-results.db); runs already there are
# reused, so a second call only prints. SEED004_JOBS sets -j.
set -e
WHICH=${1:-v1}
MMSIM=${2:-build/mmsim}
RUNS=${3:-3}
cd "$(dirname "$0")/.."
DB=${SEED004_DB:-seed004-results.db}
JOBS=${SEED004_JOBS:+-j $SEED004_JOBS}
command -v jq >/dev/null || { echo "seed004.sh: needs jq" >&2; exit 2; }

P1=vm.reclaim_direct_file_writeback=0
P2=vm.reclaim_kswapd_file_writeback=1
P3=vm.reclaim_throttle_writeback=1
P4=vm.reclaim_immediate=1
P8=vm.reclaim_kswapd_file_writeback=0
case "$WHICH" in
v1)
	CONF=scenarios/seed004-v1-fsmark.conf
	# name|overrides (v3 numbering: patch 6 is the throttle, 7 immediate reclaim)
	ARMS="vanilla|
nodirectwb|$P1
lesskswapdwb|$P1,$P2
throttle|$P1,$P2,$P3
immediate|$P1,$P2,$P3,$P4"
	THREAD='Files/s mean|6.93|6.96|7.11|7.52|7.44
Elapsed (s)|567|567|552|526|535
Page writes by reclaim|14511|14721|10387|4819|3617
Kswapd file writes|4483|4286|0|1|0
Direct scans as % of total|37%|37%|7%|2%|0%
Kswapd efficiency|57%|57%|48%|47%|66%'
	;;
v2)
	CONF=scenarios/seed004-v2-fsmark.conf
	ARMS="vanilla|
kswapdwb|$P1,$P2,$P3,$P4
nokswapdwb|$P1,$P8,$P3,$P4"
	THREAD='Files/s mean|30.32|34.34|34.52
Elapsed (s)|137.65|121.95|121.11
Page writes by reclaim|170014|117717|123510
Kswapd file writes|37966|0|0
Direct scans as % of total|-|-|-
Kswapd efficiency|-|-|-'
	;;
*)
	echo "usage: scripts/seed004.sh [v1|v2] [MMSIM] [RUNS]" >&2
	exit 2
	;;
esac

set --
NAMES=""
OVR=""
IFS_SAVE=$IFS
IFS='
'
for a in $ARMS; do
	n=${a%%|*}
	o=${a#*|}
	NAMES="$NAMES $n"
	OVR="$OVR|$o"
	if [ -n "$o" ]; then set -- "$@" --arm "$n:$o"; else set -- "$@" --arm "$n"; fi
done
IFS=$IFS_SAVE

OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
# shellcheck disable=SC2086
"$MMSIM" compare "$CONF" "$@" --runs "$RUNS" --db "$DB" --no-progress $JOBS | tee "$OUT"
HASH=$(sed -n 's/.*content fnv1a64 \([0-9a-f]*\).*/\1/p' "$OUT" | head -1)

echo
echo "== seed 004 $WHICH in the thread's shape: mmsim mean of seeds 1..$RUNS (the thread's value)"
echo "   prioinode (v1 patch 5, I_DIRTY_RECLAIM inode priority) is not implemented in mmsim."
VERSION=$("$MMSIM" --version | cut -d' ' -f2) # runs of other model code stay out
"$MMSIM" results --json --db "$DB" | jq -r --arg hash "$HASH" --argjson runs "$RUNS" --arg version "$VERSION" \
	--arg names "$NAMES" --arg ovr "$OVR" --arg thread "$THREAD" '
  def canon: split(",") | map(select(. != "")) | sort | join(",");
  def sum(f): map(f) | add;
  def zones(r; base): [r.vmstat | to_entries[] | select(.key | test("^" + base + "_(dma|dma32|normal|high)$")) | .value] | add // 0;
  ($names | split(" ") | map(select(. != ""))) as $n
  | ($ovr | split("|") | .[1:] | map(canon)) as $o
  | [.runs[] | select(.scenario_hash == $hash and .seed <= $runs and .version == $version)] as $all
  | [range(0; $n | length) as $i
     | [$all[] | select((.overrides | canon) == $o[$i]) | .run] as $rs
     | ($rs | length) as $k
     | def mean(f): if $k == 0 then null else ($rs | sum(f)) / $k end;
       def metric(name): [.result.metrics[] | select(.name == name) | .value][0];
       { name: $n[$i], k: $k,
         fps: mean(metric("files_per_sec")),
         el: mean(metric("elapsed")),
         wr: mean(.vmstat.nr_vmscan_write),
         kf: mean(.vmstat.mmsim_kswapd_file_writes),
         df: mean(.vmstat.mmsim_direct_file_writes),
         ds: mean(zones(.; "pgscan_direct")), ks: mean(zones(.; "pgscan_kswapd")),
         kr: mean(.vmstat.pgsteal_kswapd),
         skip: mean(.vmstat.nr_vmscan_write_skip), thr: mean(.vmstat.nr_vmscan_throttled) } ]
  as $t
  | ($thread | split("\n") | map(split("|"))) as $th
  | def pct(a; b): if b > 0 then (a * 100 / b | floor | tostring) + "%" else "-" end;
    def cell(v; i; r): (v | tostring) + " (" + $th[r][i + 1] + ")";
    def row(lbl; r; f): [lbl] + [range(0; $t | length) as $i | cell($t[$i] | f; $i; r)];
    [["", ($t[] | .name + " [" + (.k | tostring) + " runs]")]
     | flatten,
     row("Files/s mean"; 0; .fps * 100 | round / 100),
     row("Elapsed (s)"; 1; .el * 10 | round / 10),
     row("Page writes by reclaim"; 2; .wr | round),
     row("Kswapd file writes"; 3; .kf | round),
     row("Direct scans as % of total"; 4; pct(.ds; .ds + .ks)),
     row("Kswapd efficiency"; 5; pct(.kr; .ks)),
     (["Direct file writes (mmsim)"] + [$t[] | .df | round | tostring]),
     (["Page writes skipped (mmsim)"] + [$t[] | .skip | round | tostring]),
     (["Page reclaim throttled (mmsim)"] + [$t[] | .thr | round | tostring])]
  | .[] | map(tostring) | .[0] |= (. + (" " * 30))[0:30]
  | .[1:] |= map((" " * 22 + .)[-22:]) | join("")'
