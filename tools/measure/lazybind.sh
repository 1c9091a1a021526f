#!/bin/sh
# Builds tools/measure/lazybind.c the 2008 way (not PIE, lazy binding, no RELRO) and the
# way Debian builds rt-tests today (PIE, -z now, RELRO) and runs both; the difference in
# the program's writable mapping is the resolver's GOT writes in each forked child.
# Raw output: data/measured/lazybind.txt.
set -e
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
src=$(dirname "$0")/lazybind.c
echo "# uname $(uname -srm); $(cc --version | head -1); $(ldd --version | head -1)"
cc -O2 -o "$d/lazy-2008" "$src" -no-pie -Wl,-z,lazy -Wl,-z,norelro
cc -O2 -o "$d/now-relro-pie" "$src" -pie -fPIE -Wl,-z,now -Wl,-z,relro
for b in lazy-2008 now-relro-pie; do
	echo "# $b: $(readelf -d "$d/$b" | grep -c BIND_NOW || true) BIND_NOW flags"
	(cd "$d" && "./$b")
done
