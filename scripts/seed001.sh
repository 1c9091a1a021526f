#!/bin/sh
# Prints the seed-001 comparison (KOSAKI Motohiro's 8-way IA64, 8 GB, hackbench, docs/throttle-seed001.md):
# for each group count, vanilla against the throttle at 3, beside the thread's mean seconds
# (left out when a machine.* setting makes it another machine).
# usage: scripts/seed001.sh [MMSIM] [--seed N] [--groups G,G,...] [KEY=VALUE ...]
#   (default build/mmsim, groups 80,90,...,160); extra KEY=VALUE pairs apply to both arms,
#   e.g. machine.ram=4G machine.swap=1G for a machine variant
set -e
MMSIM=${1:-build/mmsim}
[ $# -gt 0 ] && shift
EXTRA=""
GROUP_LIST="80 90 100 110 120 130 140 150 155 160"
OTHER_MACHINE=0
while [ $# -gt 0 ]; do
	case "$1" in
	--seed) EXTRA="$EXTRA --seed $2"; shift 2 ;;
	--groups)
		case "$2" in
		'' | *[!0-9,]*) echo "seed001.sh: --groups expects numbers separated by commas, got '$2'" >&2; exit 2 ;;
		esac
		GROUP_LIST=$(echo "$2" | tr ',' ' ')
		shift 2
		;;
	machine.*=*) EXTRA="$EXTRA --set $1"; OTHER_MACHINE=1; shift ;;
	*=*) EXTRA="$EXTRA --set $1"; shift ;;
	*) echo "seed001.sh: expected --seed N, --groups LIST or KEY=VALUE, got '$1'" >&2; exit 2 ;;
	esac
done
cd "$(dirname "$0")/.."
printf '%6s %-9s %-10s %9s %9s %7s %6s  %s\n' groups arm Time elapsed sys maxrecl oom \
	"thread (KOSAKI, v6: mean s)"
for g in $GROUP_LIST; do
	for arm in vanilla:0 throttle:3; do
		name=${arm%%:*}
		limit=${arm#*:}
		# shellcheck disable=SC2086
		"$MMSIM" run scenarios/seed001-ia64-hackbench.conf --quiet --json - \
			--set hackbench.groups="$g" --set vm.max_reclaiming_tasks_per_zone="$limit" $EXTRA |
			python3 -c '
import json, sys
d = json.load(sys.stdin)
m = {x["name"]: x["value"] for x in d["result"]["metrics"]}
t = d["time"]
tm = "%.2f" % m["time"] if "time" in m else "OOM-kill" if m.get("oom_kills") else "failed"
# the thread: "[PATCH v6] mm: throttle reclaim", KOSAKI Motohiro, hackbench mean seconds
thread = {80: (26.22, 24.97), 85: (27.31, 25.94), 90: (29.23, 26.77), 95: (30.73, 28.40),
          100: (32.02, 30.62), 105: (33.97, 31.93), 110: (35.37, 33.19), 115: (36.96, 33.68),
          120: (74.05, 36.25), 125: (41.07, 39.30), 130: (86.92, 45.74), 135: (234.62, 45.99),
          140: (291.95, 57.82), 145: (425.35, 70.31), 150: (766.92, 113.28)}
g, arm = int(sys.argv[1]), sys.argv[2]
k = thread.get(g) if sys.argv[3] == "0" else None
ref = ("%.2f" % k[0 if arm == "vanilla" else 1]) if k else ""
print("%6d %-9s %-10s %9.2f %9.2f %7d %6d  %s" % (g, arm, tm, t["elapsed_s"], t["sys_s"],
      m["max_parallel_reclaim"], m["oom_kills"], ref))' "$g" "$name" "$OTHER_MACHINE"
	done
done
