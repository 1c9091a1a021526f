#!/bin/sh
# Builds the pagerefs Valgrind tool (pagerefs.c) against Debian's valgrind into LIBDIR, a
# Valgrind library directory to run it from: VALGRIND_LIB=LIBDIR valgrind --tool=pagerefs.
# usage: tools/measure/kbuild/pagerefs-build.sh LIBDIR
set -e
[ -f /usr/include/valgrind/pub_tool_basics.h ] || {
	echo "pagerefs-build.sh: Valgrind's tool headers are missing (apt-get install valgrind)" >&2
	exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
lib=$1
mkdir -p "$lib"
for f in /usr/libexec/valgrind/*; do ln -sf "$f" "$lib/"; done
vgdef="-DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 -DVGPV_amd64_linux_vanilla=1"
vglib=/usr/lib/x86_64-linux-gnu/valgrind
# shellcheck disable=SC2086
gcc -m64 -O2 -g -Wall -fno-strict-aliasing -fno-builtin -fno-stack-protector \
	-fomit-frame-pointer -fno-pie $vgdef -I/usr/include/valgrind -c "$here/pagerefs.c" \
	-o "$lib/pagerefs.o"
gcc -m64 -o "$lib/pagerefs-amd64-linux" -static -nodefaultlibs -nostartfiles -u _start \
	-Wl,--build-id=none -Wl,-Ttext-segment=0x58000000 -no-pie "$lib/pagerefs.o" \
	"$vglib/libcoregrind-amd64-linux.a" "$vglib/libvex-amd64-linux.a" \
	"$vglib/libgcc-sup-amd64-linux.a" -lgcc
