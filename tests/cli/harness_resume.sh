#!/usr/bin/env bash
# A sweep killed half-way and run again runs only the missing points, and its final table is
# the one an uninterrupted sweep prints. Uses the fake runner, so it does not depend on the
# simulation core.
set -euo pipefail
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export MMSIM_RUN_CMD="$src/tests/fixtures/fake-run.sh"
cd "$t"
printf 'workload = fake\n' > s.conf
args=(sweep s.conf --vary hackbench.groups=80:120:10 --arm vanilla
      --arm throttle:vm.max_reclaiming_tasks_per_zone=3 --runs 2 -j 2 --no-progress)
total=20
count() { "$bin" results --db "$1" 2>/dev/null | tail -n +2 | wc -l; }

"$bin" "${args[@]}" --db full.db > full.txt 2> /dev/null

FAKE_RUN_DELAY=0.3 "$bin" "${args[@]}" --db part.db > /dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
  [ "$(count part.db)" -ge $((total / 2)) ] && break
  sleep 0.05
done
kill -9 "$pid"
wait "$pid" 2> /dev/null || true
stored=$(count part.db)
echo "killed after $stored of $total runs were stored"
if [ "$stored" -ge "$total" ] || [ "$stored" -lt 1 ]; then
  echo "FAIL: expected a partial store, got $stored runs" >&2
  exit 1
fi

FAKE_RUN_LOG=rerun.log "$bin" "${args[@]}" --db part.db > part.txt 2> rerun.err
ran=$(wc -l < rerun.log)
echo "re-run ran $ran runs"
if [ "$ran" -ne $((total - stored)) ]; then
  echo "FAIL: re-run ran $ran runs, expected $((total - stored))" >&2
  exit 1
fi
diff -u full.txt part.txt
# And a third run has nothing left to do.
FAKE_RUN_LOG=third.log "$bin" "${args[@]}" --db part.db > third.txt 2> /dev/null
[ ! -s third.log ] || { echo "FAIL: a complete sweep ran again" >&2; exit 1; }
diff -u full.txt third.txt
echo "resume OK"
