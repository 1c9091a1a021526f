#!/usr/bin/env bash
# mmsim calibrate prints one positive hw.<cost> = ns line per measured cost, scales them to a
# named profile, and refuses bad arguments with exit 2.
set -eu
mmsim=$1
out=$("$mmsim" calibrate --quick --profile arm926-2008)
for k in syscall_ns ctxsw_ns fault_ns anon_fault_ns page_zero_ns page_copy_ns fork_ns \
	touch_ns scan_page_ns rmap_pte_ns tick_ns copy_pte_ns zap_pte_ns; do
	n=$(grep -cE "^hw\.$k = [1-9][0-9]* " <<<"$out" || true)
	# the host's figure, and the scaled one when the clock rate is known
	if [ "$n" -lt 1 ]; then
		echo "FAIL: no positive hw.$k line"
		echo "$out"
		exit 1
	fi
done
echo "ok   every cost measured and positive"
if grep -q "scaled to arm926-2008" <<<"$out"; then
	# a 200 MHz board is slower than this host: every scaled figure at least the host's
	for k in syscall_ns fork_ns; do
		host=$(grep -E "^hw\.$k = " <<<"$out" | head -1 | awk '{print $3}')
		scaled=$(grep -E "^hw\.$k = " <<<"$out" | tail -1 | awk '{print $3}')
		[ "$scaled" -ge "$host" ] || { echo "FAIL: $k scaled $scaled < host $host"; exit 1; }
	done
	echo "ok   scaled to the profile's clock"
fi
rc=0
"$mmsim" calibrate --bogus 2>/dev/null || rc=$?
[ "$rc" = 2 ] || { echo "FAIL: unknown option exit $rc"; exit 1; }
rc=0
"$mmsim" calibrate --profile nosuch 2>/dev/null || rc=$?
[ "$rc" = 2 ] || { echo "FAIL: unknown profile exit $rc"; exit 1; }
echo "ok   bad arguments exit 2"
