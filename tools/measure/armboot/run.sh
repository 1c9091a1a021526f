#!/bin/sh
# Boot the v2.6.25-rc1 Versatile PB kernel (build.sh) in QEMU with 32 MiB of
# RAM (or MEM, below), no swap, root on an ext2 image on the PL181 MMC/SD
# card, and capture the serial console: the boot log, /proc/meminfo,
# zoneinfo, vmstat, buddyinfo, slabinfo after boot, and, in the hackbench
# modes, the same right before 'hackbench G process 100' and whether the OOM
# killer fired.
#
#   tools/measure/armboot/run.sh MODE OUTFILE [WORKDIR]
#     MODE     boot | hb:5 | hb:6   (hb:G = hackbench G process 100, once)
#              | sockcost   (sockcost.c: write/read cost per call)
#              | hbsnap:G[:MS[:m]] (hackbench G process 100 with schedsnap.c's
#                            run-queue and Slab snapshots every MS ms, default
#                            20; ':m' the Slab and MemFree lines only)
#              | kcost[:PHASE,...]  (kprof/kcost.c's phases under the kprof
#                            plugin, which writes the instructions of each
#                            phase by block to OUTFILE.kprof; the image gains
#                            a 48 MiB /data, a 4 MiB /small and a
#                            16 MiB /swapfile)
#     OUTFILE  console log to write (e.g. data/measured/armboot/boot-1.log)
#     WORKDIR  default /tmp/armboot (holds linux/ from build.sh)
# Environment: BUSYBOX_DEB (an armel busybox-static .deb; default: the one in
# WORKDIR, else fetched with 'apt-get download busybox-static:armel'),
# TIMEOUT (seconds, default 900), ICOUNT (empty: the guest's clock is the
# host's, as QEMU has it by default; N: '-icount shift=N,sleep=off', a
# virtual clock that advances 2^N ns per guest instruction, so the guest
# runs at 1000/2^N million instructions per second of its own time whatever
# the host's load; 3 = 125 MIPS), MEM (MiB of guest RAM, QEMU's -m;
# default 32, the board's; e.g. MEM=64 leaves memory to spare, so hackbench
# runs without reclaim and only the scheduler decides its switches).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:?usage: run.sh boot|hb:5|hb:6 OUTFILE [WORKDIR]}
out=${2:?usage: run.sh boot|hb:5|hb:6 OUTFILE [WORKDIR]}
work=${3:-/tmp/armboot}
tmo=${TIMEOUT:-900}
icount=${ICOUNT:-}
case $icount in "") ;; [0-9]|10) ;; *) echo "run.sh: bad ICOUNT '$icount'" >&2; exit 1 ;; esac
mem=${MEM:-32}
case $mem in [1-9]|[1-9][0-9]|[1-9][0-9][0-9]) ;; *) echo "run.sh: bad MEM '$mem'" >&2; exit 1 ;; esac
case $mode in boot|hb:[0-9]*|hbsnap:[0-9]*|sockcost|kcost|kcost:[a-z]*) ;; *) echo "run.sh: bad MODE '$mode'" >&2; exit 1 ;; esac

need() {
	command -v "$1" >/dev/null 2>&1 || {
		echo "run.sh: '$1' not found; $2" >&2; exit 1; }
}
need qemu-system-arm "install qemu-system-arm"
need genext2fs "install genext2fs"
need dpkg-deb "install dpkg"
need arm-linux-gnueabi-gcc "install gcc-arm-linux-gnueabi (builds hackbench)"
need timeout "install coreutils"
zimage=$work/linux/arch/arm/boot/zImage
[ -f "$zimage" ] || { echo "run.sh: no $zimage; run build.sh first" >&2; exit 1; }

deb=${BUSYBOX_DEB:-}
if [ -z "$deb" ]; then
	deb=$(ls "$work"/busybox-static_*_armel.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		need apt-get "install apt or set BUSYBOX_DEB"
		(cd "$work" && apt-get download busybox-static:armel) || {
			echo "run.sh: cannot download busybox-static:armel (dpkg --add-architecture armel; apt-get update) or set BUSYBOX_DEB" >&2; exit 1; }
		deb=$(ls "$work"/busybox-static_*_armel.deb | head -1)
	fi
fi

# Root filesystem: busybox, the guest scripts, hackbench; fresh for every run.
root=$work/rootfs
rm -rf "$root" "$work/bbdeb"; mkdir -p "$root" "$work/bbdeb"
dpkg-deb -x "$deb" "$work/bbdeb"
mkdir -p "$root/bin" "$root/sbin" "$root/etc/init.d" "$root/proc" "$root/sys" "$root/tmp" "$root/root"
cp "$work/bbdeb/bin/busybox" "$root/bin/busybox"
for a in sh ash cat mount umount dmesg ps uname reboot halt poweroff sleep kill \
	killall grep sync ls echo free; do
	ln -s busybox "$root/bin/$a"
done
ln -s ../bin/busybox "$root/sbin/init"
cp "$here/guest/inittab" "$root/etc/inittab"
cp "$here/guest/rcS" "$root/etc/init.d/rcS"
cp "$here/guest/measure.sh" "$root/etc/measure.sh"
chmod 755 "$root/etc/init.d/rcS" "$root/etc/measure.sh"
arm-linux-gnueabi-gcc -O2 -static -Wall -o "$root/bin/hackbench" "$here/hackbench.c"
# MODE sockcost (guest/measure.sh): the per-call cost of socket write/read.
if [ "$mode" = sockcost ]; then
	arm-linux-gnueabi-gcc -O2 -static -Wall -o "$root/bin/sockcost" "$here/sockcost.c"
fi
case $mode in hbsnap:*)
	arm-linux-gnueabi-gcc -O2 -static -Wall -o "$root/bin/schedsnap" "$here/schedsnap.c" ;;
esac
blocks=8192
plugin=
case $mode in kcost*)
	arm-linux-gnueabi-gcc -O2 -static -marm -Wall -o "$root/bin/kcost" "$here/kprof/kcost.c"
	need gcc "install gcc (builds the kprof plugin)"
	need mkswap "install util-linux"
	gcc -O2 -Wall -shared -fPIC -o "$work/kprof.so" "$here/kprof/kprof.c"
	dd if=/dev/zero of="$root/data" bs=1M count=48 status=none
	dd if=/dev/zero of="$root/small" bs=1M count=4 status=none
	dd if=/dev/zero of="$root/swapfile" bs=1M count=16 status=none
	chmod 600 "$root/swapfile"
	mkswap "$root/swapfile" >/dev/null
	blocks=131072
	plugin="-plugin $work/kprof.so,out=$out.kprof" ;;
esac
img=$work/rootfs.ext2
rm -f "$img"
# 8 MiB, or 128 MiB for kcost (QEMU's SD card wants a power of two), 1 KiB
# blocks as mke2fs picks for a small file system; owners squashed to root;
# no holes, so the swap file is swappable.
genext2fs -U -B 1024 -b $blocks -N 256 -d "$root" -D "$here/guest/devtable" "$img"

mkdir -p "$(dirname "$out")"
set +e
timeout "$tmo" qemu-system-arm -M versatilepb -cpu arm926 -m "$mem" \
	-kernel "$zimage" \
	-append "console=ttyAMA0 root=/dev/mmcblk0 rootfstype=ext2 rw rootwait armboot=$mode" \
	-drive if=sd,format=raw,file="$img" \
	-nographic -no-reboot -audiodev none,id=snd -net none \
	${icount:+-icount shift=$icount,sleep=off} $plugin \
	</dev/null >"$out.tmp" 2>&1
rc=$?
set -e
# Keep the guest's console only (drop QEMU's own warnings), LF line ends.
sed -n '/^Uncompressing Linux/,$p' "$out.tmp" | tr -d '\r' >"$out"
rm -f "$out.tmp"
if [ $rc -ne 0 ]; then
	echo "run.sh: qemu exited with $rc (124 = timeout after ${tmo}s); log in $out" >&2
	exit 1
fi
grep -q '^=== armboot end' "$out" || { echo "run.sh: guest did not finish; see $out" >&2; exit 1; }
echo "run.sh: $out"
