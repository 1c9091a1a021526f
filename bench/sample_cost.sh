#!/usr/bin/env bash
# The cost of `mmsim run --sample`: each seed scenario's CPU time (user + system) with and
# without sampling, median of N runs each, the two interleaved so that load drifts hit both
# alike, and the ratio. CPU time, not wall: on a shared machine wall time mostly measures
# the neighbours.
#   bash bench/sample_cost.sh build/mmsim [INTERVAL] [N]
set -eu
mmsim=${1:-build/mmsim}
interval=${2:-1s}
n=${3:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu() { # CPU seconds of one run of "$@"
	/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >/dev/null
	awk '{print $1 + $2}' "$tmp/t"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
printf '%-36s %12s %12s %8s\n' scenario plain_cpu_s sampled_cpu_s ratio
tp=0
ts=0
for f in scenarios/seed*.conf; do
	: >"$tmp/p"
	: >"$tmp/s"
	for _ in $(seq "$n"); do
		cpu "$mmsim" run "$f" --quiet --json "$tmp/o.json" >>"$tmp/p"
		cpu "$mmsim" run "$f" --quiet --sample "$interval" --json "$tmp/o.json" >>"$tmp/s"
	done
	p=$(median <"$tmp/p")
	s=$(median <"$tmp/s")
	tp=$(awk -v a="$tp" -v b="$p" 'BEGIN {print a + b}')
	ts=$(awk -v a="$ts" -v b="$s" 'BEGIN {print a + b}')
	awk -v f="$(basename "$f")" -v p="$p" -v s="$s" \
		'BEGIN {printf "%-36s %12.3f %12.3f %8.3f\n", f, p, s, (p > 0 ? s / p : 0)}'
done
awk -v p="$tp" -v s="$ts" 'BEGIN {printf "%-36s %12.3f %12.3f %8.3f\n", "total", p, s, s / p}'
