#!/bin/sh
# The CPU of fs_mark's per-file steps on XFS (the thread's filesystem), measured here:
# makes a 2 GiB XFS image on a loop device (root; Debian: xfsprogs, fsmark), runs
# tools/measure/fsmark_costs.c three times with 15,000 empty files in 100 subdirectories
# of 150 (Mel Gorman's -D 100 -N 150), then fs_mark -v -s 0 itself as a cross-check of
# the create and close times (its own microsecond timers). Raw output:
# data/measured/fsmark_costs.txt.
#
#   sudo tools/measure/fsmark_costs.sh > data/measured/fsmark_costs.txt
set -e
[ "$(id -u)" = 0 ] || { echo "needs root (loop device, mount)" >&2; exit 2; }
command -v mkfs.xfs >/dev/null || apt-get install -y -q xfsprogs >&2
command -v fs_mark >/dev/null || apt-get install -y -q fsmark >&2
d=$(mktemp -d)
img="$d/xfs.img"
mnt="$d/mnt"
cleanup() { umount "$mnt" 2>/dev/null || true; rm -rf "$d"; }
trap cleanup EXIT
cc -O2 -o "$d/fsmark_costs" "$(dirname "$0")/fsmark_costs.c"
truncate -s 2G "$img"
mkfs.xfs -q "$img"
mkdir "$mnt"
mount -o loop "$img" "$mnt"
echo "# uname $(uname -srvm)"
echo "# cpu $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') $(grep -m1 'cpu MHz' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') MHz, $(nproc) CPUs"
echo "# mkfs.xfs $(mkfs.xfs -V | sed 's/.*version //'), Debian fsmark $(dpkg-query -W -f='${Version}' fsmark)"
for run in 1 2 3; do
	echo "run $run"
	"$d/fsmark_costs" "$mnt/r$run" 15000 100 150 | sed 's/^/  /'
done
echo "fs_mark -d DIR -D 100 -N 150 -n 15000 -L 3 -t 1 -S0 -s 0 -v"
(cd "$d" && fs_mark -d "$mnt/fm" -D 100 -N 150 -n 15000 -L 3 -t 1 -S0 -s 0 -v 2>&1) |
	grep -A4 '^FSUse%' | sed 's/^/  /'
