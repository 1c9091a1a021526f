#!/bin/sh
# shell32.sh: the anonymous memory of the shell make runs for each Kbuild compile job
# (`/bin/sh -c 'set -e; echo ...; gcc ...; scripts/basic/fixdep ... > mm/.x.o.tmp; rm -f
# mm/.x.o.d; mv -f mm/.x.o.tmp mm/.x.o.cmd'`) over its life -- while it waits for gcc and
# while it runs fixdep, rm and mv -- for bash 5.2 and dash 0.5.12 (Debian 12), each as a 32-bit
# (i386) and a 64-bit (x86-64) process. The shell's children are not counted (the gcc driver
# and as: helpers32.sh).
#
# usage: shell32.sh SRCDIR OUT.csv [WORKDIR [DIR_PREFIX ...]]
#   SRCDIR   a kernel tree that `make ARCH=i386 defconfig` configured, with scripts/basic/fixdep
#            built (the 2.6.24 tree of helpers32.sh). The measurement only reads it, but the
#            `make -B -n` below (as in helpers32.sh) does change it: make remakes the makefiles it
#            includes despite -n, and -B makes them all out of date, so include/config/auto.conf,
#            include/linux/autoconf.h, scripts/basic/{fixdep,docproc} and scripts/kconfig/conf are
#            rebuilt for real (same content, new mtimes: built objects look out of date)
#   OUT.csv  one row per shell run: job,shell(bash|dash),bits(32|64),runtime_ms,anon_wait_kB
#            (median while gcc runs),anon_peak_kB,anon_exit_kB, then anon_first_kB,
#            anon_post_max_kB,samples,wait_samples,cmd_bytes,exec_last,rc (shell32.py)
#   WORKDIR  scratch, default /tmp/shell32 (the scratch tree, gcc stand-in, .d files, make log,
#            recorded environment, fixdep64.csv: fixdep's own anonymous memory per job)
#   DIR_PREFIX  only jobs whose source starts so; default mm/
#
# How (details in shell32.py's docstring):
#  - `make ARCH=i386 CC='gcc -m32' V=1 -k -B -n DIRS` in SRCDIR prints each job's whole rule
#    command (the string make passes to `/bin/sh -c`) without building; a `make` wrapper first
#    in PATH records the environment each sub-make gets (the shell gets the same exported
#    variables from the sub-make `make -f scripts/Makefile.build obj=DIR`);
#  - each command string runs unchanged as `sh -c STRING` in a scratch tree (include/ and arch/
#    symlinked to SRCDIR, copies of the sources and of fixdep), where `gcc` is found in PATH as a
#    stand-in (host sh script, a separate process: sleeps 1 s, then writes the job's real .d
#    made beforehand with gcc -E, and an empty .o); the real fixdep, rm and mv then run;
#  - 32-bit: the i386 bash/dash run under `qemu-i386 -L I386ROOT -B 0x200000000000 -0 /bin/sh`
#    (this host kernel has no IA32 emulation); anonymous memory = sum of smaps `Anonymous:`
#    over the mappings inside the guest's 4 GiB window at that base (excludes qemu's own
#    memory; helpers32.py's guest_anon); 64-bit: host /bin/bash, /bin/dash through a symlink
#    named sh, smaps_rollup `Anonymous:`;
#  - sampling every 1 ms (SHELL32_INTERVAL=seconds to change), of the shell process only; each
#    run is repeated under strace with the shell's exit_group (or its final execve: bash execs
#    the last `mv` instead of forking it) held 300 ms, which samples its memory at exit.
#
# Requirements (root, Debian 12 amd64): qemu-user, libc6:i386 (after
# `dpkg --add-architecture i386 && apt-get update`), gcc-12 with -m32 support (gcc-multilib; as
# for helpers32.sh), strace, python3, the host's bash and dash. The i386 shells are not installed,
# only extracted (`apt-get download` + `dpkg -x`) into I386ROOT = /tmp/helpers32/i386root (the
# root helpers32.sh made; env I386ROOT to change): bash:i386 dash:i386 libtinfo6:i386 (bash's
# NEEDED: libtinfo.so.6, libc.so.6; dash's: libc.so.6). Run it with `nice` beside other work;
# the runtimes are wall times.
set -e
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$1" && pwd); out=$2; work=${3:-/tmp/shell32}
[ $# -ge 4 ] && { shift 3; dirs="$*"; } || dirs="mm/"
mkdir -p "$work"; work=$(cd "$work" && pwd)
root=${I386ROOT:-/tmp/helpers32/i386root}
command -v qemu-i386 >/dev/null || { echo "need qemu-user (apt-get install qemu-user)" >&2; exit 1; }
command -v strace >/dev/null || { echo "need strace" >&2; exit 1; }
[ -e /lib/ld-linux.so.2 ] || { echo "need libc6:i386" >&2; exit 1; }
[ -x "$src/scripts/basic/fixdep" ] || { echo "need $src/scripts/basic/fixdep built" >&2; exit 1; }
if [ ! -x "$root/bin/bash" ] || [ ! -x "$root/bin/dash" ] || \
   [ ! -e "$root/lib/i386-linux-gnu/libtinfo.so.6" ]; then
	mkdir -p "$work/debs" "$root"
	(cd "$work/debs" && apt-get download bash:i386 dash:i386 libtinfo6:i386)
	for f in "$work"/debs/*.deb; do dpkg -x "$f" "$root"; done
fi
readelf -d "$root/bin/bash" | grep NEEDED; readelf -d "$root/bin/dash" | grep NEEDED
qemu-i386 -L "$root" "$root/bin/bash" --version | head -1
echo "dash $(dpkg-deb -f "$work"/debs/dash_*_i386.deb Version 2>/dev/null) (i386)"
/bin/bash --version | head -1; dpkg-query -W dash bash; qemu-i386 --version | head -1
# the command strings, and the environment the sub-makes get (make wrapper first in PATH;
# invoked as "make" so that $(MAKE) is found through PATH again)
mkdir -p "$work/envbin" "$work/env"; rm -f "$work"/env/*
cat >"$work/envbin/make" <<EOF
#!/bin/bash
# records the environment each (sub-)make gets, then runs make as "make"
n=\$(ls "$work/env" | wc -l)
{ printf '%s\0' "\$*"; env -0; } > "$work/env/\$n"
exec -a make /usr/bin/make "\$@"
EOF
chmod +x "$work/envbin/make"
[ -f "$src/.config" ] || (cd "$src" && nice make ARCH=i386 defconfig >/dev/null)
(cd "$src" && env -i PATH="$work/envbin:/usr/local/bin:/usr/bin:/bin" HOME=/root TERM=xterm \
	LANG=C SHELL=/bin/sh USER=root LOGNAME=root \
	nice make ARCH=i386 CC='gcc -m32' V=1 -k -B -n $dirs >"$work/make.log" 2>&1) || true
# the environment of the sub-make of the first directory
d1=$(echo $dirs | cut -d' ' -f1); d1=${d1%/}
envf=$(grep -lz "Makefile.build obj=$d1\$" "$work"/env/* | head -1)
[ -n "$envf" ] || { echo "no sub-make for obj=$d1 recorded" >&2; exit 1; }
nice /usr/bin/python3 "$here/shell32.py" "$src" "$work/make.log" "$envf" \
	"$root" "$work" "$out" $dirs
