#!/usr/bin/env bash
# Store fault injection, as SQLite's I/O-error tests do it: MMSIM_STORE_FAULT makes the Nth
# write (or sync) of the results store fail, for every N over a sweep. After each failure,
# every run committed before it is intact (its stored line is the one a clean store holds)
# and no run is lost or doubled; the rerun, without the fault, runs exactly the rest and ends
# with the clean store's contents. Uses the fake runner: the store is what is tested.
set -uo pipefail
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export MMSIM_RUN_CMD="$src/tests/fixtures/fake-run.sh" MMSIM_BIN="$bin"
cd "$t"
printf 'workload = fake\n' > s.conf
args=(compare s.conf --arm a --arm b:vm.swappiness=10 --runs 3 -j 1 --no-progress)
total=6
listing() { "$bin" results --db "$1" 2>/dev/null | tail -n +2 | sort; }

"$bin" "${args[@]}" --db clean.db > /dev/null 2>&1 || { echo "FAIL: the clean run" >&2; exit 1; }
listing clean.db > clean.txt
[ "$(wc -l < clean.txt)" -eq "$total" ] || { echo "FAIL: clean store has $(wc -l < clean.txt) runs" >&2; exit 1; }

fails=0 injected=0
for kind in write sync; do
	for n in $(seq 1 40); do
		rm -f f.db f.db-wal f.db-shm rerun.log
		MMSIM_STORE_FAULT=$kind:$n "$bin" "${args[@]}" --db f.db > /dev/null 2> fault.err
		rc=$?
		[ "$rc" -ne 0 ] && injected=$((injected + 1))
		listing f.db > partial.txt
		kept=$(wc -l < partial.txt)
		# every stored run is one the clean store holds, byte for byte, and none twice
		if [ -n "$(comm -23 partial.txt clean.txt)" ] || [ "$(sort -u partial.txt | wc -l)" -ne "$kept" ]; then
			echo "FAIL $kind:$n: the store holds runs the clean one does not"; fails=$((fails + 1))
			continue
		fi
		FAKE_RUN_LOG=rerun.log "$bin" "${args[@]}" --db f.db > /dev/null 2> rerun.err
		rrc=$?
		ran=$( [ -f rerun.log ] && wc -l < rerun.log || echo 0)
		listing f.db > final.txt
		if [ "$rrc" -ne 0 ] || ! cmp -s final.txt clean.txt || [ "$ran" -ne $((total - kept)) ]; then
			echo "FAIL $kind:$n: rerun exit $rrc, ran $ran (want $((total - kept))), store differs: $(cat rerun.err | head -3)"
			fails=$((fails + 1))
		fi
	done
done
echo "$injected of 80 injected faults failed the command; every committed run survived each"
[ "$injected" -gt 0 ] || { echo "FAIL: no fault was injected (MMSIM_STORE_FAULT ignored?)"; exit 1; }
[ "$fails" -eq 0 ] || exit 1
