#!/bin/sh
# Builds gcc 3.4.6's C compiler (cc1, xgcc, its include/) for an i686-pc-linux-gnu target twice:
# a 64-bit host binary (runs here) and an i686 host binary (the 2004 kind; runs here under
# qemu-i386) (docs/kbuild-measured.md, "gcc 3.3's memory against gcc 12's").
# usage: tools/measure/kbuild/gccera-build.sh GCCSRC OUTDIR
# GCCSRC: gcc 3.4.6's source tree, e.g. `git archive 907b9623` of
# github.com/DrItanium/gcc-3.4.6_i960 (its first commit; every file of gcc/ matches the
# release tarball's MD5SUMS: `md5sum -c MD5SUMS`). Needs gcc-multilib (gcc -m32) for the
# i686 host. OUTDIR/b64/gcc and OUTDIR/b32/gcc are the build directories gccera.sh,
# gccera-cc1.py and gccera-text.sh take. Modern gcc needs gnu89 inline semantics and
# -fcommon to build gcc 3.4; warnings are silenced.
set -e
srcdir=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
cc="gcc -std=gnu89 -fcommon -fgnu89-inline -w"
common="--target=i686-pc-linux-gnu --enable-languages=c --disable-nls --disable-shared --disable-checking"
# 64-bit host
mkdir -p "$out/b64" && cd "$out/b64"
# shellcheck disable=SC2086
CC="$cc" CFLAGS="-O2 -g0" "$srcdir/configure" --build=x86_64-pc-linux-gnu \
	--host=x86_64-pc-linux-gnu --prefix="$out/inst64" $common >conf.log 2>&1
make all-libiberty >mk1.log 2>&1
make configure-gcc >mk2.log 2>&1
make -C gcc CFLAGS="-O2 -g0" cc1 xgcc cpp >mk3.log 2>&1
make -C gcc stmp-int-hdrs >mk4.log 2>&1
# i686 host (built as a cross host: this kernel runs no i386 binaries, so configure must not
# run its test programs; the generator programs are built for this machine)
mkdir -p "$out/b32" && cd "$out/b32"
# shellcheck disable=SC2086
CC="gcc -m32 -std=gnu89 -fcommon -fgnu89-inline -w" CC_FOR_BUILD="$cc" AR=ar RANLIB=ranlib \
	CFLAGS="-O2 -g0" "$srcdir/configure" --build=x86_64-pc-linux-gnu \
	--host=i686-pc-linux-gnu --prefix="$out/inst32" $common >conf.log 2>&1
make all-build-libiberty >mk0.log 2>&1
make all-libiberty >mk1.log 2>&1
make configure-gcc >mk2.log 2>&1
# gcc/Makefile sets CC_FOR_BUILD = $(CC): give it the build machine's compiler
make -C gcc CFLAGS="-O2 -g0" CC_FOR_BUILD="$cc" \
	BUILD_CFLAGS="-O2 -g0 -DIN_GCC -DGENERATOR_FILE" cc1 >mk3.log 2>&1
size "$out/b64/gcc/cc1" "$out/b32/gcc/cc1"
