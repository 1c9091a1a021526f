#!/usr/bin/env bash
# docs/extending.md prints its example policy exactly as docs/examples/exec_protect_anon.c
# holds it (from the include on), so the code a reader copies is the code
# tests/test_extending_example.c compiles and tests.
set -euo pipefail
doc=$(sed -n '/^```c/,/^```$/p' docs/extending.md | sed '1d;$d')
src=$(sed -n '/^#include "mm\/policy\/policy.h"/,$p' docs/examples/exec_protect_anon.c)
if [ "$doc" != "$src" ]; then
	diff <(echo "$src") <(echo "$doc") || true
	echo "FAIL: docs/extending.md's example differs from docs/examples/exec_protect_anon.c"
	exit 1
fi
echo "ok   docs/extending.md shows docs/examples/exec_protect_anon.c as compiled"
