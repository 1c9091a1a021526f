#!/usr/bin/env bash
# scripts/seed003.sh all runs the make -jN sweep (the contest loop's `set --` must not lose
# the "all" argument). A stub stands in for mmsim and logs each subcommand.
set -u
src=$(realpath "${MMSIM_SRC:-.}")
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat >"$t/mmsim" <<'STUB'
#!/bin/sh
echo "$1" >>"$STUB_LOG"
[ "$1" = run ] && printf '{"result": {"metrics": [%s]}}\n' \
	'{"name":"time","value":1},{"name":"cpu_pct","value":1},{"name":"loads","value":1},{"name":"lcpu_pct","value":1},{"name":"ratio","value":1},{"name":"noload_time","value":1},{"name":"token_handoffs","value":1}'
exit 0
STUB
chmod +x "$t/mmsim"
export STUB_LOG="$t/log" MMSIM_DB="$t/db"
sh "$src/scripts/seed003.sh" "$t/mmsim" all >/dev/null || { echo "FAIL: the script failed"; exit 1; }
grep -q '^sweep$' "$t/log" || { echo "FAIL: 'all' did not run the make -jN sweep"; exit 1; }
: >"$t/log"
sh "$src/scripts/seed003.sh" "$t/mmsim" >/dev/null || { echo "FAIL: the script failed"; exit 1; }
! grep -q '^sweep$' "$t/log" || { echo "FAIL: the sweep ran without 'all'"; exit 1; }
echo "ok   seed003.sh all runs the make -jN sweep, and only then"
