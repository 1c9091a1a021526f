#!/bin/sh
# Build mainline v2.6.25-rc1 for the ARM Versatile PB (ARM926EJ-S) from the
# git mirror, with the minimal build fixes in patches/, for run.sh.
#
#   tools/measure/armboot/build.sh [WORKDIR]     (default /tmp/armboot)
#
# Produces WORKDIR/linux/arch/arm/boot/zImage and compares the kernel .config
# with data/measured/armboot/config-2.6.25-rc1-versatile[-VARIANT].
# Environment: MIRROR (bare git dir holding tag v2.6.25-rc1), JOBS (default 2),
# VARIANT: empty (versatile_defconfig with the two changes below), 'nofb'
# (also no CLCD frame buffer, which takes 1 MiB of the 32), or 'slub-nofb'
# (that, with SLUB instead of versatile_defconfig's SLAB).
# EXTRA_PATCHES: directories (separated by spaces) whose *.patch are applied,
# in that order, after patches/*.patch, e.g.
# EXTRA_PATCHES=tools/measure/armboot/patches/throttle (KOSAKI Motohiro's page
# reclaim throttle RFC) or ".../patches/throttle .../patches/debug"; use a
# WORKDIR of its own. The tree's .armboot-patched records the extra patches;
# a tree patched otherwise is extracted afresh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
work=${1:-/tmp/armboot}
mirror=${MIRROR:-/work/.mirror/comio+linux-2.6.25-cf547x/repo}
jobs=${JOBS:-2}
cross=arm-linux-gnueabi-
variant=${VARIANT:-}
case $variant in ""|nofb|slub-nofb) ;; *) echo "build.sh: unknown VARIANT '$variant'" >&2; exit 1 ;; esac
extra=
for d in ${EXTRA_PATCHES:-}; do
	a=$(cd "$d" 2>/dev/null && pwd) || { echo "build.sh: no directory '$d' (EXTRA_PATCHES)" >&2; exit 1; }
	ls "$a"/*.patch >/dev/null 2>&1 || { echo "build.sh: no *.patch in $a" >&2; exit 1; }
	extra="$extra $a"
done

need() {
	command -v "$1" >/dev/null 2>&1 || {
		echo "build.sh: '$1' not found; $2" >&2; exit 1; }
}
need git "install git"
need make "install make"
need gcc "install gcc (host tools)"
need perl "install perl (kernel/timeconst.pl)"
need "${cross}gcc" "install gcc-arm-linux-gnueabi binutils-arm-linux-gnueabi"
need "${cross}ld" "install binutils-arm-linux-gnueabi"
git --git-dir="$mirror" rev-parse -q --verify v2.6.25-rc1 >/dev/null || {
	echo "build.sh: tag v2.6.25-rc1 not in $mirror (set MIRROR)" >&2; exit 1; }

mkdir -p "$work"
src=$work/linux
# The marker holds the names and checksums of the extra patches (empty: none).
want=$work/.armboot-patched.want
: >"$want"
for d in $extra; do
	for p in "$d"/*.patch; do
		echo "$(basename "$p") $(cksum <"$p")" >>"$want"
	done
done
if [ ! -f "$src/.armboot-patched" ] || ! cmp -s "$want" "$src/.armboot-patched"; then
	rm -rf "$src"; mkdir -p "$src"
	git --git-dir="$mirror" archive v2.6.25-rc1 | tar -x -C "$src"
	for p in "$here"/patches/*.patch; do
		echo "build.sh: applying $(basename "$p")"
		patch -d "$src" -p1 --no-backup-if-mismatch < "$p"
	done
	for d in $extra; do
		for p in "$d"/*.patch; do
			echo "build.sh: applying $(basename "$d")/$(basename "$p")"
			patch -d "$src" -p1 --no-backup-if-mismatch < "$p"
		done
	done
	cp "$want" "$src/.armboot-patched"
fi
rm -f "$want"

# Build-only flags for gcc 12 / binutils 2.40 (none changes what the kernel does):
#  -std=gnu89       the 2008 tree relies on gnu89 'extern inline' semantics
#  -fno-pie         Debian's gcc defaults to PIE
#  -fcommon         host tools (scripts/) define globals in headers
#  LDFLAGS_BUILD_ID= no --build-id: the 2.6.25 ARM linker script does not place
#                   .note.gnu.build-id, which then lands at 0xc0008000 ahead of
#                   .text.head and the kernel's entry point
set -- ARCH=arm CROSS_COMPILE=$cross \
	KCFLAGS="-std=gnu89 -fno-pie" \
	HOSTCFLAGS="-Wall -Wstrict-prototypes -O2 -fomit-frame-pointer -fcommon" \
	LDFLAGS_BUILD_ID=

cd "$src"
make "$@" versatile_defconfig </dev/null >"$work/defconfig.log" 2>&1
# The two config changes (see docs/armboot-measured.md):
#  CONFIG_AEABI=y          run a current EABI (armel) userland; OABI_COMPAT stays
#  CONFIG_MMC_ARMMMCI=y    PL181 MMC built in, so the root ext2 needs no initramfs
sed -i -e 's/^# CONFIG_AEABI is not set/CONFIG_AEABI=y/' \
       -e 's/^CONFIG_MMC_ARMMMCI=m/CONFIG_MMC_ARMMMCI=y/' .config
case $variant in
nofb|slub-nofb)
	sed -i 's/^CONFIG_FB_ARMCLCD=y/# CONFIG_FB_ARMCLCD is not set/' .config ;;
esac
case $variant in
slub-nofb)
	sed -i -e 's/^CONFIG_SLAB=y/# CONFIG_SLAB is not set/' \
	       -e 's/^# CONFIG_SLUB is not set/CONFIG_SLUB=y/' .config ;;
esac
yes "" | make "$@" oldconfig >"$work/oldconfig.log" 2>&1 || true
grep -q '^CONFIG_AEABI=y' .config && grep -q '^CONFIG_MMC_ARMMMCI=y' .config || {
	echo "build.sh: config changes did not take" >&2; exit 1; }
case $variant in
nofb|slub-nofb) ! grep -q '^CONFIG_FB_ARMCLCD=y' .config || {
	echo "build.sh: CONFIG_FB_ARMCLCD still set" >&2; exit 1; } ;;
esac
case $variant in
slub-nofb) grep -q '^CONFIG_SLUB=y' .config || {
	echo "build.sh: CONFIG_SLUB did not take" >&2; exit 1; } ;;
esac
nice make "$@" -j"$jobs" zImage >"$work/build.log" 2>&1 || {
	tail -20 "$work/build.log" >&2; echo "build.sh: build failed, see $work/build.log" >&2; exit 1; }

ref=$repo/data/measured/armboot/config-2.6.25-rc1-versatile${variant:+-$variant}
if [ -f "$ref" ]; then
	if diff -I '^# ' "$ref" .config >/dev/null; then
		echo "build.sh: .config matches $ref"
	else
		echo "build.sh: WARNING .config differs from $ref" >&2
		diff -I '^# ' "$ref" .config >&2 || true
	fi
else
	echo "build.sh: no $ref to compare with (a new variant: copy .config there)"
fi
echo "build.sh: $src/arch/arm/boot/zImage"
