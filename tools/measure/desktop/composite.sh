#!/bin/bash
# The X server's memory per window with and without a compositing manager
# (docs/desktop-measured.md, "Window pixmaps under a compositor").
# usage: tools/measure/desktop/composite.sh OUT.txt [PROGRAMS...]   (default: three 80x24 and three 160x60 xterms)
# For each mode (plain, then xcompmgr -a: every window redirected to an offscreen pixmap the
# X server holds), starts Xvfb :97 at 1280x1024x24 with openbox, launches the programs one
# after another, and after each window has appeared and 2 s have passed writes Xvfb's RssAnon
# and the window's size (xdotool getwindowgeometry). Needs Xvfb, openbox, xcompmgr, xdotool.
set -u
out=${1:?usage: composite.sh OUT.txt [PROGRAMS...]}
shift
progs=("$@")
[ ${#progs[@]} -gt 0 ] || progs=(xterm xterm xterm "xterm -geometry 160x60" "xterm -geometry 160x60" "xterm -geometry 160x60")
for t in Xvfb openbox xcompmgr xdotool; do
	command -v $t >/dev/null || { echo "composite.sh: $t not found" >&2; exit 1; }
done
rss() { awk '/^RssAnon:/{print $2}' /proc/$1/status; }
: >"$out"
for mode in plain composite; do
	Xvfb :97 -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
	xp=$!
	sleep 2
	export DISPLAY=:97
	openbox >/dev/null 2>&1 &
	wm=$!
	sleep 2
	cm=
	if [ $mode = composite ]; then
		xcompmgr -a >/dev/null 2>&1 &
		cm=$!
		sleep 2
	fi
	echo "$mode start xvfb_rssanon_kb=$(rss $xp)" >>"$out"
	pids=()
	for p in "${progs[@]}"; do
		$p >/dev/null 2>&1 &
		pid=$!
		pids+=($pid)
		w=
		for _ in $(seq 50); do
			w=$(xdotool search --onlyvisible --pid $pid 2>/dev/null | head -1) && [ -n "$w" ] && break
			sleep 0.2
		done
		sleep 2
		geo=$(xdotool getwindowgeometry "$w" 2>/dev/null | awk '/Geometry/{print $2}')
		echo "$mode $p window=$geo xvfb_rssanon_kb=$(rss $xp)" >>"$out"
	done
	kill "${pids[@]}" $cm $wm 2>/dev/null
	sleep 1
	kill $xp 2>/dev/null
	wait 2>/dev/null
done
