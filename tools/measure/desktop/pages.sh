#!/bin/bash
# Which pages of each file mapping the desktop programs touch (docs/desktop-measured.md,
# "Which pages"): run.sh's sequence (Xvfb + openbox, programs.txt in order, nothing closed,
# one window switch each) with every program, the X server and the window manager under
# touchmap (touchmap.c: fault-around off, pages present = pages touched).
# usage: dbus-run-session -- tools/measure/desktop/pages.sh OUTDIR
# (PROGRAMS=FILE: another list in programs.txt's format, e.g. a few lines of it, STEP0=N:
# its first line is step N + 1)
# Writes OUTDIR/pages.csv (pagemap.py rows: per file VMA the present file pages) for
#   start   the program 3 s after its first window (and Xvfb, openbox before any program);
#   idle    the program 1.5 s after a zap with no switch (what the zap itself and the
#           program's timers touch: the noise in a switch's set);
#   switch  the program, Xvfb and openbox 1.5 s after a switch to its window, all three
#           zapped before it;
# OUTDIR/programs.csv (as run.sh's), OUTDIR/pre/pre.PID (touchmap.c: what was present when a
# VMA was registered late) for the measured pids, OUTDIR/mappings.csv (smaps.py at start,
# for comparing Referenced with the present pages).
set -u
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tm=$out/tm
mkdir -p "$tm" "$out/pre"
rm -f "$tm"/*
cc=${CC:-gcc}
$cc -O2 -fPIC -shared -nostdlib -ffreestanding -fno-builtin -fno-stack-protector \
	-DTOUCHMAP_AUDIT -o "$out/touchmap_audit.so" "$here/touchmap.c" || exit 1
$cc -O2 -fPIC -shared -fno-stack-protector -o "$out/touchmap.so" "$here/touchmap.c" -ldl || exit 1
TM_ENV=(LD_AUDIT="$out/touchmap_audit.so" LD_PRELOAD="$out/touchmap.so" TOUCHMAP_DIR="$tm")
SIG=60 # touchmap.c's TOUCHMAP_SIG
: >"$out/.pids"
export DISPLAY=:77 FFPROF PATH=$PATH:/usr/games
FFPROF=$(mktemp -d)
env "${TM_ENV[@]}" Xvfb :77 -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xpid=$!
echo $xpid >>"$out/.pids"
sleep 2
# services D-Bus starts (gnome-terminal-server, gvfs) get the display and touchmap too
dbus-update-activation-environment DISPLAY "${TM_ENV[@]}" >/dev/null 2>&1
env "${TM_ENV[@]}" openbox >/dev/null 2>&1 &
wmpid=$!
echo $wmpid >>"$out/.pids"
sleep 2
prog_csv=$out/programs.csv
pages_csv=$out/pages.csv
echo "step,program,command,pid,window_s,cpu_ms_to_window,rchar,read_bytes,cpu_ms_settled" >"$prog_csv"
echo "step,program,phase,pid,path,perms,pgoff,pages,uw,zapped,anon_kb,present,anon_present,ranges" >"$pages_csv"
echo "step,program,phase,pid,path,perms,size_kb,rss_kb,ref_kb,anon_kb,swap_kb" >"$out/mappings.csv"
python3 "$here/pagemap.py" $xpid 0 Xvfb start >>"$pages_csv"
python3 "$here/pagemap.py" $wmpid 0 openbox start >>"$pages_csv"
cpu_ms() {
	awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) * 1000 / hz }' "/proc/$1/stat" 2>/dev/null || echo 0
}
now() { date +%s.%N; }
windows() { wmctrl -lp 2>/dev/null | awk '{ print $1 ":" $3 }' | sort; }
# has PID touchmap's handler? (not where the loader ignored LD_PRELOAD: a set-group-id
# program, such as urxvt; the signal would kill it)
caught() {
	local m
	m=$(awk '/^SigCgt/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -n "$m" ] && (((0x$m >> (SIG - 1)) & 1))
}
# zap PID...: touchmap's handler in each zaps its file VMAs; waits for each to say done
zap() {
	for p in "$@"; do rm -f "$tm/zap.$p"; done
	for p in "$@"; do
		if caught "$p"; then kill -$SIG "$p" 2>/dev/null; else echo "zap: $p has no handler" >&2; fi
	done
	for p in "$@"; do
		for _ in $(seq 1 40); do
			grep -qs '^done' "$tm/zap.$p" && break
			sleep 0.05
		done
		grep -qs '^done' "$tm/zap.$p" || echo "zap: no answer from $p" >&2
		grep -qs '^done' "$tm/zap.$p" || : >"$tm/zap.$p" # nothing zapped: nothing measured
	done
}
step=${STEP0:-0} # a run of a few lines of programs.txt numbers them as the full list does
prev_win=""
grep -v "^#" "${PROGRAMS:-$here/programs.txt}" | while IFS='|' read -r name cmd; do
	step=$((step + 1))
	[ "$cmd" = - ] && continue
	before=$(windows)
	t0=$(now)
	(eval "exec env \"\${TM_ENV[@]}\" $cmd") >/dev/null 2>&1 &
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
	echo "$step,$name,$cmd,$wpid,$(echo "$t1 - $t0" | bc),$cpu,$io,$(cpu_ms "$wpid")" >>"$prog_csv"
	python3 "$here/pagemap.py" "$wpid" $step "$name" start >>"$pages_csv"
	python3 "$here/smaps.py" "$wpid" $step "$name" start >>"$out/mappings.csv"
	if [ -n "$win" ]; then
		[ -n "$prev_win" ] && wmctrl -ia "$prev_win" && sleep 1
		# the noise: a zap and 1.5 s with no switch
		zap "$wpid"
		sleep 1.5
		python3 "$here/pagemap.py" "$wpid" $step "$name" idle "$tm/zap.$wpid" >>"$pages_csv"
		# one window switch to it, the program, X and the window manager zapped first
		zap "$wpid" $xpid $wmpid
		wmctrl -ia "$win"
		sleep 1.5
		python3 "$here/pagemap.py" "$wpid" $step "$name" switch "$tm/zap.$wpid" >>"$pages_csv"
		python3 "$here/pagemap.py" $xpid $step Xvfb switch "$tm/zap.$xpid" >>"$pages_csv"
		python3 "$here/pagemap.py" $wmpid $step openbox switch "$tm/zap.$wmpid" >>"$pages_csv"
		prev_win=$win
	fi
	[ -f "$tm/pre.$wpid" ] && cp "$tm/pre.$wpid" "$out/pre/"
	echo "step $step $name: window after $(echo "$t1 - $t0" | bc) s, pid $wpid" >&2
done
cp "$tm/pre.$xpid" "$tm/pre.$wmpid" "$out/pre/" 2>/dev/null
ls "$tm"/error.* >/dev/null 2>&1 && cat "$tm"/error.* >&2
sort -u "$out/.pids" | xargs -r kill 2>/dev/null
rm -f "$out/.pids"
kill $wmpid $xpid 2>/dev/null
