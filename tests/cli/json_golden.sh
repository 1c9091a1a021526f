#!/usr/bin/env bash
# Every scenario under scenarios/ and the demo give the same `mmsim run --json` bytes as the
# stored hashes in tests/golden/run-json.sha256 (the "mmsim_version" line, which carries a
# hash of the model's sources, is left out). A restructuring must leave this file untouched;
# a change that means to move a result regenerates it with
#   MMSIM_GOLDEN_UPDATE=1 bash tests/cli/json_golden.sh build/mmsim
# and says in its commit message which results moved and why.
set -eu
mmsim=$1
golden=tests/golden/run-json.sha256
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in scenarios/*.conf; do
	# 3: the benchmark failed inside the model (seed 000's OOM kills), a result all the same
	rc=0
	"$mmsim" run "$f" --quiet --json "$tmp/out.json" >/dev/null 2>"$tmp/err" || rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		cat "$tmp/err"
		echo "FAIL: $f: exit status $rc"
		exit 1
	fi
	h=$(grep -v '"mmsim_version"' "$tmp/out.json" | sha256sum | cut -d' ' -f1)
	echo "$h  $f"
done >"$tmp/now"
if [ "${MMSIM_GOLDEN_UPDATE:-0}" = 1 ]; then
	cp "$tmp/now" "$golden"
	echo "updated $golden ($(wc -l <"$golden") scenarios)"
	exit 0
fi
if ! diff -u "$golden" "$tmp/now"; then
	echo "FAIL: run --json output differs from $golden for the scenarios above"
	exit 1
fi
echo "ok   $(wc -l <"$golden") scenarios byte-identical to $golden"
