#!/usr/bin/env bash
# Every scenario in tests/regressions/ (the run fuzzer's findings, fixed) runs to its end
# within a CPU-time bound, with the invariant checker, and exits 0. The seed is the one its
# header names ("--seed N"), else 1.
set -eu
mmsim=$1
n=0
for conf in tests/regressions/*.conf; do
	seed=$(sed -n 's/.*--seed \([0-9][0-9]*\).*/\1/p' "$conf" | head -1)
	seed=${seed:-1}
	if ! (ulimit -t 60; "$mmsim" run "$conf" --seed "$seed" --check 1000 --quiet); then
		echo "FAIL: $conf --seed $seed did not finish cleanly"
		exit 1
	fi
	n=$((n + 1))
done
echo "ok   $n regression scenario(s) ran clean"
