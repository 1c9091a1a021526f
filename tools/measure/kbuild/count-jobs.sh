#!/bin/sh
# Lists the compile jobs of a kernel tree's vmlinux (docs/kbuild-measured.md): `make -n`
# after `make defconfig` prints every command without running it; each Kbuild "CC" line is
# one compile job (cc1 + as).
# usage: tools/measure/kbuild/count-jobs.sh SRCDIR OUT.txt   (ARCH=i386 for a 2.6.24 tree:
# CC then gets -m32, as run.sh does; the tree's Makefile needs run.sh's two-line split)
set -e
src=$(cd "$1" && pwd)
out=$2
cc=gcc
[ "${ARCH:-}" = i386 ] && cc="gcc -m32"
make -C "$src" ${ARCH:+ARCH=$ARCH} CC="$cc" defconfig >/dev/null
# prepare's generated headers do not exist under -n, so the final link fails: || true
make -C "$src" ${ARCH:+ARCH=$ARCH} CC="$cc" -n vmlinux 2>/dev/null |
	grep -oE "echo '  CC +[^']+'" | awk '{print $NF}' | tr -d "'" | sort -u >"$out" || true
wc -l <"$out"
