#!/usr/bin/env bash
# Issue 15's harness reproducers: bad input in any arm or --vary value is refused before the
# first run; a run whose workload failed or that died by a signal is never stored, the store
# records why, and the message names the signal and the command that reproduces it; a store
# this user may only read can still be listed.
set -uo pipefail
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t" && chmod 755 .
fails=0
check() { # check NAME CONDITION-COMMAND...
	local name=$1
	shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; sed 's/^/    /' err 2>/dev/null; fails=$((fails + 1)); fi
}
runs() { "$bin" results --db "$1" 2>/dev/null | tail -n +2 | wc -l; }
printf 'machine.ram = 64M\nrun.time_limit = 10ms\n' > s.conf

# An out-of-range --vary value: refused up front, nothing run or stored.
"$bin" sweep s.conf --vary vm.swappiness=10,101 --runs 2 --db v.db --no-progress > out 2> err
rc=$?
check vary-out-of-range [ "$rc" -eq 2 ]
check vary-names-value grep -q "vm.swappiness=101) is refused (exit status 2): .*bad value '101' for vm.swappiness" err
check vary-nothing-run grep -q "nothing was run" err
check vary-nothing-stored [ "$(runs v.db)" -eq 0 ]
# An unknown key in the second arm: the first arm does not run either.
"$bin" compare s.conf --arm a --arm b:vm.swapiness=1 --runs 1 --db v.db --no-progress > out 2> err
rc=$?
check arm-unknown-key [ "$rc" -eq 2 ]
check arm-names-key grep -q "arm b (vm.swapiness=1) is refused.*unknown key 'vm.swapiness'" err
check arm-nothing-stored [ "$(runs v.db)" -eq 0 ]

# A garbage trace: a failed run (exit 1), not stored, its reason in the store.
printf '1\n2\nnot a page\n' > g.txt
printf 'workload = trace\ntrace.file = g.txt\nrun.time_limit = 1s\n' > t.conf
"$bin" compare t.conf --arm a --runs 1 --db t.db --no-progress > out 2> err
rc=$?
check trace-failed-run [ "$rc" -eq 1 ]
check trace-not-stored [ "$(runs t.db)" -eq 0 ]
check trace-says-why grep -q "the workload failed: .*g.txt:3" err
check trace-reproducer grep -q "reproduce with: mmsim run t.conf --seed 1" err
"$bin" results --db t.db --failures > out 2> err
check trace-failures-listed grep -q "t.conf seed 1: exit status 1: the workload failed: .*g.txt:3" out
check trace-failures-command grep -q "reproduce with: mmsim run t.conf --seed 1" out
if command -v sqlite3 > /dev/null; then
	check trace-failure-recorded sh -c "sqlite3 t.db 'SELECT reason, stderr FROM failures' | grep -q 'g.txt:3'"
fi

# A mapping larger than memory and swap: 2.6.28's vm.overcommit_memory = 0 refuses it, usemem
# exits, and mmsim run exits 3 saying which program and why.
printf 'machine.ram = 32M\nmachine.swap = 0\nworkload = usemem\nusemem.processes = 1\nusemem.size = 40M\n' > r.conf
"$bin" run r.conf --quiet --json r.json 2> err
rc=$?
check enomem-run-exit-3 [ "$rc" -eq 3 ]
check enomem-run-says-why grep -q "the benchmark failed: usemem: mmap failed: Cannot allocate memory" err
check enomem-no-oom-kill sh -c "! grep -q 'OOM-killed' err"
# A benchmark that failed inside the model (usemem OOM-killed without swap: one process
# larger than RAM, with overcommit allowed, killed whatever the scheduling; two of 16 MB on
# one CPU run one after the other in CFS's 10 ms slices, and both fit): mmsim run exits
# 3 with its JSON; the harness stores it as a result with no figure ("no result"), not as a
# failure, and a second compare does not run it again.
printf 'machine.ram = 32M\nmachine.swap = 0\nvm.overcommit_memory = 1\nworkload = usemem\nusemem.processes = 1\nusemem.size = 40M\n' > o.conf
"$bin" run o.conf --quiet --json o.json 2> err
rc=$?
check oom-run-exit-3 [ "$rc" -eq 3 ]
check oom-run-says-why grep -q "the benchmark failed: 1 task(s) OOM-killed" err
check oom-run-json grep -q '"failed":	true' o.json
"$bin" compare o.conf --arm a --runs 1 --db o.db --no-progress > out 2> err
rc=$?
check oom-compare-ok [ "$rc" -eq 0 ]
check oom-stored [ "$(runs o.db)" -eq 1 ]
check oom-no-figure sh -c "grep -q 'runs stored, 1 did not finish' out && ! grep -q '^elapsed' out"
"$bin" compare o.conf --arm a --runs 1 --db o.db --no-progress > out 2> err
check oom-not-rerun grep -q "1 already stored" err

# A run that dies by a signal: the signal's name and the command.
printf '#!/bin/sh\nfor a in "$@"; do [ "$a" = --dry-run ] && exit 0; done\nkill -SEGV $$\n' > segv.sh
chmod +x segv.sh
MMSIM_RUN_CMD=./segv.sh "$bin" compare s.conf --arm a --arm b:vm.swappiness=5 --runs 1 --db k.db --no-progress > out 2> err
rc=$?
check signal-failed [ "$rc" -eq 1 ]
check signal-named grep -q "killed by signal SIGSEGV (Segmentation fault)" err
check signal-command grep -q "reproduce with: mmsim run s.conf --set vm.swappiness=5 --seed 1" err
check signal-not-stored [ "$(runs k.db)" -eq 0 ]

# A store this user may only read: listed, not refused. As root, read it as nobody.
"$bin" compare s.conf --arm a --runs 1 --db r.db --no-progress > /dev/null 2>&1
chmod 444 r.db
as_reader=()
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv > /dev/null; then
		as_reader=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	else
		echo "skip read-only store: root without setpriv"
	fi
fi
if [ "$(id -u)" -ne 0 ] || [ ${#as_reader[@]} -gt 0 ]; then
	"${as_reader[@]}" "$bin" results --db r.db > out 2> err
	rc=$?
	check readonly-store-read [ "$rc" -eq 0 ]
	check readonly-store-lists grep -q "s.conf" out
fi

[ "$fails" -eq 0 ] && echo "all harness failure cases behave" || exit 1
