#!/bin/bash
# What the programs do in the background: the anonymous and file pages each touches and the
# CPU it uses while nobody talks to it (docs/desktop-measured.md, "Background activity").
# usage: tools/measure/desktop/idle.sh OUTDIR   (inside dbus-run-session, as root, with swap
#        on; PROGRAMS=file to measure another list than programs.txt; P seconds a period
#        (10), NP periods (6), SETTLE seconds before the first (10))
# run.sh's sequence: Xvfb, openbox, the programs of programs.txt one after another, nothing
# closed, each given 3 s after its window appeared. Then the last program's window is
# activated (the others are in the background, as in the thread) and after SETTLE s, NP
# times, for every process (the programs, Xvfb, openbox) at once:
#   its anonymous pages are pushed to swap (anonpage out) and read back (outK), its
#   referenced bits cleared (clear_refs 1) and its CPU time read; after P s its pages read
#   again (pK), its smaps per mapping (Referenced: the file pages it
#   referenced in the period) and its CPU time. A page swapped at outK and present at pK
#   was touched in the period (anonsets.sh's method). Nothing is injected: Xvfb has no
#   mouse, no keyboard; what runs is the programs' own timers.
# Then a control period (c): the same, with every process stopped (SIGSTOP) from its
# clear_refs to its readings. smaps Referenced counts a page whose PTE in this process is
# young or whose page flag says referenced, and the flag is the page's, set by any process
# (a library page another process's read() or fault touched): what a stopped process's file
# mappings still show referenced is that, which idle.py takes off each period's figure.
# Writes OUTDIR/programs.csv (step,program,command,pid), OUTDIR/pages.txt (anonpage map
# lines prefixed "step program phase pid"), OUTDIR/smaps.csv (smaps.py rows, phase pK) and
# OUTDIR/cpu.csv (step,program,pid,phase,time_s,cpu_ms: at outK and at pK).
set -u
out=$1
P=${P:-10}
NP=${NP:-6}
SETTLE=${SETTLE:-10}
here=$(cd "$(dirname "$0")" && pwd)
list=${PROGRAMS:-$here/programs.txt}
mkdir -p "$out"
cc -O2 -Wall -o "$out/anonpage" "$here/anonpage.c" || exit 1
ap=$out/anonpage
swapon --show=NAME --noheadings | grep -q . || { echo "idle.sh: no swap" >&2; exit 1; }
: >"$out/.pids"
export DISPLAY=:79 FFPROF PATH=$PATH:/usr/games
FFPROF=$(mktemp -d)
Xvfb :79 -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xpid=$!
echo $xpid >>"$out/.pids"
sleep 2
dbus-update-activation-environment DISPLAY >/dev/null 2>&1
openbox >/dev/null 2>&1 &
wmpid=$!
echo $wmpid >>"$out/.pids"
sleep 2
echo "step,program,command,pid" >"$out/programs.csv"
echo "step,program,phase,pid,path,perms,size_kb,rss_kb,ref_kb,anon_kb,swap_kb" >"$out/smaps.csv"
echo "step,program,pid,phase,time_s,cpu_ms" >"$out/cpu.csv"
: >"$out/pages.txt"
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) * 1000 / hz }' "/proc/$1/stat" 2>/dev/null || echo 0; }
now() { date +%s.%N; }
windows() { wmctrl -lp 2>/dev/null | awk '{ print $1 ":" $3 }' | sort; }
echo "0|Xvfb|$xpid" >"$out/.procs"
echo "0|openbox|$wmpid" >>"$out/.procs"
step=0
last_win=""
while IFS='|' read -r name cmd; do
	step=$((step + 1))
	[ "$cmd" = - ] && continue
	before=$(windows)
	(eval "exec $cmd") </dev/null >/dev/null 2>&1 &
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
	[ -z "$wpid" ] || [ "$wpid" = 0 ] && wpid=$lpid
	echo "$wpid" >>"$out/.pids"
	[ -n "$win" ] && last_win=$win
	sleep 3
	echo "$step,$name,$cmd,$wpid" >>"$out/programs.csv"
	# a further window of a process already listed (nautilus --browser) is not measured
	# twice: its process's rows are the whole process's
	cut -d'|' -f3 "$out/.procs" | grep -qx "$wpid" || echo "$step|$name|$wpid" >>"$out/.procs"
	echo "step $step $name: pid $wpid window ${win:-none}" >&2
done < <(grep -v '^#' "$list")
[ -n "$last_win" ] && wmctrl -ia "$last_win"
sleep "$SETTLE"
# one process's period k, run for every process at once so that each period lasts P s
# give or take the readings (a sequential loop over 33 processes took 20-60 s a period)
# (k = c: the control period, every process stopped from its clear_refs to its readings)
period() { # step name pid k
	local s=$1 name=$2 pid=$3 k=$4 f=$out/.p.$3.$4
	"$ap" out "$pid"
	"$ap" map "$pid" | sed "s|^|$s $name out$k $pid |" >"$f.pages"
	echo 1 >"/proc/$pid/clear_refs"
	[ "$k" = c ] && kill -STOP "$pid"
	echo "$s,$name,$pid,out$k,$(now),$(cpu_ms "$pid")" >"$f.cpu"
	sleep "$P"
	echo "$s,$name,$pid,p$k,$(now),$(cpu_ms "$pid")" >>"$f.cpu"
	"$ap" map "$pid" | sed "s|^|$s $name p$k $pid |" >>"$f.pages"
	python3 "$here/smaps.py" "$pid" "$s" "$name" "p$k" >"$f.smaps"
	[ "$k" = c ] && kill -CONT "$pid"
}
for k in $(seq 1 "$NP") c; do
	jobs=""
	while IFS='|' read -r s name pid; do
		[ -d "/proc/$pid" ] || continue
		period "$s" "$name" "$pid" "$k" &
		jobs="$jobs $!"
	done <"$out/.procs"
	wait $jobs # not the programs, which are this shell's children too
	while IFS='|' read -r s name pid; do
		f=$out/.p.$pid.$k
		[ -f "$f.cpu" ] || continue
		cat "$f.cpu" >>"$out/cpu.csv"
		cat "$f.pages" >>"$out/pages.txt"
		cat "$f.smaps" >>"$out/smaps.csv"
		rm -f "$f.cpu" "$f.pages" "$f.smaps"
	done <"$out/.procs"
	echo "period $k done" >&2
done
sort -u "$out/.pids" | xargs -r kill 2>/dev/null
rm -f "$out/.pids" "$ap"
kill $wmpid $xpid 2>/dev/null
rm -rf "$FFPROF"
