#!/bin/bash
# Checks touchmap (pages.sh) against an exact reference on one program: the pages its
# start-up touches, from its start to 3 s after its first window, as
#   lackey    valgrind --tool=lackey --trace-mem=yes: every instruction fetch and data
#             access, mapped to files through the valgrind process's maps;
#   touchmap  the pages present under touchmap.c (fault-around off);
#   plain     the pages present without it (fault-around on: what smaps Referenced saw).
# usage: dbus-run-session -- tools/measure/desktop/validate.sh OUTDIR [COMMAND]  (xeyes)
# The set from its start to 3 s after its first window: under valgrind VG_SETTLE s (30).
# Writes OUTDIR/{lackey,touchmap,plain}.csv (pagemap.py's columns; lackey's present = pages
# seen) and prints validate.py's comparison.
set -u
out=$(mkdir -p "$1" && cd "$1" && pwd)
cmd=${2:-xeyes}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-gcc}
$cc -O2 -o "$out/lackey_pages" "$here/lackey_pages.c" || exit 1
$cc -O2 -fPIC -shared -nostdlib -ffreestanding -fno-builtin -fno-stack-protector \
	-DTOUCHMAP_AUDIT -o "$out/touchmap_audit.so" "$here/touchmap.c" || exit 1
$cc -O2 -fPIC -shared -fno-stack-protector -o "$out/touchmap.so" "$here/touchmap.c" -ldl || exit 1
mkdir -p "$out/tm"
export DISPLAY=:78
Xvfb :78 -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xpid=$!
sleep 2
openbox >/dev/null 2>&1 &
wmpid=$!
sleep 2
windows() { wmctrl -lp 2>/dev/null | awk '{ print $1 ":" $3 }' | sort; }
# runs "$@" in the background, waits for its first window and $settle s more; sets $pid
launch() {
	local before new settle=${SETTLE:-3}
	before=$(windows)
	"$@" &
	pid=$!
	for _ in $(seq 1 600); do
		new=$(comm -13 <(echo "$before") <(windows) | head -1)
		[ -n "$new" ] && break
		sleep 0.1
	done
	sleep "$settle"
}
header="step,program,phase,pid,path,perms,pgoff,pages,uw,zapped,anon_kb,present,anon_present,ranges"
# the reference
# (valgrind runs the program some 50 times slower: what follows the first window takes
# longer; VG_SETTLE s, default 30, stand for the 3 s)
SETTLE=${VG_SETTLE:-30} launch valgrind --tool=lackey --trace-mem=yes --log-fd=9 $cmd 9> >("$out/lackey_pages" >"$out/lackey.pages")
cp "/proc/$pid/maps" "$out/lackey.maps"
kill "$pid"
wait "$pid" 2>/dev/null
sleep 2
python3 "$here/validate.py" lackey "$out/lackey.maps" "$out/lackey.pages" >"$out/lackey.csv"
# touchmap
launch env LD_AUDIT="$out/touchmap_audit.so" LD_PRELOAD="$out/touchmap.so" TOUCHMAP_DIR="$out/tm" $cmd
{ echo "$header"; python3 "$here/pagemap.py" "$pid" 1 "$cmd" start; } >"$out/touchmap.csv"
kill "$pid"
# plain
launch $cmd
{ echo "$header"; python3 "$here/pagemap.py" "$pid" 1 "$cmd" start; } >"$out/plain.csv"
kill "$pid"
kill $wmpid $xpid 2>/dev/null
python3 "$here/validate.py" compare "$out"
