#!/usr/bin/env bash
# Error discipline of src/ (docs/DESIGN "errors"): every allocation goes through the checked
# allocator of src/sim/xalloc.h, and only src/cli decides an exit status: no libc exit()
# elsewhere (a forked child's _exit before exec and the model's own sys_exit/task_exit are
# not libc exit). Prints each offending line and exits 1 if there is one.
set -euo pipefail
src=${1:-src}
bad=0
if grep -rnE '(^|[^_[:alnum:]])(malloc|calloc|realloc|strdup|strndup)\(' "$src" --include='*.[ch]' |
	grep -v "^$src/sim/xalloc.c:"; then
	echo "unchecked allocation: use xmalloc/xcalloc/xrealloc/xstrdup (sim/xalloc.h)" >&2
	bad=1
fi
if grep -rnE '(^|[^_[:alnum:]])exit\(' "$src" --include='*.[ch]' | grep -v "^$src/cli/" |
	grep -vE '^[^:]+:[0-9]+:\s*(/\*|\*|//)' | grep -vE '/\*.*exit\(.*\*/'; then
	echo "exit() outside src/cli: return the error, or abort() naming the broken invariant" >&2
	bad=1
fi
exit $bad
