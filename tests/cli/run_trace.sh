#!/usr/bin/env bash
# mmsim run --trace: trace_pipe lines of the reclaim tracepoints. On seed 000's 6-group run
# the mm_vmscan_direct_reclaim_begin/end pairs, counted in the order written, reach the same
# maximum of concurrent direct reclaimers as the run's report (a run that ends in an OOM kill
# stops with reclaimers still inside, whose begin has no end); tracing changes no result;
# --trace-filter keeps only the events its globs name; a glob naming nothing is exit 2.
set -u
mmsim=$1
scen=scenarios/seed000-arm32m-noswap-6.conf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# 0, or 3 when the benchmark was OOM-killed (a result: the JSON is written)
ran() { "$@"; local rc=$?; [ $rc -eq 0 ] || [ $rc -eq 3 ]; }

ran "$mmsim" run "$scen" --quiet --json "$tmp/plain.json" 2>/dev/null || fail "plain run"
ran "$mmsim" run "$scen" --quiet --trace "$tmp/trace" --json "$tmp/traced.json" 2>/dev/null || fail "traced run"
cmp -s "$tmp/plain.json" "$tmp/traced.json" || fail "--trace changed the run's JSON"

# mmtests' trace-vmscan-postprocess.pl line pattern (with or without irq-info columns)
re='^ *[a-zA-Z0-9_.-]*-[0-9]+ +\[[0-9]+\]( +[dX.][Nnp.][Hhs.][0-9a-fA-F.]*)? +[0-9]+\.[0-9]{6}: [a-z_]+: .*$'
bad=$(grep -cvE "$re" "$tmp/trace")
[ "$bad" = 0 ] || { fail "$bad lines not in trace_pipe format:"; grep -vE "$re" "$tmp/trace" | head -3; }
grep -qE 'mm_vmscan_direct_reclaim_begin: order=0 may_writepage=1 gfp_flags=GFP_[A-Z_|]+$' "$tmp/trace" ||
	fail "no direct_reclaim_begin in the 2.6.36 format"

want=$(grep -o '"max_parallel_reclaimers":[[:space:]]*[0-9]*' "$tmp/plain.json" | grep -o '[0-9]*$')
got=$(awk '/: mm_vmscan_direct_reclaim_begin:/ { if (++n > m) m = n }
	/: mm_vmscan_direct_reclaim_end:/ { n-- }
	END { print m + 0 }' "$tmp/trace")
if [ "$got" = "$want" ] && [ "$want" -gt 1 ]; then
	echo "ok   begin/end pairs: at most $got concurrent direct reclaimers, as the report"
else
	fail "begin/end pairs give '$got', the report $want"
fi

ran "$mmsim" run "$scen" --quiet --trace "$tmp/f" --trace-filter='mm_vmscan_direct_*,writeback_*' 2>/dev/null ||
	fail "filtered run"
others=$(grep -cvE ': (mm_vmscan_direct_reclaim_(begin|end)|writeback_[a-z_]+): ' "$tmp/f")
n=$(grep -c ': mm_vmscan_direct_reclaim_begin: ' "$tmp/f")
[ "$others" = 0 ] && [ "$n" -gt 0 ] && echo "ok   --trace-filter keeps only its events" ||
	fail "--trace-filter: $others other lines, $n begins"

"$mmsim" run "$scen" --quiet --trace "$tmp/x" --trace-filter 'mm_vmscan_nonesuch' 2>"$tmp/err"
st=$?
if [ $st = 2 ] && grep -q "mm_vmscan_nonesuch" "$tmp/err" && grep -q "mm_vmscan_kswapd_wake" "$tmp/err"; then
	echo "ok   a glob matching no event is exit 2 naming the events"
else
	fail "unknown event: status $st"; cat "$tmp/err"
fi
"$mmsim" run "$scen" --quiet --trace-filter 'mm_*' 2>/dev/null
[ $? = 2 ] || fail "--trace-filter without --trace is not exit 2"
exit $((fails > 0))
