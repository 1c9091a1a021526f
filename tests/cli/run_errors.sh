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

"$mmsim" --help >/dev/null || { echo "FAIL --help"; fails=$((fails + 1)); }
"$mmsim" run --help | grep -q "usage: mmsim run" || { echo "FAIL run --help"; fails=$((fails + 1)); }

[ "$fails" -eq 0 ] && echo "all error cases behave" || exit 1
