#!/bin/bash
# Measures `firefox URL` with firefox already running (the step that ends every round of Wu
# Fengguang's script, benchmarks.md §5): the second firefox finds the running one, hands it
# the URL and exits. Its mappings are read as it exits (smaps_at_exit.c, an LD_PRELOAD
# helper: the process lives under a second), three times; docs/desktop-measured.md.
# usage: dbus-run-session tools/measure/desktop/remote.sh OUTDIR
# Writes OUTDIR/remote.csv (smaps.py rows, phase "remote", steps 1-3: the remote firefox, the
# process that maps libxul) and OUTDIR/remote-time.txt (/usr/bin/time of each).
set -u
out=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/dump"
gcc -O2 -shared -fPIC -o "$out/smaps_at_exit.so" "$here/smaps_at_exit.c" -ldl
. "$here/firefox_session.sh"
echo "step,program,phase,pid,path,perms,size_kb,rss_kb,ref_kb,anon_kb,swap_kb" >"$out/remote.csv"
: >"$out/remote-time.txt"
for t in 1 2 3; do
	rm -f "$out"/dump/smaps.*
	SMAPS_AT_EXIT_DIR=$out/dump LD_PRELOAD=$out/smaps_at_exit.so \
		/usr/bin/time -f "run $t: %e s elapsed, %U s user, %S s sys, %M KiB max RSS, %R minor faults" \
		-a -o "$out/remote-time.txt" \
		firefox-esr -profile "$FFPROF" /usr/share/doc/shared-mime-info/shared-mime-info-spec.html \
		>/dev/null 2>&1
	sleep 4
	for f in "$out"/dump/smaps.*; do
		grep -q libxul "$f" || continue
		python3 "$here/smaps.py" "$f" $t firefox remote >>"$out/remote.csv"
	done
done
firefox_session_end
rm -rf "$out/dump" "$out/smaps_at_exit.so"
