#!/bin/bash
# remote.sh's `firefox URL` (the second firefox that hands the URL to the running one and
# exits) under touchmap (touchmap.c): the pages of each file mapping it touched, read by
# touchmap itself as it exits (TOUCHMAP_AT_EXIT), three runs; docs/desktop-measured.md.
# usage: dbus-run-session tools/measure/desktop/remote_pages.sh OUTDIR
# Writes OUTDIR/pages.csv (pagemap.py's columns, program firefox, phase "remote", step the
# run: the process that maps libxul), for table.py pages.
set -u
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/tm"
cc=${CC:-gcc}
$cc -O2 -fPIC -shared -nostdlib -ffreestanding -fno-builtin -fno-stack-protector \
	-DTOUCHMAP_AUDIT -o "$out/touchmap_audit.so" "$here/touchmap.c" || exit 1
$cc -O2 -fPIC -shared -fno-stack-protector -o "$out/touchmap.so" "$here/touchmap.c" -ldl || exit 1
. "$here/firefox_session.sh"
echo "step,program,phase,pid,path,perms,pgoff,pages,uw,zapped,anon_kb,present,anon_present,ranges" >"$out/pages.csv"
for t in 1 2 3; do
	rm -f "$out"/tm/*
	TOUCHMAP_AT_EXIT=1 TOUCHMAP_DIR=$out/tm LD_AUDIT=$out/touchmap_audit.so \
		LD_PRELOAD=$out/touchmap.so \
		firefox-esr -profile "$FFPROF" /usr/share/doc/shared-mime-info/shared-mime-info-spec.html \
		>/dev/null 2>&1
	sleep 4
	for f in "$out"/tm/exit.*; do
		grep -q libxul "$f" || continue
		sed "s/^/$t,firefox,remote,/" "$f" >>"$out/pages.csv"
	done
done
firefox_session_end
rm -rf "$out/tm"
