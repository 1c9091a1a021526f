#!/usr/bin/env bash
# The cost of `mmsim run --sample`: each seed scenario's wall time with and without sampling
# (median of N runs each, interleaved so load drifts hit both alike), and the ratio.
#   bash bench/sample_cost.sh build/mmsim [INTERVAL] [N]
set -eu
mmsim=${1:-build/mmsim}
interval=${2:-1s}
n=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
printf '%-36s %10s %10s %8s\n' scenario plain_s sampled_s ratio
tp=0
ts=0
for f in scenarios/seed*.conf; do
	: >"$tmp/p"
	: >"$tmp/s"
	for _ in $(seq "$n"); do
		a=$(now); "$mmsim" run "$f" --quiet --json "$tmp/o.json"; b=$(now)
		echo "$b - $a" | bc >>"$tmp/p"
		a=$(now); "$mmsim" run "$f" --quiet --sample "$interval" --json "$tmp/o.json"; b=$(now)
		echo "$b - $a" | bc >>"$tmp/s"
	done
	p=$(median <"$tmp/p")
	s=$(median <"$tmp/s")
	tp=$(echo "$tp + $p" | bc)
	ts=$(echo "$ts + $s" | bc)
	printf '%-36s %10.3f %10.3f %8.3f\n' "$(basename "$f")" "$p" "$s" "$(echo "$s / $p" | bc -l)"
done
printf '%-36s %10.3f %10.3f %8.3f\n' total "$tp" "$ts" "$(echo "$ts / $tp" | bc -l)"
