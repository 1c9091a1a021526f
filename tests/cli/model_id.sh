#!/usr/bin/env bash
# The model id (cmake/model_id.cmake) that keys stored runs: it changes with any source of
# the model and not with the harness, and the binary reports the id of its own sources.
set -euo pipefail
bin=$(realpath "${1:?usage: $0 MMSIM_BINARY}")
src=$(realpath "${MMSIM_SRC:-.}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
id() { cmake -DSRC="$t" -DOUT="$t/id.h" -P "$src/cmake/model_id.cmake" && cut -d'"' -f2 "$t/id.h" | tail -1; }

cp -r "$src/src" "$t/src"
first=$(id)
[[ "$first" =~ ^[0-9a-f]{12}$ ]] || fail "id '$first'"
"$bin" --version | grep -q "+$first\$" || fail "binary reports $("$bin" --version), sources give $first"
echo "/* a harness change */" >> "$t/src/harness/store.c"
[ "$(id)" = "$first" ] || fail "a harness change moved the model id"
echo "/* a model change */" >> "$t/src/mm/vmscan.c"
second=$(id)
[ "$second" != "$first" ] || fail "a change to vmscan.c kept the model id"
mv "$t/src/mm/vmscan.c" "$t/src/mm/vmscan2.c"
[ "$(id)" != "$second" ] || fail "renaming a model file kept the model id"
echo "model id: $first"
