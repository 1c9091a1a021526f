#!/bin/sh
# Measures a sample of a kernel build, job by job (docs/kbuild-measured.md).
# usage: tools/measure/kbuild/run.sh SRCDIR OUTCSV [SECONDS] [TARGETS...]
# SRCDIR: an unpacked kernel tree (Debian: linux-source-6.1). The build is `make defconfig`,
# then `make -k -j2 TARGETS` (default mm/ kernel/ fs/ext4/ net/ipv4/) under nice, stopped after
# SECONDS (default 900); the jobs that finished are the sample. Then the objects are linked
# with `ld -r` as a stand-in for the vmlinux link. KCFLAGS passes through to every compile
# (e.g. KCFLAGS="--param ggc-min-heapsize=4096 --param ggc-min-expand=30", gcc 3.3's
# collector defaults), and ARCH (e.g. ARCH=i386 for a 2.6.24 tree, the 32-bit PIII era;
# make 4.x needs two mixed-rule lines of a 2.6.24 Makefile split: docs/kbuild-measured.md).
# collect.py turns the raw log and the tree's .cmd dependency files into OUTCSV.
set -e
src=$(cd "$1" && pwd)
out=$2
secs=${3:-900}
shift 2
[ $# -gt 0 ] && shift
targets=${*:-mm/ kernel/ fs/ext4/ net/ipv4/}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
gcc -O2 -o "$work/rsswatch" "$here/rsswatch.c"
export RSSWATCH="$work/rsswatch" KBUILD_MEASURE_LOG="$work/raw.csv"
# CC on make's command line overrides a 2.6.24 i386 Makefile's own `CC := $(CC) -m32`
cc=$here/cc-wrap.sh
[ "${ARCH:-}" = i386 ] && cc="$cc\\ -m32"
mk="make -C $src ${ARCH:+ARCH=$ARCH} ${KCFLAGS:+KCFLAGS=\"$KCFLAGS\"} CC=$cc AR=$here/tool-wrap.sh\ ar\ ar LD=$here/tool-wrap.sh\ ld\ ld"
eval "$mk defconfig" >/dev/null
: >"$work/raw.csv"
# make's own memory: the last VmHWM rsswatch read of make itself (tag "make")
# shellcheck disable=SC2086
eval "timeout $secs nice $RSSWATCH $work/raw.csv make $mk -k -j2 $targets" >"$work/make.log" 2>&1 || true
objs=$(cd "$src" && for t in $targets; do find "$t" -name '*.o' ! -name '*.mod.o' ! -name 'built-in.o'; done | sort)
emu=
[ "${ARCH:-}" = i386 ] && emu="-m elf_i386"
# shellcheck disable=SC2086
(cd "$src" && "$RSSWATCH" "$work/raw.csv" link ld $emu -r -o "$work/sample-link.o" $objs) || true
python3 "$here/collect.py" "$src" "$work/raw.csv" "$work/sample-link.o" "$out" "${out%.csv}-other.csv"
echo "raw log kept in $work"
