#!/usr/bin/env bash
# The documented seed-001 command runs both arms per group count with the thread's figure
# beside them: at 80 groups of 10 loops nothing reclaims, so the arms are identical and no
# task OOM-killed; the thread column is KOSAKI's v6 table; bad arguments are refused.
set -eu
mmsim=$1
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
out=$(sh scripts/seed001.sh "$mmsim" --groups 80 hackbench.loops=10)
echo "$out"
echo "$out" | awk 'NR > 1 { n++; t[$2] = $3; if ($6 != 0 || $7 != 0) bad = 1; ref[$2] = $8 }
  END {
	if (n != 2) { print "FAIL: expected 2 rows, got " n; exit 1 }
	if (bad) { print "FAIL: a row reclaimed or OOM-killed below the cliff"; exit 1 }
	if (t["vanilla"] != t["throttle"]) { print "FAIL: the arms differ with nothing to throttle"; exit 1 }
	if (t["vanilla"] + 0 > 5) { print "FAIL: hackbench.loops=10 did not reach the runs (1000 loops take 43 s)"; exit 1 }
	if (ref["vanilla"] != "26.22" || ref["throttle"] != "24.97") { print "FAIL: thread column"; exit 1 }
  }'
# another machine is not the thread's: no thread column
out=$(sh scripts/seed001.sh "$mmsim" --groups 80 hackbench.loops=10 machine.ram=10G)
echo "$out" | awk 'NR > 1 && NF != 7 { print "FAIL: thread column on another machine: " $0; bad = 1 } END { exit bad }'
for bad in "--groups x" "bogus"; do
	# shellcheck disable=SC2086
	if sh scripts/seed001.sh "$mmsim" $bad 2>/dev/null; then echo "FAIL: '$bad' accepted"; exit 1; fi
done
echo "ok   seed001.sh prints both arms per group count beside the thread's table; settings pass through; bad arguments refused"
