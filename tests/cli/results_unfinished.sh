#!/usr/bin/env bash
# A run that ended without a figure of merit (hackbench after an OOM kill) is stored, listed,
# exported as CSV and tabulated as "no result", without crashing any of them.
set -euo pipefail
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t"
printf 'workload = hackbench\n' > s.conf
cat > run.json <<JSON
{"schema": "mmsim-run/1", "mmsim_version": "test", "seed": 1,
 "scenario": {"file": "s.conf", "name": "s"}, "overrides": {},
 "completed": false, "failed": true, "time": {"elapsed_s": 1.0},
 "result": {"workload": "hackbench", "metrics": [
   {"name": "oom_kills", "value": 1, "unit": "kills", "better": "lower", "primary": false}]}}
JSON
"$bin" import --db r.db run.json
"$bin" results --db r.db | grep -q "did not finish" || { echo "FAIL: list"; exit 1; }
"$bin" results --db r.db --csv > out.csv
[ "$(wc -l < out.csv)" -eq 2 ] || { echo "FAIL: csv rows"; cat out.csv; exit 1; }
echo "ok   an unfinished run without a figure of merit is listed and exported"
