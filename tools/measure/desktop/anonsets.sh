#!/bin/bash
# Which anonymous pages a window switch touches, and whether the set drifts from switch to
# switch (docs/desktop-measured.md, "Which anonymous pages").
# usage: tools/measure/desktop/anonsets.sh OUTDIR   (inside dbus-run-session, as root, with
#        swap on; PROGRAMS=file to measure another list than programs.txt; NSW switches;
#        SOFTDIRTY=1: in (b) also which touched pages were written, see below; NOREF=1: no (a))
# run.sh's sequence: Xvfb, openbox, the programs one after another, nothing closed. After a
# program's window appears and 3 s have passed:
#  (a) its referenced bits are cleared once (clear_refs 1) and it gets NSW (8) window switches:
#      activate the previous program's window, 1 s, activate its window, 1.5 s; its smaps
#      is read after switches 1, 2, 4 and 8 (phase ref1 … ref8) without clearing in between;
#  (b) its anonymous pages are pushed to swap (anonpage out) and read back after 2.5 s with
#      no switch (idle); then NSW times: push its pages out, read them (outK), activate the
#      previous window, 1 s, push Xvfb's and openbox's out and read them, activate its
#      window, 1.5 s, read the three (swK). A page swapped at outK and present at swK was
#      touched by the program between (one round: losing and regaining the focus). With
#      SOFTDIRTY=1 the program's soft-dirty bits are cleared (clear_refs 4) after each
#      push-out and its readings mark the present pages written since ("w").
# Writes OUTDIR/programs.csv (as run.sh), OUTDIR/smaps.csv (smaps.py rows: start, refK, and
# the shared-memory view), OUTDIR/meminfo.csv (Shmem, AnonPages, SwapCached before and after
# each launch) and OUTDIR/pages.txt (anonpage map lines prefixed "step program phase pid").
set -u
out=$1
nsw=${NSW:-8}
here=$(cd "$(dirname "$0")" && pwd)
list=${PROGRAMS:-$here/programs.txt}
mkdir -p "$out"
cc -O2 -Wall -o "$out/anonpage" "$here/anonpage.c" || exit 1
ap=$out/anonpage
swapon --show=NAME --noheadings | grep -q . || { echo "anonsets.sh: no swap" >&2; exit 1; }
: >"$out/.pids"
export DISPLAY=:78 FFPROF PATH=$PATH:/usr/games
FFPROF=$(mktemp -d)
Xvfb :78 -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xpid=$!
echo $xpid >>"$out/.pids"
sleep 2
dbus-update-activation-environment DISPLAY >/dev/null 2>&1
openbox >/dev/null 2>&1 &
wmpid=$!
echo $wmpid >>"$out/.pids"
sleep 2
echo "step,program,command,pid,window_s,cpu_ms_to_window,rchar,read_bytes,cpu_ms_settled" >"$out/programs.csv"
echo "step,program,phase,pid,path,perms,size_kb,rss_kb,ref_kb,anon_kb,swap_kb" >"$out/smaps.csv"
echo "step,program,when,shmem_kb,anonpages_kb,swapcached_kb" >"$out/meminfo.csv"
: >"$out/pages.txt"
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) * 1000 / hz }' "/proc/$1/stat" 2>/dev/null || echo 0; }
now() { date +%s.%N; }
windows() { wmctrl -lp 2>/dev/null | awk '{ print $1 ":" $3 }' | sort; }
meminfo() { awk -v s="$1" -v p="$2" -v w="$3" '/^Shmem:/{a=$2} /^AnonPages:/{b=$2} /^SwapCached:/{c=$2}
	END{print s "," p "," w "," a "," b "," c}' /proc/meminfo >>"$out/meminfo.csv"; }
pmap() { # pid step program phase [-w]
	"$ap" map ${5:-} "$1" | sed "s|^|$2 $3 $4 $1 |" >>"$out/pages.txt"
}
sd=""
[ "${SOFTDIRTY:-0}" = 1 ] && sd=-w
away() { [ -n "$prev_win" ] && wmctrl -ia "$prev_win"; sleep 1; }
step=0
prev_win=""
grep -v '^#' "$list" | while IFS='|' read -r name cmd; do
	step=$((step + 1))
	[ "$cmd" = - ] && continue
	before=$(windows)
	meminfo $step "$name" before
	t0=$(now)
	(eval "exec $cmd") >/dev/null 2>&1 &
	lpid=$!
	echo $lpid >>"$out/.pids"
	win="" wpid=""
	for _ in $(seq 1 150); do
		new=$(comm -13 <(echo "$before") <(windows) | head -1)
		if [ -n "$new" ]; then
			win=${new%%:*} wpid=${new#*:}
			break
		fi
		sleep 0.1
	done
	t1=$(now)
	[ -z "$wpid" ] || [ "$wpid" = 0 ] && wpid=$lpid
	echo "$wpid" >>"$out/.pids"
	cpu=$(cpu_ms "$wpid")
	sleep 3
	io=$(awk '/^rchar/{r=$2} /^read_bytes/{b=$2} END{print r "," b}' "/proc/$wpid/io" 2>/dev/null || echo ",")
	echo "$step,$name,$cmd,$wpid,$(echo "$t1 - $t0" | bc),$cpu,$io,$(cpu_ms "$wpid")" >>"$out/programs.csv"
	meminfo $step "$name" after
	python3 "$here/smaps.py" "$wpid" $step "$name" start >>"$out/smaps.csv"
	python3 "$here/smaps.py" $xpid $step Xvfb start >>"$out/smaps.csv"
	if [ -n "$win" ]; then
		# (a) the referenced union over NSW switches
		[ "${NOREF:-0}" = 1 ] || for k in $(seq 1 "$nsw"); do
			away
			[ "$k" = 1 ] && echo 1 >"/proc/$wpid/clear_refs"
			wmctrl -ia "$win"
			sleep 1.5
			case $k in 1 | 2 | 4 | 8 | 16) python3 "$here/smaps.py" "$wpid" $step "$name" ref$k >>"$out/smaps.csv" ;; esac
		done
		# (b) the pages themselves
		"$ap" out "$wpid"
		sleep 2.5
		pmap "$wpid" $step "$name" idle
		for k in $(seq 1 "$nsw"); do
			"$ap" out "$wpid"
			[ -n "$sd" ] && echo 4 >"/proc/$wpid/clear_refs"
			pmap "$wpid" $step "$name" out$k $sd
			away
			"$ap" out $xpid $wmpid
			pmap $xpid $step Xvfb out$k
			pmap $wmpid $step openbox out$k
			wmctrl -ia "$win"
			sleep 1.5
			pmap "$wpid" $step "$name" sw$k $sd
			pmap $xpid $step Xvfb sw$k
			pmap $wmpid $step openbox sw$k
		done
		prev_win=$win
	fi
	echo "step $step $name: window after $(echo "$t1 - $t0" | bc) s, pid $wpid" >&2
done
sort -u "$out/.pids" | xargs -r kill 2>/dev/null
rm -f "$out/.pids" "$ap"
kill $wmpid $xpid 2>/dev/null
rm -rf "$FFPROF"
