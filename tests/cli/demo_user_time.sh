#!/usr/bin/env bash
# The demo's usemem spends the measured user CPU per page (data/measured/usemem_cpu.txt):
# the scenario carries that figure, and the run's user time is at least pages touched x it.
set -u
mmsim=$1
fail() { echo "FAIL $*"; exit 1; }
measured=$(awk '/per_page_ns/ {printf "%d", $4; exit}' data/measured/usemem_cpu.txt)
conf=$(sed -n 's/^usemem.per_page *= *\([0-9]*\)ns$/\1/p' scenarios/demo.conf)
[ -n "$measured" ] && [ "$conf" = "$measured" ] || fail "demo.conf per_page '$conf' is not the measured $measured ns"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mmsim" run scenarios/demo.conf --quiet --json "$tmp/d.json" || fail "demo run"
python3 - "$tmp/d.json" "$measured" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1])); ns = float(sys.argv[2])
c = d["config"]
pages = int(c["usemem.processes"]) * (int(c["usemem.size"]) // 4096) * int(c["usemem.loops"])
user = d["time"]["user_s"]
assert user >= pages * ns * 1e-9 * 0.999, f"user {user} s < {pages} pages x {ns} ns"
assert user < d["time"]["elapsed_s"], "more user time than elapsed"
print(f"ok   demo user time {user:.3f} s for {pages} page touches at {ns:.0f} ns")
PY
