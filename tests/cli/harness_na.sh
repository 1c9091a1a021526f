#!/usr/bin/env bash
# Figures that do not apply are shown as "-", never as "± 0.00", "0.00" or "nan": the sample
# stddev and CoeffVar of one run, the spread of a sweep cell of one run.
set -u
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export MMSIM_RUN_CMD="$src/tests/fixtures/fake-run.sh" MMSIM_BIN="$bin"
cd "$t"
printf 'workload = fake\n' >s.conf
fail() { echo "FAIL: $*" >&2; exit 1; }
"$bin" compare s.conf --arm a --arm b:vm.swappiness=10 --runs 1 --db r.db --no-progress >c1 2>/dev/null ||
	fail "compare --runs 1"
grep -E '^(Stddev|CoeffVar) ' c1 | grep -qv -- ' -$' && fail "one run's stddev shown: $(grep -E '^Stddev' c1 | head -2)"
grep -qi 'nan' c1 && fail "nan in the compare tables"
"$bin" sweep s.conf --vary hackbench.groups=1,2 --runs 1 --db r.db --no-progress >s1 2>/dev/null ||
	fail "sweep --runs 1"
grep -q '±' s1 && fail "± shown for one run per cell: $(grep '±' s1 | head -2)"
grep -qi 'nan' s1 && fail "nan in the sweep table"
"$bin" compare s.conf --arm a --arm b:vm.swappiness=10 --runs 3 --db r.db --no-progress >c3 2>/dev/null
grep -E '^Stddev ' c3 | grep -qE '[0-9]\.[0-9]+ \(' || fail "three runs' stddev not shown"
"$bin" sweep s.conf --vary hackbench.groups=1,2 --runs 3 --db r.db --no-progress >s3 2>/dev/null
grep -q '±' s3 || fail "three runs' spread not shown in the sweep"
echo "ok   figures that do not apply are '-'"
