#!/bin/sh
# Run 'hackbench G process 100' on two kernels side by side: for each run
# number and each group count, one boot of kernel A and one of kernel B start
# together (two QEMU instances at once, no more), so both meet the same host
# load. Each boot is run.sh's: fresh root file system, one hackbench.
#
#   tools/measure/armboot/pairs.sh OUTDIR FIRST LAST "GROUPS..." NAME_A WORK_A NAME_B WORK_B
#
# writes OUTDIR/NAME-hbG-N.log for N = FIRST..LAST, G in GROUPS, NAME in
# NAME_A, NAME_B. WORK_A/WORK_B are run.sh WORKDIRs (each holds linux/ from
# build.sh, or a symlink to a built tree, and the busybox .deb); they must
# differ, since run.sh builds its root file system there.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 8 ] || { echo "usage: pairs.sh OUTDIR FIRST LAST \"GROUPS\" NAME_A WORK_A NAME_B WORK_B" >&2; exit 1; }
out=$1 first=$2 last=$3 groups=$4 na=$5 wa=$6 nb=$7 wb=$8
[ "$wa" != "$wb" ] || { echo "pairs.sh: WORK_A and WORK_B must differ" >&2; exit 1; }
mkdir -p "$out"
n=$first
while [ "$n" -le "$last" ]; do
	for g in $groups; do
		echo "pairs.sh: run $n, $g groups: $(date -u +%H:%M:%S)"
		"$here/run.sh" "hb:$g" "$out/$na-hb$g-$n.log" "$wa" >"$out/.$na.err" 2>&1 &
		pa=$!
		"$here/run.sh" "hb:$g" "$out/$nb-hb$g-$n.log" "$wb" >"$out/.$nb.err" 2>&1 &
		pb=$!
		wait $pa || { echo "pairs.sh: $na run $n hb:$g failed:"; cat "$out/.$na.err"; }
		wait $pb || { echo "pairs.sh: $nb run $n hb:$g failed:"; cat "$out/.$nb.err"; }
	done
	n=$((n + 1))
done
rm -f "$out/.$na.err" "$out/.$nb.err"
