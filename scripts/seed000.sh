#!/bin/sh
# Prints the seed-000 comparison (Minchan Kim's 32 MB ARM board, docs/throttle-seed000.md):
# every seed000-*.conf scenario, vanilla against the throttle Minchan ran (KOSAKI's RFC of
# 19 Feb 2008, v1: 2 tasks in try_to_free_pages at once on a one-node machine), one row each.
# usage: scripts/seed000.sh [MMSIM] [--seed N] [KEY=VALUE ...]   (default build/mmsim)
#   extra KEY=VALUE pairs apply to both arms, e.g. kernel.sched_normalized_sleeper=1
set -e
MMSIM=${1:-build/mmsim}
[ $# -gt 0 ] && shift
EXTRA=""
while [ $# -gt 0 ]; do
	case "$1" in
	--seed) EXTRA="$EXTRA --seed $2"; shift 2 ;;
	*=*) EXTRA="$EXTRA --set $1"; shift ;;
	*) echo "seed000.sh: expected --seed N or KEY=VALUE, got '$1'" >&2; exit 2 ;;
	esac
done
cd "$(dirname "$0")/.."
printf '%-26s %-9s %-10s %9s %9s %7s %6s %6s  %s\n' scenario arm Time elapsed sys majflt maxrecl oom \
	"board (Minchan Kim: Time, majflt, max parallel reclaim)"
for f in scenarios/seed000-*.conf; do
	for arm in vanilla:0 throttle:2; do
		name=${arm%%:*}
		limit=${arm#*:}
		# shellcheck disable=SC2086
		"$MMSIM" run "$f" --quiet --json - --set vm.max_reclaiming_tasks="$limit" $EXTRA |
			python3 -c '
import json, sys
d = json.load(sys.stdin)
m = {x["name"]: x["value"] for x in d["result"]["metrics"]}
t = d["time"]
tm = "%.3f" % m["time"] if "time" in m else "OOM-kill" if m.get("oom_kills") else "failed"
board = {  # seed 000, as the thread reports them
    ("seed000-arm32m-noswap-5", "vanilla"): "12.591, 20, 30",
    ("seed000-arm32m-noswap-5", "throttle"): "11.535, 18, 4",
    ("seed000-arm32m-noswap-6", "vanilla"): "OOM kill",
    ("seed000-arm32m-noswap-6", "throttle"): "16.578, 22, 4",
    ("seed000-arm32m-swap-6", "vanilla"): "121.686, 230, 56",
    ("seed000-arm32m-swap-6", "throttle"): "67.757, 16, 4",
}.get((sys.argv[1], sys.argv[2]), "")
print("%-26s %-9s %-10s %9.2f %9.2f %7d %6d %6d  %s" % (sys.argv[1], sys.argv[2], tm,
      t["elapsed_s"], t["sys_s"], t["major_faults"], m["max_parallel_reclaim"],
      m["oom_kills"], board))' "$(basename "$f" .conf)" "$name"
	done
done
