#!/usr/bin/env bash
# scripts/seed003.sh runs the make -jN sweep only when asked with "all" (its contest loop
# reuses the positional parameters, which once threw the "all" away). A stand-in mmsim
# records every invocation and answers run --json with the metrics the script reads.
set -eu
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/mmsim" <<'STUB'
#!/bin/sh
echo "$*" >>"$(dirname "$0")/calls"
case "$1" in
run) echo '{"result":{"metrics":[{"name":"time","value":1},{"name":"cpu_pct","value":1},
{"name":"loads","value":1},{"name":"lcpu_pct","value":1},{"name":"ratio","value":1},
{"name":"noload_time","value":1},{"name":"token_handoffs","value":0}]}}' ;;
*) printf 'elapsed\nRuns\ncpu_pct\nRuns\n' ;;
esac
STUB
chmod +x "$dir/mmsim"
sh scripts/seed003.sh "$dir/mmsim" >/dev/null
n=$(grep -c '^sweep' "$dir/calls" || true)
[ "$n" -eq 0 ] || { echo "FAIL: the sweep ran without 'all' ($n calls)"; exit 1; }
: >"$dir/calls"
sh scripts/seed003.sh "$dir/mmsim" all >/dev/null
n=$(grep -c '^sweep scenarios/seed003-make-j60.conf' "$dir/calls" || true)
[ "$n" -eq 2 ] || { echo "FAIL: 'all' ran $n make -jN sweeps, expected 2 (elapsed, cpu_pct)"; exit 1; }
echo "ok   seed003.sh sweeps make -jN only with 'all'"
