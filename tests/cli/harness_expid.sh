#!/usr/bin/env bash
# Tabulating the same stored runs again, with another --metric or -j, keeps the
# experiment's id; a different experiment (another seed count) gets a new one.
set -u
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export MMSIM_RUN_CMD="$src/tests/fixtures/fake-run.sh" MMSIM_BIN="$bin"
cd "$t"
printf 'workload = fake\n' >s.conf
fail() { echo "FAIL: $*" >&2; exit 1; }
id() { "$bin" compare s.conf --arm a --arm b:vm.swappiness=10 --db r.db --no-progress "$@" 2>/dev/null |
	sed -n 's/^Experiment \([0-9]*\) .*/\1/p'; }
[ "$(id --runs 2)" = 1 ] || fail "first experiment"
[ "$(id --runs 2 --metric ops)" = 1 ] || fail "--metric ops minted a new id"
[ "$(id --runs 2 --metric=host_cpu_s -j 1)" = 1 ] || fail "--metric host_cpu_s minted a new id"
[ "$(id --runs 3)" = 2 ] || fail "another seed count is another experiment"
[ "$("$bin" results --experiments --db r.db | grep -c compare)" = 2 ] || fail "experiments listed"
echo "ok   re-tabulating keeps the experiment id"
