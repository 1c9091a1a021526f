#!/usr/bin/env bash
# compare draws a progress line with the rate and the time left on a terminal, nothing when
# stderr is not a terminal, nothing with --no-progress.
set -u
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
command -v script >/dev/null || { echo "skip: no script(1) for a terminal"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export MMSIM_RUN_CMD="$src/tests/fixtures/fake-run.sh" MMSIM_BIN="$bin"
cd "$t"
printf 'workload = fake\n' >s.conf
fail() { echo "FAIL: $*" >&2; exit 1; }
run() { "$bin" compare s.conf --arm a --arm b:vm.swappiness=10 --runs 4 -j 2 --db "$1" "${@:2}"; }
script -qec "$(printf '%q ' "$bin" compare s.conf --arm a --arm b:vm.swappiness=10 --runs 4 -j 2 --db tty.db) >/dev/null" /dev/null >tty.out 2>&1 ||
	fail "compare on a terminal"
grep -aqE '8/8 runs, 0 running, [0-9.]+ runs/s, [0-9]+:[0-9]{2} left' tty.out ||
	fail "no rate and time left on a terminal: $(tr '\r' '\n' <tty.out | tail -3)"
run pipe.db >/dev/null 2>pipe.err || fail "compare, stderr not a terminal"
! grep -q 'runs/s' pipe.err || fail "progress drawn when stderr is not a terminal"
script -qec "$(printf '%q ' "$bin" compare s.conf --arm a --arm b:vm.swappiness=10 --runs 4 -j 2 --db np.db --no-progress) >/dev/null" /dev/null >np.out 2>&1 ||
	fail "compare --no-progress"
! grep -aq 'runs/s' np.out || fail "progress drawn with --no-progress"
echo "ok   compare's progress: rate and time left on a terminal only"

# the trace commands: bytes read of the file, the rate and the time left
for i in $(seq 1 5000); do echo $((i * 7 % 1009)); done >t.txt
for cmd in "mrc t.txt --format txt" "replay t.txt --format txt --policy lru --cache 64" \
	"convert t.txt --format txt t.mmt"; do
	name=${cmd%% *}
	script -qec "$bin $cmd >/dev/null" /dev/null >tty.out 2>&1 || fail "$name on a terminal"
	grep -aqE "mmsim $name: [0-9.]+ MiB of [0-9.]+ MiB \([0-9]+%\), [0-9.]+ MiB/s, [0-9]+:[0-9]{2} left" tty.out ||
		fail "$name: no progress line on a terminal: $(tr '\r' '\n' <tty.out | head -3)"
	script -qec "$bin $cmd --no-progress >/dev/null" /dev/null >np.out 2>&1 || fail "$name --no-progress"
	! grep -aq 'MiB/s' np.out || fail "$name: progress drawn with --no-progress"
	$bin $cmd >/dev/null 2>pipe.err || fail "$name, stderr not a terminal"
	! grep -q 'MiB/s' pipe.err || fail "$name: progress drawn when stderr is not a terminal"
done
echo "ok   replay, mrc, convert: progress on a terminal only"
