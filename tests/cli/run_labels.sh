#!/usr/bin/env bash
# The text report names each "most reclaimers at once" figure for what it counts, and the
# numbers are those of the JSON and of the workload's own report.
set -u
mmsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL $*"; exit 1; }
"$mmsim" run scenarios/seed000-arm32m-noswap-5.conf --json "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
# 3: the benchmark was OOM-killed (vanilla on the 32 MB board), a result all the same
[ $rc -eq 0 ] || [ $rc -eq 3 ] || fail "run (exit $rc)"
line=$(grep '^max concurrent reclaimers: ' "$tmp/out") || fail "no labelled line: $(grep -i 'parallel' "$tmp/out")"
d=$(grep -o '"max_parallel_reclaimers":[[:space:]]*[0-9]*' "$tmp/r.json" | grep -o '[0-9]*$')
k=$(grep -o '"max_parallel_reclaimers_incl_kswapd":[[:space:]]*[0-9]*' "$tmp/r.json" | grep -o '[0-9]*$')
s=$(sed -n 's/^ *max parallel reclaim tasks: *\([0-9]*\)$/\1/p' "$tmp/out")
want="max concurrent reclaimers: $d direct (in try_to_free_pages), $k counting kswapd; $s in shrink_zone, kswapd included"
case "$line" in
"$want"*) echo "ok   $line" ;;
*) fail "got '$line', want '$want...'" ;;
esac
