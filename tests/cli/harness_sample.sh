#!/usr/bin/env bash
# compare --sample keeps every run's samples in the store: runs stored without samples are
# run again under the same key (sampling changes no result, so the table is unchanged),
# and runs stored with them are reused.
set -u
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
command -v sqlite3 >/dev/null || { echo "skip: no sqlite3"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmp_args=("$src/scenarios/demo.conf" --arm a --arm b:vm.swappiness=10 --runs 1 --db "$t/r.db" -j 1)
"$bin" compare "${cmp_args[@]}" >"$t/plain.txt" 2>"$t/1.err" || fail "compare: $(cat "$t/1.err")"
[ "$(sqlite3 "$t/r.db" "select sum(instr(json, '\"samples\"') > 0) from runs")" = 0 ] ||
	fail "samples stored without --sample"
"$bin" compare "${cmp_args[@]}" --sample=1s >"$t/sampled.txt" 2>"$t/2.err" || fail "compare --sample"
grep -q '2 runs: 0 already stored, 2 run' "$t/2.err" || fail "unsampled runs not rerun: $(cat "$t/2.err")"
[ "$(sqlite3 "$t/r.db" "select count(*), sum(instr(json, '\"samples\"') > 0) from runs")" = "2|2" ] ||
	fail "the store lacks the samples"
cmp -s "$t/plain.txt" "$t/sampled.txt" || fail "sampling changed the compare table"
"$bin" compare "${cmp_args[@]}" --sample 1s >/dev/null 2>"$t/3.err"
grep -q '2 runs: 2 already stored, 0 run' "$t/3.err" || fail "sampled runs not reused: $(cat "$t/3.err")"
echo "ok   compare --sample stores samples, reruns unsampled runs, reuses sampled ones"
