#!/bin/sh
# The kernel sample of run.sh compiled by another gcc, built here from its source tree
# (docs/kbuild-measured.md, "gcc 3.3's memory against gcc 12's").
# usage: tools/measure/kbuild/gccera.sh SRCDIR GCCDIR OUTCSV [SECONDS] [TARGETS...]
# GCCDIR: the gcc/ directory of a gcc build (xgcc, cc1, include/), e.g. gcc 3.4.6 configured
# --target=i686-pc-linux-gnu --enable-languages=c and `make -C gcc cc1 xgcc stmp-int-hdrs`.
# As run.sh: `make defconfig`, then `make -k -j2 TARGETS` (default mm/ kernel/ fs/ext3/
# net/ipv4/) under nice, ARCH=i386, KCFLAGS passed through; collect.py writes OUTCSV.
# gcc before 4.4 has no -wrapper: the driver finds cc1 and as in a -B directory of shims that
# run the real cc1 (GCCDIR/cc1) and the host's `as --32` under rsswatch (tag "sub").
set -e
src=$(cd "$1" && pwd)
gccdir=$(cd "$2" && pwd)
[ -f "$gccdir/include/stdarg.h" ] || { echo "$gccdir/include: run make -C $gccdir stmp-int-hdrs" >&2; exit 1; }
out=$3
secs=${4:-1800}
shift 3
[ $# -gt 0 ] && shift
targets=${*:-mm/ kernel/ fs/ext3/ net/ipv4/}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
gcc -O2 -o "$work/rsswatch" "$here/rsswatch.c"
export RSSWATCH="$work/rsswatch" KBUILD_MEASURE_LOG="$work/raw.csv"
mkdir "$work/shim"
# the shims expand $RSSWATCH, $KBUILD_MEASURE_LOG and "$@" when they run
# shellcheck disable=SC2016
printf '#!/bin/sh\nexec "$RSSWATCH" "$KBUILD_MEASURE_LOG" sub %s/cc1 "$@"\n' "$gccdir" >"$work/shim/cc1"
# shellcheck disable=SC2016
printf '#!/bin/sh\nexec "$RSSWATCH" "$KBUILD_MEASURE_LOG" sub as --32 "$@"\n' >"$work/shim/as"
# shellcheck disable=SC2016
printf '#!/bin/sh\nexec "$RSSWATCH" "$KBUILD_MEASURE_LOG" job %s/xgcc -B%s/ -B%s/ "$@"\n' \
	"$gccdir" "$work/shim" "$gccdir" >"$work/cc"
chmod +x "$work/shim/cc1" "$work/shim/as" "$work/cc"
mk="make -C $src ARCH=i386 ${KCFLAGS:+KCFLAGS=\"$KCFLAGS\"} CC=$work/cc\\ -m32"
eval "$mk clean" >/dev/null
eval "$mk defconfig" >/dev/null
: >"$work/raw.csv"
# shellcheck disable=SC2086
eval "timeout $secs nice $mk -k -j2 $targets" >"$work/make.log" 2>&1 || true
python3 "$here/collect.py" "$src" "$work/raw.csv" /dev/null "$out" "${out%.csv}-other.csv"
echo "raw log and make.log kept in $work"
