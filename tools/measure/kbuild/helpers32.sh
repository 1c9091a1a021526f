#!/bin/sh
# helpers32.sh: the anonymous memory of the two helper processes of a Kbuild compile job, the
# gcc driver and GNU as, as 32-bit (i386) and as 64-bit (x86-64) processes of the same
# programs (Debian 12: gcc 12.2 driver, binutils 2.40 as), with as's growth over its life.
#
# usage: helpers32.sh SRCDIR OUT.csv [WORKDIR [DIR_PREFIX ...]]
#   SRCDIR   a kernel tree that `make ARCH=i386 defconfig` configured (the 2.6.24 tree with its
#            Makefile's two mixed-rule lines split, docs/kbuild-measured.md "What was measured")
#   OUT.csv  one row per process run: job,tool(driver|as),bits(32|64),runtime_ms,anon_peak_kB,
#            anon_at_10pct..anon_at_100pct (kB)
#   WORKDIR  scratch, default /tmp/helpers32 (the i386 root, .s files, shims, the make log)
#   DIR_PREFIX  only jobs whose source starts so (e.g. mm/); default mm/ kernel/ fs/ext3/ net/ipv4/
#
# How (details in helpers32.py's docstring):
#  - `make ARCH=i386 CC='gcc -m32' V=1 -k -B -n DIRS` in SRCDIR prints each job's gcc command
#    line without building (also of the jobs whose cc1 fails on 2.6.24's asm with gcc 12; the
#    tree is not changed);
#  - driver: the job's command line with -B WORKDIR/shim/, whose cc1 and as are host shell
#    scripts (cc1 sleeps 1 s; as reads stdin and creates the .o), so the driver does its spec
#    processing, starts both with -pipe and waits ~1 s; its own anonymous memory is sampled;
#  - as: the job's flags plus `-fno-pie -S` through the host gcc give the assembler text cc1
#    would pipe to as; `as --32 -o X.o X.s` is run and sampled (as run alone from a file: with
#    -pipe the real as lives as long as cc1, reading as cc1 writes);
#  - 32-bit: the i386 binaries run under `qemu-i386 -L I386ROOT -B 0x200000000000` (this host
#    kernel has no IA32 emulation); anonymous memory = sum of smaps `Anonymous:` over the
#    mappings inside the guest's 4 GiB window at that base (excludes qemu's own memory);
#    64-bit: the host binaries natively, `Anonymous:` of /proc/PID/smaps_rollup;
#  - sampling every 1 ms (HELPERS_INTERVAL=seconds to change; a qemu smaps read itself takes
#    about 1.6 ms); native as runs ~10 ms, so each 64-bit as runs a second time under strace
#    with its exit_group delayed 300 ms, which samples its memory at exit (WORKDIR/as64-exit.csv).
#
# Requirements (root, Debian 12 amd64): qemu-user, libc6:i386 (after
# `dpkg --add-architecture i386 && apt-get update`), gcc-12 and binutils (amd64, the usual
# toolchain), strace, python3. The i386 programs are not installed, only extracted into WORKDIR/i386root
# (`apt-get download` + `dpkg -x`): gcc-12:i386 binutils-i686-linux-gnu:i386 libbinutils:i386
# libctf0:i386 libctf-nobfd0:i386 libjansson4:i386 zlib1g:i386 libzstd1:i386 libgcc-s1:i386
# libstdc++6:i386 libgprofng0:i386 binutils-common:i386. Run it with nothing else busy for the
# runtimes (it uses one core for the measured process and one for the sampler).
set -e
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$1" && pwd); out=$2; work=${3:-/tmp/helpers32}
[ $# -ge 4 ] && { shift 3; dirs="$*"; } || dirs="mm/ kernel/ fs/ext3/ net/ipv4/"
mkdir -p "$work"; work=$(cd "$work" && pwd)
command -v qemu-i386 >/dev/null || { echo "need qemu-user (apt-get install qemu-user)" >&2; exit 1; }
[ -e /lib/ld-linux.so.2 ] || { echo "need libc6:i386" >&2; exit 1; }
root=$work/i386root
if [ ! -x "$root/usr/bin/i686-linux-gnu-as" ] || [ ! -x "$root/usr/bin/i686-linux-gnu-gcc-12" ]; then
	mkdir -p "$work/debs" "$root"
	(cd "$work/debs" && apt-get download gcc-12:i386 binutils-i686-linux-gnu:i386 \
		libbinutils:i386 libctf0:i386 libctf-nobfd0:i386 libjansson4:i386 zlib1g:i386 \
		libzstd1:i386 libgcc-s1:i386 libstdc++6:i386 libgprofng0:i386 binutils-common:i386)
	for f in "$work"/debs/*.deb; do dpkg -x "$f" "$root"; done
fi
qemu-i386 -L "$root" "$root/usr/bin/i686-linux-gnu-as" --version | head -1
qemu-i386 -L "$root" "$root/usr/bin/i686-linux-gnu-gcc-12" --version | head -1
as --version | head -1; gcc-12 --version | head -1; qemu-i386 --version | head -1
# the jobs' command lines: make -B -n prints every compile command without running it
[ -f "$src/.config" ] || (cd "$src" && nice make ARCH=i386 defconfig >/dev/null)
(cd "$src" && nice make ARCH=i386 CC='gcc -m32' V=1 -k -B -n $dirs >"$work/make.log" 2>&1) || true
nice python3 "$here/helpers32.py" "$src" "$work/make.log" \
	"$root" "$work" "$out" $dirs
