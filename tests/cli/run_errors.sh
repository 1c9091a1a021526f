#!/usr/bin/env bash
# Bad input to `mmsim run` gives file:line, what was expected, and exit status 2.
set -u
mmsim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

expect() { # expect NAME STATUS PATTERN -- ARGS...
	local name=$1 want=$2 pattern=$3
	shift 4
	"$mmsim" "$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" -ne "$want" ] || ! grep -qE -- "$pattern" "$tmp/err"; then
		echo "FAIL $name: status $got (want $want), stderr:"; sed 's/^/    /' "$tmp/err"
		fails=$((fails + 1))
	else
		echo "ok   $name"
	fi
}

printf 'machine.ram = 64M\nvm.swapiness = 60\n' >"$tmp/unknown.conf"
expect unknown-key 2 "unknown.conf:2: unknown key 'vm.swapiness'" -- run "$tmp/unknown.conf"

printf '# comment\n\nvm.swappiness = 101\n' >"$tmp/range.conf"
expect out-of-range 2 "range.conf:3: bad value '101' for vm.swappiness: expected an integer in 0..100" -- run "$tmp/range.conf"

printf 'machine.ram = lots\n' >"$tmp/size.conf"
expect bad-size 2 "size.conf:1: bad value 'lots' for machine.ram: expected a size" -- run "$tmp/size.conf"

printf 'workload\n' >"$tmp/noeq.conf"
expect no-equals 2 "noeq.conf:1: expected 'key = value'" -- run "$tmp/noeq.conf"

printf 'usemem.pattern = zigzag\n' >"$tmp/enum.conf"
expect bad-enum 2 "enum.conf:1: .*expected one of: sequential random cyclic" -- run "$tmp/enum.conf"

printf 'machine.profile = vax\n' >"$tmp/profile.conf"
expect bad-profile 2 "unknown machine.profile 'vax'" -- run "$tmp/profile.conf"

printf 'machine.profile = arm926-2008\nhw.rmap_pte_ns = 1000\n' >"$tmp/hw.conf"
expect hw-in-file 2 "hw.conf:2: 'hw.rmap_pte_ns' may not be set in a scenario file: costs come from machine.profile" -- run "$tmp/hw.conf"

printf 'machine.ram = 64M\nkernel.version = 2.6.x\n' >"$tmp/version.conf"
expect bad-kernel-version 2 "version.conf:2: bad value '2.6.x' for kernel.version: expected a kernel version" -- run "$tmp/version.conf"

expect missing-file 2 "$tmp/nope.conf:0: cannot open scenario file" -- run "$tmp/nope.conf"

printf 'machine.ram = 64M\n' >"$tmp/ok.conf"
expect bad-override 2 "\-\-set:1: bad value '-3' for machine.cpus" -- run "$tmp/ok.conf" --set machine.cpus=-3
expect bad-seed 2 "seed: expected a non-negative integer" -- run "$tmp/ok.conf" --seed x
expect bad-hw-override 2 "\-\-set:1: bad value 'fast' for hw.syscall_ns: expected an integer" -- run "$tmp/ok.conf" --set hw.syscall_ns=fast
expect unknown-option 2 "unknown or incomplete option" -- run "$tmp/ok.conf" --frobnicate
expect unknown-command 2 "unknown command" -- frobnicate

# Issue 15's reproducers. A trace that cannot be opened is bad input; one that is garbage is
# a failed run (exit 1), never a measurement.
printf 'workload = trace\ntrace.file = %s/none.trace\n' "$tmp" >"$tmp/miss.conf"
expect trace-missing 2 "miss.conf:2: trace.file '.*' cannot be read: No such file" -- run "$tmp/miss.conf"
printf 'workload = trace\ntrace.file = %s\n' "$tmp" >"$tmp/dir.conf"
expect trace-directory 2 "dir.conf:2: trace.file .* it is a directory" -- run "$tmp/dir.conf"
printf '17\n18\nthis is not a page number\n' >"$tmp/garbage.txt"
printf 'workload = trace\ntrace.file = %s/garbage.txt\nrun.time_limit = 1s\n' "$tmp" >"$tmp/garbage.conf"
expect trace-garbage 1 "the workload failed: .*error" -- run "$tmp/garbage.conf" --quiet
# Checks across keys: file:line of the key at fault (or --set KEY), exit 2.
printf 'workload = fsmark\nfsmark.dirs = 2\nfsmark.threads = 3\n' >"$tmp/fsdirs.conf"
expect fsmark-threads-dirs 2 "fsdirs.conf:3: fsmark.threads \(3\) must be a multiple of fsmark.dirs \(2\)" -- run "$tmp/fsdirs.conf"
expect fsmark-threads-set 2 "\-\-set fsmark.threads: fsmark.threads \(3\) must be a multiple" -- run "$tmp/ok.conf" --set workload=fsmark --set fsmark.threads=3 --set fsmark.dirs=2
printf 'machine.ram = 512G\n' >"$tmp/ram.conf"
expect ram-model-limit 2 "ram.conf:1: machine.ram .* more than the model supports .* below 2\^27" -- run "$tmp/ram.conf"
# an hw.* override counts: a reserved memory above the RAM is refused, not run on no memory
expect reserved-above-ram 2 "machine.ram .* too small for profile .* its kernel and mem_map take" -- run "$tmp/ram.conf" --set machine.ram=64M --set hw.kernel_reserved_kb=1000000000
# on x86-32 the kernel lives below 896 MB: a reservation above that is refused on any RAM
expect reserved-above-lowmem 2 "hw.kernel_reserved_kb 1000000 is too large for profile p3-2004: .* of its 939524096 bytes of low memory" -- run "$tmp/ram.conf" --set machine.profile=p3-2004 --set machine.ram=2G --set hw.kernel_reserved_kb=1000000
printf 'machine.ram = 128M\nvm.min_free_kbytes = 200000\n' >"$tmp/minfree.conf"
expect min-free-above-ram 2 "minfree.conf:2: vm.min_free_kbytes 200000 is not below the low memory" -- run "$tmp/minfree.conf"
printf 'machine.ram = 256G\n' >"$tmp/host.conf"
expect host-memory 2 "host.conf:1: this run would need about 4.5. GiB of host memory .* run.host_memory_limit" -- run "$tmp/host.conf"
# hackbench's worker and connection records are allocated for every group up front (run fuzzer seed 50962)
printf 'workload = hackbench\nmachine.ram = 200M\nhackbench.groups = 100000\nhackbench.fds = 842\n' >"$tmp/hbhost.conf"
expect hackbench-host-memory 2 "hbhost.conf:[0-9]: this run would need about .* GiB of host memory .* run.host_memory_limit" -- run "$tmp/hbhost.conf"
# min_free_kbytes is spread over the lowmem zones only: on x86-32 above 896 MiB of low memory
# no kernel allocation succeeds (run fuzzer seed 61069: reported as an invariant failure)
# below the low memory but leaving fewer than 1024 pages above it: no first process could
# start (runfuzz seed 1925167: 77 pages left)
printf 'machine.ram = 128M\nvm.min_free_kbytes = 114000\n' >"$tmp/minfree-spare.conf"
expect min-free-leaves-no-room 2 "minfree-spare.conf:2: vm.min_free_kbytes 114000 leaves fewer than 1024 pages above the min watermark" -- run "$tmp/minfree-spare.conf"
printf 'machine.profile = p3-2004\nmachine.ram = 2000M\nvm.min_free_kbytes = 1000000\n' >"$tmp/lowmem.conf"
expect min-free-above-lowmem 2 "lowmem.conf:3: vm.min_free_kbytes 1000000 is not below the low memory" -- run "$tmp/lowmem.conf"
# filestream's files are made before its first process: 10,000 of them fill 18 MB (run fuzzer
# seed 259102, which the machine only shows once booted: a start-time refusal, exit 2)
printf 'workload = filestream\nmachine.ram = 18M\nfilestream.size = 1M\nfilestream.processes = 10000\n' >"$tmp/fsfiles.conf"
expect filestream-files-fill-ram 2 "fsfiles.conf:4: 10000 files .one a process. leave no memory for the first process in 18 MiB of RAM" -- run "$tmp/fsfiles.conf"
# An element operation that costs nothing leaves run.time_limit no bound on qsbench's trace
# (run fuzzer seed 290895: the host sorted ten 2.97 GB arrays before the machine started).
printf 'workload = qsbench\nqsbench.op_ns = 0ns\n' >"$tmp/qsop.conf"
expect qsbench-op-ns-zero 2 "qsop.conf:2: .*qsbench.op_ns" -- run "$tmp/qsop.conf"
# 2.6.8's allocations all stop at pages_low, twice pages_min (run fuzzer seeds 113064, 113692)
printf 'machine.ram = 128M\nkernel.version = 2.6.8\nvm.min_free_kbytes = 60000\n' >"$tmp/minfree268.conf"
expect min-free-above-half-ram-268 2 "minfree268.conf:3: vm.min_free_kbytes 60000 is not below half the low memory" -- run "$tmp/minfree268.conf"
# Silently wrong before: CR-only lines, a key set twice.
printf 'machine.ram = 64M\rvm.swappiness = 101\r' >"$tmp/cr.conf"
expect cr-line-ends 2 "cr.conf:2: bad value '101' for vm.swappiness" -- run "$tmp/cr.conf"
printf 'vm.swappiness = 10\nmachine.ram = 64M\nvm.swappiness = 20\n' >"$tmp/dup.conf"
expect duplicate-key 2 "dup.conf:3: 'vm.swappiness' is set twice: first at line 1" -- run "$tmp/dup.conf"
# pid_max: fork fails with ENOMEM (alloc_pid, 2.6.28) and hackbench barfs as it would.
printf 'workload = hackbench\nhackbench.groups = 1000\nhackbench.loops = 1\nmachine.ram = 8G\nrun.time_limit = 20s\n' >"$tmp/pids.conf"
# A benchmark that ran and failed (a fork refused, an OOM kill) is a result with exit 3: the
# JSON is written with "failed", and stderr says why.
"$mmsim" run "$tmp/pids.conf" --json "$tmp/pids.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 3 ] && grep -q "the benchmark failed: .*fork" "$tmp/err" &&
	grep -q "fork() (error: Cannot allocate memory) (32766 of 40000 workers created)" "$tmp/out" &&
	grep -q '"failed":	true' "$tmp/pids.json"; then
	echo "ok   pid-max"
else
	echo "FAIL pid-max:"; sed 's/^/    /' "$tmp/err"; fails=$((fails + 1))
fi
# Issue 15's leak reproducer: qsbench stopped by run.time_limit in the middle of its sort
# (qsbench 1.0.0 sorts ints, so the old elem_bytes key is gone). Exit 0, not completed, and
# under ASan LeakSanitizer checks that the stop frees everything.
printf 'workload = qsbench\nmachine.ram = 64M\nmachine.swap = 64M\nqsbench.processes = 2\nqsbench.size = 8M\nrun.time_limit = 50ms\n' >"$tmp/qs.conf"
if "$mmsim" run "$tmp/qs.conf" --quiet --json "$tmp/qs.json" 2>"$tmp/err" &&
	grep -q '"completed":	false' "$tmp/qs.json"; then
	echo "ok   qsbench-stopped-mid-sort"
else
	echo "FAIL qsbench-stopped-mid-sort:"; sed 's/^/    /' "$tmp/err"; fails=$((fails + 1))
fi
# A UTF-8 BOM is accepted; blanks around a --set key and value are trimmed in the JSON.
printf '\xef\xbb\xbfmachine.ram = 64M\nusemem.size = 16M\nrun.time_limit = 10ms\n' >"$tmp/bom.conf"
if "$mmsim" run "$tmp/bom.conf" --quiet --set " vm.swappiness = 10 " --json - >"$tmp/bom.json" 2>"$tmp/err" &&
	grep -q '"vm.swappiness":	"10"' "$tmp/bom.json" && ! grep -q '"vm.swappiness "' "$tmp/bom.json" &&
	grep -q '"machine.ram":	"67108864"' "$tmp/bom.json"; then
	echo "ok   bom-and-trimmed-set"
else
	echo "FAIL bom-and-trimmed-set:"; sed 's/^/    /' "$tmp/err"; fails=$((fails + 1))
fi

"$mmsim" --help >/dev/null || { echo "FAIL --help"; fails=$((fails + 1)); }
"$mmsim" run --help | grep -q "usage: mmsim run" || { echo "FAIL run --help"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "all error cases behave" || exit 1
