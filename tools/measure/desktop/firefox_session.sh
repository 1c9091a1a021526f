# Sourced by remote.sh and remote_pages.sh: an X session (Xvfb on :78, openbox) with
# firefox-esr already running on a fresh profile and showing a window, so that a second
# `firefox URL` finds it (benchmarks.md §5). Sets DISPLAY, FFPROF, xpid, wmpid and ffpid;
# firefox_session_end stops them and removes the profile.
export DISPLAY=:78
FFPROF=$(mktemp -d)
Xvfb :78 -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xpid=$!
sleep 2
dbus-update-activation-environment DISPLAY >/dev/null 2>&1
openbox >/dev/null 2>&1 &
wmpid=$!
sleep 2
firefox-esr -profile "$FFPROF" about:blank >/dev/null 2>&1 &
ffpid=$!
for _ in $(seq 1 300); do
	wmctrl -lp 2>/dev/null | grep -q . && break
	sleep 0.1
done
sleep 5

firefox_session_end() {
	kill $ffpid
	sleep 2
	kill $wmpid $xpid
	rm -rf "$FFPROF"
}
