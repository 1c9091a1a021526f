#!/bin/bash
# The kernel's allocations over one run.sh sequence (docs/desktop-measured.md, "The kernel's
# allocations (order > 0)"): every page allocation (kmem/mm_page_alloc: order, gfp flags, and
# the calling stack of those of order > 0), every kmalloc (kmem/kmalloc: call site, bytes
# requested and allocated, gfp flags), every slab cache allocation (kmem/kmem_cache_alloc:
# cache name) and every socket send (sock/sock_send_length: family, bytes: the unix-socket
# messages of the X protocol and D-Bus, whose buffers 2.6.30 allocated with kmalloc), recorded
# with ftrace in an instance of its own and aggregated by kmem.py.
# needs: root; tracefs (/sys/kernel/tracing or /sys/kernel/debug/tracing) with those four
# events and the stacktrace trigger (hist triggers are not needed); zstd; what run.sh needs
# (Xvfb, openbox, wmctrl, the programs of programs.txt); run it inside dbus-run-session.
# usage: dbus-run-session -- tools/measure/desktop/kmem.sh OUTDIR
# Only the desktop's processes are traced: dbus-run-session's (the D-Bus daemon and the
# services it starts), this script's and run.sh's, with everything they fork (set_event_pid,
# event-fork); other processes on the machine and kernel threads are not. A second instance
# records every order > 0 page allocation of the whole machine, with its stack (trace-all.zst).
# Writes OUTDIR/trace.zst (the instance's trace_pipe text: events, the order > 0 events' stacks,
# and a marker "mmsim: step N ..." at the end of each of run.sh's steps), OUTDIR/before/ and
# OUTDIR/after/ (vmstat, buddyinfo, slabinfo, slab.csv: every /sys/kernel/slab entry with its
# order, object and slab size, objects per slab, slabs), OUTDIR/host.txt (kernel, CPUs, RAM,
# wall seconds of the run), OUTDIR/trace-stats.txt (the buffers' counts of events lost),
# OUTDIR/run/ (run.sh's own output), OUTDIR/run.log.
# Then: tools/measure/desktop/kmem.py OUTDIR data/measured/desktop
# Tracing state is restored on exit: the instances (events, trigger, pid lists, buffers) are
# removed and saved_cmdlines_size is set back.
set -u
if [ "$(id -u)" != 0 ]; then
	echo "kmem.sh: needs root (ftrace)" >&2
	exit 2
fi
T=/sys/kernel/tracing
[ -d $T/events/kmem ] || T=/sys/kernel/debug/tracing
for e in kmem/mm_page_alloc kmem/kmalloc kmem/kmem_cache_alloc sock/sock_send_length; do
	if [ ! -d $T/events/$e ]; then
		echo "kmem.sh: no tracefs with the event $e (mount tracefs on /sys/kernel/tracing)" >&2
		exit 2
	fi
done
if ! grep -q stacktrace $T/README; then
	echo "kmem.sh: this kernel's ftrace has no stacktrace trigger" >&2
	exit 2
fi
for c in zstd Xvfb openbox wmctrl dbus-update-activation-environment; do
	if ! command -v $c >/dev/null; then
		echo "kmem.sh: $c not found" >&2
		exit 2
	fi
done
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
	echo "kmem.sh: run it inside dbus-run-session" >&2
	exit 2
fi
[ $# = 1 ] || { echo "usage: kmem.sh OUTDIR" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
I=$T/instances/mmsim-kmem
A=$T/instances/mmsim-kmem-all
for d in $I $A; do
	[ -d $d ] && rmdir $d # left by an interrupted run
	mkdir $d || exit 2
done
cmdlines0=$(cat $T/saved_cmdlines_size)
readers="" zpids=""
cleanup() {
	trap - EXIT INT TERM
	echo 0 >$I/events/enable
	echo 0 >$A/events/enable
	echo '!stacktrace if order > 0' >$I/events/kmem/mm_page_alloc/trigger 2>/dev/null
	echo 0 >$A/events/kmem/mm_page_alloc/filter 2>/dev/null
	echo 0 >$A/options/stacktrace
	sleep 2 # the readers drain the buffers
	for d in $I $A; do
		for c in $d/per_cpu/cpu*; do
			sed "s/^/${d##*/} ${c##*/} /" $c/stats
		done
	done >"$out/trace-stats.txt"
	# the compressors end at their input's end
	[ -n "$readers" ] && kill $readers 2>/dev/null
	[ -n "$zpids" ] && wait $zpids
	echo >$I/set_event_pid
	echo >$I/set_event_notrace_pid
	echo 0 >$I/options/event-fork
	rmdir $I $A
	echo "$cmdlines0" >$T/saved_cmdlines_size
	rm -f "$out/.fifo" "$out/.fifo-all"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

snapshot() { # DIR
	mkdir -p "$1"
	cat /proc/vmstat >"$1/vmstat"
	cat /proc/buddyinfo >"$1/buddyinfo"
	cat /proc/slabinfo >"$1/slabinfo"
	echo "name,cache,order,object_size,slab_size,objs_per_slab,slabs" >"$1/slab.csv"
	for d in /sys/kernel/slab/*; do
		s=$(readlink -f "$d")
		read -r o <"$s/order"
		read -r os <"$s/object_size"
		read -r ss <"$s/slab_size"
		read -r ops <"$s/objs_per_slab"
		read -r sl _ <"$s/slabs"
		echo "${d##*/},${s##*/},$o,$os,$ss,$ops,$sl"
	done >>"$1/slab.csv"
}

snapshot "$out/before"
# comm of every pid seen (the default 128 slots lose names over ~30 programs)
echo 32768 >$T/saved_cmdlines_size
echo 262144 >$I/buffer_size_kb # per CPU
echo 16384 >$A/buffer_size_kb
echo 'stacktrace if order > 0' >$I/events/kmem/mm_page_alloc/trigger || exit 2
echo 'order > 0' >$A/events/kmem/mm_page_alloc/filter || exit 2
echo 1 >$A/options/stacktrace
mkfifo "$out/.fifo" "$out/.fifo-all"
zstd -q -1 <"$out/.fifo" >"$out/trace.zst" &
zpids="$zpids $!"
zstd -q -1 <"$out/.fifo-all" >"$out/trace-all.zst" &
zpids="$zpids $!"
cat $I/trace_pipe >"$out/.fifo" &
readers="$readers $!"
cat $A/trace_pipe >"$out/.fifo-all" &
readers="$readers $!"
# the desktop: dbus-run-session (when it is the parent), its D-Bus daemon, this script, and
# what they fork from now on; the readers and compressors above are not in it
echo 1 >$I/options/event-fork
desk="$$"
if [ "$(cat /proc/$PPID/comm)" = dbus-run-sessio ]; then
	desk="$desk $PPID $(pgrep -P $PPID | grep -v "^$$\$")"
fi
echo "$desk" >$I/set_event_pid
echo "$readers $zpids" >$I/set_event_notrace_pid
for e in kmem/mm_page_alloc kmem/kmalloc kmem/kmem_cache_alloc sock/sock_send_length; do
	echo 1 >$I/events/$e/enable
done
echo 1 >$A/events/kmem/mm_page_alloc/enable
echo 1 >$I/tracing_on
echo 1 >$A/tracing_on
# smaps.py under the system's python3, not through a version manager's shims (their shell
# scripts would fork a dozen processes per call)
export PATH=/usr/bin:$PATH
t0=$(date +%s.%N)
echo "mmsim: start" >$I/trace_marker
# run.sh's stderr ends each step with "step N NAME: window after ..."; each line becomes a
# marker in the trace, so the events can be counted per step
"$here/run.sh" "$out/run" 2> >(while IFS= read -r l; do
	echo "mmsim: $l" >$I/trace_marker
	echo "$l" | tee -a "$out/run.log" >&2
done)
echo "mmsim: end" >$I/trace_marker
t1=$(date +%s.%N)
echo 0 >$I/events/enable
snapshot "$out/after"
{
	echo "kernel $(uname -r)"
	echo "nproc $(nproc)"
	grep MemTotal /proc/meminfo
	echo "cmdline $(cat /proc/cmdline | cut -d' ' -f1-20)"
	echo "thp_enabled $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
	echo "wall_s $(echo "$t1 - $t0" | bc)"
	echo "start $t0"
	echo "end $t1"
	echo "traced_pids $desk"
} >"$out/host.txt"
