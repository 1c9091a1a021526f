#!/usr/bin/env bash
# scripts/sensitivity.py: one override per estimate and factor reaches the runs (the
# tabulated metric moves with a dearer system call), the profile's own column comes from
# runs without overrides, and bad arguments exit 2.
set -eu
mmsim=$1
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'machine.profile = arm926-2008\nmachine.ram = 32M\nworkload = hackbench\nhackbench.groups = 1\nhackbench.loops = 5\n' >"$tmp/tiny.conf"
out=$(python3 scripts/sensitivity.py --mmsim "$mmsim" --db "$tmp/r.db" --runs 2 -j 2 \
	--fields syscall_ns --factors 0.5,4 --metric time "$tmp/tiny.conf" --arm a --arm b:vm.swappiness=59)
echo "$out"
row=$(echo "$out" | grep '^syscall_ns')
# estimate, profile value, then x0.5 (a, b), x1 (a, b), x4 (a, b)
echo "$row" | awk '{ if ($2 != 1740) { print "FAIL: profile value " $2; exit 1 }
	if (!($3 < $5 && $5 < $7)) { print "FAIL: time does not grow with syscall_ns: " $0; exit 1 }
	if ($3 != $4 || $5 != $6 || $7 != $8) { print "FAIL: arms differ: " $0; exit 1 } }'
oom=$(python3 scripts/sensitivity.py --mmsim "$mmsim" --db "$tmp/r.db" --runs 2 -j 2 \
	--fields syscall_ns --factors 0.5,4 "$tmp/tiny.conf" --arm a --arm b:vm.swappiness=59)
echo "$oom" | grep -q '^syscall_ns  *1740  0/2  *0/2  *0/2  *0/2  *0/2  *0/2' ||
	{ echo "FAIL: OOM counts: $oom"; exit 1; }
# the same file path with other content: its old runs are not counted (2 per cell, not 4)
echo "# edited" >>"$tmp/tiny.conf"
again=$(python3 scripts/sensitivity.py --mmsim "$mmsim" --db "$tmp/r.db" --runs 2 -j 2 \
	--fields syscall_ns --factors 0.5,4 "$tmp/tiny.conf" --arm a --arm b:vm.swappiness=59)
echo "$again" | grep -q '^syscall_ns  *1740  0/2  *0/2  *0/2  *0/2  *0/2  *0/2' ||
	{ echo "FAIL: runs of the old content counted: $again"; exit 1; }
# a factor that rounds to 0 ns has no runs of its own: "-", not "0/0"
tiny=$(python3 scripts/sensitivity.py --mmsim "$mmsim" --db "$tmp/r.db" --runs 1 -j 2 \
	--fields touch_ns --factors 0.001 "$tmp/tiny.conf" --arm a)
echo "$tiny" | grep -q '^touch_ns  *15  - *0/1' || { echo "FAIL: sub-ns factor: $tiny"; exit 1; }
for bad in "--fields nosuch_ns" "--factors x" "--runs 0" "--metric nosuch"; do
	# shellcheck disable=SC2086
	status=0
	python3 scripts/sensitivity.py --mmsim "$mmsim" --db "$tmp/r.db" --runs 1 --fields syscall_ns \
		$bad "$tmp/tiny.conf" --arm a >/dev/null 2>"$tmp/err" || status=$?
	[ "$status" = 2 ] || { echo "FAIL: '$bad' exited $status, not 2"; cat "$tmp/err"; exit 1; }
done
status=0
python3 scripts/sensitivity.py --mmsim "$mmsim" --db "$tmp/r.db" "$tmp/tiny.conf" \
	--arm a:hw.syscall_ns=5 >/dev/null 2>&1 || status=$?
[ "$status" = 2 ] || { echo "FAIL: an arm setting hw.* exited $status, not 2"; exit 1; }
echo "ok   sensitivity table: overrides reach the runs, bad arguments exit 2"
