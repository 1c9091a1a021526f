#!/usr/bin/env bash
# compare/sweep --metric with a name no run reports is exit 2 naming the metrics that exist;
# a right name, or a host figure, is accepted.
set -u
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export MMSIM_RUN_CMD="$src/tests/fixtures/fake-run.sh" MMSIM_BIN="$bin"
cd "$t"
printf 'workload = fake\n' >s.conf
fail() { echo "FAIL: $*" >&2; exit 1; }
args=(s.conf --arm a --arm b:vm.swappiness=10 --runs 2 --db r.db --no-progress)
"$bin" compare "${args[@]}" --metric nonesuch >out 2>err
st=$?
[ $st = 2 ] || fail "unknown --metric: status $st"
grep -q "no run reports 'nonesuch'; the metrics are: elapsed ops host_cpu_s" err ||
	fail "message: $(cat err)"
"$bin" sweep s.conf --vary hackbench.groups=1,2 --runs 1 --db r.db --no-progress --metric=nonesuch \
	>/dev/null 2>err
[ $? = 2 ] || fail "sweep: unknown --metric accepted"
"$bin" compare "${args[@]}" --metric ops >/dev/null 2>err || fail "--metric ops: $(cat err)"
"$bin" compare "${args[@]}" --metric host_cpu_s >/dev/null 2>err || fail "--metric host_cpu_s"
echo "ok   unknown --metric is exit 2 naming the metrics"
