#!/bin/sh
# Runs in the guest as the only job after init. Mode from the kernel command
# line: armboot=boot (dump the state after boot) or armboot=hb:GROUPS (dump the
# state, then run 'hackbench GROUPS process 100' once and report OOM kills),
# or armboot=sockcost (after the boot dump, run /bin/sockcost once).
# Every section goes to the console between '=== name' markers; then reboot -f,
# which QEMU (-no-reboot) turns into an exit.
# No pipes and no $(...): the glibc of Debian's busybox-static makes pipe()
# with pipe2, which 2.6.25 does not have (ENOSYS).
mode=boot
read -r cmdline </proc/cmdline
for w in $cmdline; do
	case $w in armboot=*) mode=${w#armboot=} ;; esac
done

# The processes, from /proc/PID/stat: busybox ps cannot list /proc here
# (its glibc makes fstat with AT_EMPTY_PATH, which 2.6.25 refuses: EINVAL).
procs() {
	p=1
	while [ $p -le 400 ]; do
		if [ -r /proc/$p/stat ]; then read -r l </proc/$p/stat; echo "$l"; fi
		p=$((p + 1))
	done
}

dump() {
	for f in meminfo zoneinfo vmstat buddyinfo slabinfo; do
		echo "=== $f $1"; cat /proc/$f
	done
	echo "=== procs $1"; procs
}

echo "=== armboot mode $mode"
echo "=== uname"; uname -a
echo "=== cmdline"; cat /proc/cmdline
echo "=== mounts"; cat /proc/mounts
echo "=== dmesg"; dmesg
dump boot

case $mode in
hb:*)
	g=${mode#hb:}
	dmesg -c >/dev/null
	dump pre-hackbench
	echo "=== hackbench $g process 100"
	HACKBENCH_PROC=1 /bin/hackbench "$g" process 100
	echo "=== hackbench exit $?"
	sleep 1
	killall -9 hackbench 2>/dev/null
	echo "=== dmesg after"; dmesg
	dump post-hackbench
	;;
hbsnap:*)
	# hbsnap:G[:MS[:m]]: hackbench G process 100 in the background, and schedsnap
	# (at nice -20) printing the run queue and meminfo's Slab/MemFree every MS ms
	# (default 20) meanwhile; with ':m' meminfo's lines only
	rest=${mode#hbsnap:}
	g=${rest%%:*}
	ms=${rest#*:}
	[ "$ms" = "$rest" ] && ms=20
	only=${ms#*:}
	[ "$only" = "$ms" ] && only=
	ms=${ms%%:*}
	echo "=== hackbench $g process 100 (with schedsnap every $ms ms $only)"
	/bin/hackbench "$g" process 100 &
	/bin/schedsnap "$ms" $((20000 / ms + 1)) $only
	wait
	echo "=== hackbench exit $?"
	;;
sockcost)
	# sockcost.c: CPU cost of socket/pipe write and read per call.
	echo "=== sockcost start"
	/bin/sockcost
	echo "=== sockcost exit $?"
	;;
kcost*)
	# kprof/kcost.c's phases (all, or the comma-separated list after 'kcost:')
	phases=
	case $mode in kcost:*) phases=${mode#kcost:} ;; esac
	IFS=,
	set -- $phases
	unset IFS
	echo "=== kcost start"
	/bin/kcost "$@"
	echo "=== kcost exit $?"
	;;
esac
echo "=== armboot end"
sync
reboot -f
