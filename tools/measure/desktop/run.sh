#!/bin/bash
# Measures the programs of Wu Fengguang's desktop test (benchmarks.md §5) under Xvfb with
# openbox, one after another in the thread's order, nothing closed (docs/desktop-measured.md).
# usage: tools/measure/desktop/run.sh OUTDIR
# Writes OUTDIR/programs.csv (one row per launch: seconds and CPU to its first window, bytes
# read) and OUTDIR/mappings.csv (smaps per mapping: at start-up, and after one window switch
# to the program with its referenced bits cleared first; the X server's and the window
# manager's switch rows too).
set -u
out=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
: >"$out/.pids"
export DISPLAY=:77 FFPROF PATH=$PATH:/usr/games
FFPROF=$(mktemp -d)
Xvfb :77 -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xpid=$!
echo $xpid >>"$out/.pids"
sleep 2
# services that D-Bus starts (gnome-terminal-server, gvfs) need the display too
dbus-update-activation-environment DISPLAY >/dev/null 2>&1
openbox >/dev/null 2>&1 &
wmpid=$!
echo $wmpid >>"$out/.pids"
sleep 2
prog_csv=$out/programs.csv
map_csv=$out/mappings.csv
echo "step,program,command,pid,window_s,cpu_ms_to_window,rchar,read_bytes,cpu_ms_settled" >"$prog_csv"
echo "step,program,phase,pid,path,perms,size_kb,rss_kb,ref_kb,anon_kb,swap_kb" >"$map_csv"
python3 "$here/smaps.py" $xpid 0 Xvfb start >>"$map_csv"
python3 "$here/smaps.py" $wmpid 0 openbox start >>"$map_csv"
cpu_ms() { # utime + stime of a pid, in ms
	awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) * 1000 / hz }' "/proc/$1/stat" 2>/dev/null || echo 0
}
now() { date +%s.%N; }
windows() { wmctrl -lp 2>/dev/null | awk '{ print $1 ":" $3 }' | sort; }
step=0
prev_win=""
grep -v '^#' "$here/programs.txt" | while IFS='|' read -r name cmd; do
	step=$((step + 1))
	[ "$cmd" = - ] && continue
	before=$(windows)
	t0=$(now)
	# the subshell execs the command: $! is the program's own pid
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
	echo "$step,$name,$cmd,$wpid,$(echo "$t1 - $t0" | bc),$cpu,$io,$(cpu_ms "$wpid")" >>"$prog_csv"
	python3 "$here/smaps.py" "$wpid" $step "$name" start >>"$map_csv"
	if [ -n "$win" ]; then
		# one window switch to it: away first, clear the referenced bits, then activate
		[ -n "$prev_win" ] && wmctrl -ia "$prev_win" && sleep 1
		for p in "$wpid" $xpid $wmpid; do echo 1 >"/proc/$p/clear_refs"; done
		c0=$(cpu_ms "$wpid")
		wmctrl -ia "$win"
		sleep 1.5
		echo "$step,$name,switch-cpu,$wpid,-,-,$(echo "$(cpu_ms "$wpid") - $c0" | bc),0,0,0,0" >>"$map_csv"
		python3 "$here/smaps.py" "$wpid" $step "$name" switch >>"$map_csv"
		python3 "$here/smaps.py" $xpid $step Xvfb switch >>"$map_csv"
		python3 "$here/smaps.py" $wmpid $step openbox switch >>"$map_csv"
		prev_win=$win
	fi
	echo "step $step $name: window after $(echo "$t1 - $t0" | bc) s, pid $wpid" >&2
done
python3 "$here/smaps.py" $xpid 99 Xvfb end >>"$map_csv"
python3 "$here/smaps.py" $wmpid 99 openbox end >>"$map_csv"
# firefox tabs: anon growth per `firefox URL` (three more tabs)
ff=$(awk -F, '$2 == "firefox" { print $4 }' "$prog_csv")
if [ -n "$ff" ]; then
	for t in 1 2 3; do
		a0=$(awk '/^Anonymous/{s+=$2} END{print s}' "/proc/$ff/smaps")
		firefox-esr -profile "$FFPROF" /usr/share/doc/shared-mime-info/shared-mime-info-spec.html >/dev/null 2>&1
		sleep 4
		a1=$(awk '/^Anonymous/{s+=$2} END{print s}' "/proc/$ff/smaps")
		echo "99,firefox,newtab-anon-kb,$ff,-,-,$((a1 - a0)),0,0,0,0" >>"$map_csv"
	done
fi
# end what this script started, by pid
sort -u "$out/.pids" | xargs -r kill 2>/dev/null
rm -f "$out/.pids"
kill $wmpid $xpid 2>/dev/null
