#!/usr/bin/env python3
"""The gcc driver's and GNU as's anonymous memory per Kbuild compile job, as 32-bit (i386,
under qemu-i386) and as 64-bit (native x86-64) processes, with as's growth over its lifetime.
Called by helpers32.sh (see its header for requirements and the whole procedure).

usage: helpers32.py SRCDIR MAKELOG I386ROOT WORKDIR OUT.csv [DIR_PREFIX ...]

SRCDIR: the configured kernel tree (compile commands run in it); MAKELOG: output of
`make V=1 -Bn ...` (or `make V=1 -k ...`) in SRCDIR: its `gcc ... -c -o X.o X.c` commands are
the jobs, in the log's order; I386ROOT: the i386 .debs of gcc-12 and binutils
extracted with dpkg -x; WORKDIR: scratch (the .s files, shims, outputs); OUT.csv: one row per
process run. DIR_PREFIX: only jobs whose source starts with one of these (default: all).

Per job:
  as:     the job's flags with -Wp,-MD,... and `-c -o X.o` removed and `-fno-pie -S -o J.s`
          added go to the native gcc (host gcc-12 -m32), giving the text cc1 would pipe to as.
          Then `as --32 -o WORKDIR/J.o J.s` runs, 32-bit:
          `qemu-i386 -L I386ROOT -B BASE I386ROOT/usr/bin/i686-linux-gnu-as`, 64-bit: /usr/bin/as.
          -fno-pie: Debian's gcc 12 defaults to PIE, under which 2.6.24's BUG() asm ("i" of a
          string address) is an impossible constraint and cc1 stops; kernels are not PIE and
          the gcc of 2004 had no default PIE.
  driver: the job's exact command line (output file moved to WORKDIR), with `-B WORKDIR/shim/`
          whose `cc1` and `as` are host shell scripts (cc1: sleep 1, writes nothing; as: reads
          stdin to EOF, creates its -o file), so the driver parses its specs, spawns both
          through a pipe and waits about 1 s as it does beside a real cc1. 32-bit:
          `qemu-i386 -L I386ROOT -B BASE I386ROOT/usr/bin/i686-linux-gnu-gcc-12`, 64-bit:
          /usr/bin/gcc-12. The shims' paths are checked in the driver's -### output.
Sampling every INTERVAL s (env HELPERS_INTERVAL, default 0.01) of the process itself (not its
children), only once /proc/PID/exe is the measured program (not the forked sampler):
  32-bit: sum of smaps `Anonymous:` over the mappings inside the guest window
          [BASE, BASE + 4 GiB) (the guest's heap, stack, mmaps, written data pages of the binary
          and its libraries; not qemu's own heap, translation cache or libraries),
  64-bit: `Anonymous:` of /proc/PID/smaps_rollup (the same quantity for the whole process).
64-bit as lives about 10 ms natively, too short for the sampling: it runs a second time under
`strace -e inject=exit_group:delay_enter=300000` (its exit_group held 300 ms, memory intact)
and that run's last sample is its anonymous memory at exit; its row takes runtime and the
10 %..90 % values from the plain run, anon_at_100pct = at exit, anon_peak_kB = the larger of
both runs' peaks. WORKDIR/as64-exit.csv: the plain run's peak and last value against at exit.
Row: job, tool, bits, runtime_ms (wall, the process alone, under qemu for 32-bit),
anon_peak_kB (largest sample), anon_at_10pct..anon_at_100pct (the last sample taken at or before
10 %, 20 %, ... 100 % of the runtime; empty if none).
"""
import csv, os, re, shlex, subprocess, sys, time

BASE = 0x200000000000
INTERVAL = float(os.environ.get("HELPERS_INTERVAL", "0.001"))
src, makelog, root, work, out = sys.argv[1:6]
prefixes = sys.argv[6:]
QEMU = ["qemu-i386", "-L", root, "-B", hex(BASE)]
AS32 = os.path.join(root, "usr/bin/i686-linux-gnu-as")
GCC32 = os.path.join(root, "usr/bin/i686-linux-gnu-gcc-12")
AS64, GCC64 = "/usr/bin/as", "/usr/bin/gcc-12"
shim = os.path.join(work, "shim")
os.makedirs(shim, exist_ok=True)
os.makedirs(os.path.join(work, "s"), exist_ok=True)
os.makedirs(os.path.join(work, "o"), exist_ok=True)
with open(os.path.join(shim, "cc1"), "w") as f:
    f.write("#!/bin/sh\n# stands in for cc1: lives 1 s, writes no assembler\nsleep 1\n")
with open(os.path.join(shim, "as"), "w") as f:
    f.write('#!/bin/sh\n# stands in for as: reads its input to EOF, creates its -o file\n'
            'o=; while [ $# -gt 0 ]; do [ "$1" = -o ] && o=$2; shift; done\n'
            'cat >/dev/null\n[ -n "$o" ] && : > "$o"\nexit 0\n')
for n in ("cc1", "as"):
    os.chmod(os.path.join(shim, n), 0o755)


def jobs_from_log():
    seen, res = set(), []
    for l in open(makelog, errors="replace"):
        # `make V=1` prints the command itself, `make -Bn` a line `set -e; echo '  CMD'; CMD; ...`
        m = re.search(r"(?:^\s*|echo '\s*)(gcc .*? -c -o \S+\.o (\S+\.c))(?:'|\s*$)", l)
        if not m:
            continue
        l, s = m.group(1).replace("'\\''", "'"), m.group(2)
        if s in seen or (prefixes and not any(s.startswith(p) for p in prefixes)):
            continue
        seen.add(s)
        res.append((s, shlex.split(l)))
    return res


def guest_anon(pid):
    tot, inr = 0, False
    with open("/proc/%d/smaps" % pid) as f:
        for l in f:
            if not l[0].isupper():
                lo = int(l.split("-", 1)[0], 16)
                inr = BASE <= lo < BASE + (1 << 32)
            elif inr and l.startswith("Anonymous:"):
                tot += int(l.split()[1])
    return tot


def rollup_anon(pid):
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for l in f:
            if l.startswith("Anonymous:"):
                return int(l.split()[1])
    return 0


def measure(argv, bits, cwd, traced=None):
    """Run argv, sample its anonymous memory; (runtime_ms, peak, [10 values], rc, stderr,
    samples). traced: argv[0] is strace and the sampled process is its child running `traced`."""
    exe = os.path.realpath(traced or ("/usr/bin/qemu-i386" if bits == 32 else argv[0]))
    probe = guest_anon if bits == 32 else rollup_anon
    errf = open(os.path.join(work, "stderr.txt"), "w+")
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=errf)
    samples = []
    pid = None if traced else p.pid
    while p.poll() is None:
        try:
            if traced:  # strace may fork a helper first: the child that runs `traced`
                pid = None
                for c in open("/proc/%d/task/%d/children" % (p.pid, p.pid)).read().split():
                    if os.readlink("/proc/%s/exe" % c) == exe:
                        pid = int(c)
            if pid and os.readlink("/proc/%d/exe" % pid) == exe:
                t = time.monotonic() - t0
                v = probe(pid)
                if p.poll() is None and os.path.exists("/proc/%d/exe" % pid):
                    samples.append((t, v))
        except (OSError, ValueError):
            pass
        time.sleep(INTERVAL)
    T = time.monotonic() - t0
    errf.seek(0)
    err = errf.read()
    errf.close()
    peak = max((v for _, v in samples), default="")
    at = []
    for k in range(1, 11):
        lim = T * k / 10
        v = [s for s in samples if s[0] <= lim]
        at.append(v[-1][1] if v else "")
    return int(T * 1000), peak, at, p.returncode, err, len(samples)


def driver_argv(argv, gcc):
    a = list(argv[1:])
    i = a.index("-o")
    a[i + 1] = os.path.join(work, "o", "drv.o")
    return [gcc, "-B" + shim + "/"] + a


def check_shims(argv, bits):
    d = driver_argv(argv, GCC32 if bits == 32 else GCC64)
    cmd = (QEMU if bits == 32 else []) + d + ["-###"]
    e = subprocess.run(cmd, cwd=src, capture_output=True, text=True).stderr
    progs = [shlex.split(l)[0] for l in e.splitlines() if l.startswith(" /")]
    return progs


exitw = csv.writer(open(os.path.join(work, "as64-exit.csv"), "w", newline="", buffering=1))
exitw.writerow(["job", "sampled_peak_kB", "sampled_last_kB", "at_exit_kB", "samples",
                "samples_traced"])
w = csv.writer(open(out, "w", newline="", buffering=1))
w.writerow(["job", "tool", "bits", "runtime_ms", "anon_peak_kB"] +
           ["anon_at_%dpct" % (10 * k) for k in range(1, 11)])
jobs = jobs_from_log()
print("%d jobs" % len(jobs), file=sys.stderr)
first = True
for s, argv in jobs:
    if first:
        for b in (32, 64):
            print("driver %d -### programs: %s" % (b, check_shims(argv, b)), file=sys.stderr)
        first = False
    # driver
    for b in (32, 64):
        d = driver_argv(argv, GCC32 if b == 32 else GCC64)
        r = measure((QEMU if b == 32 else []) + d, b, src)
        if r[3]:
            print("%s driver %d: exit %s %s" % (s, b, r[3], r[4][:400]), file=sys.stderr)
            continue
        w.writerow([s, "driver", b, r[0], r[1]] + r[2])
        print(s, "driver", b, r[0], r[1], r[5], "samples", file=sys.stderr, flush=True)
    # as: the job's assembler text
    sfile = os.path.join(work, "s", s.replace("/", "_")[:-2] + ".s")
    a = [x for x in argv[1:] if not x.startswith("-Wp,-MD")]
    i = a.index("-c")
    del a[i:i + 3]  # -c -o X.o
    a = ["gcc-12"] + a[:-1] + ["-fno-pie", "-S", "-o", sfile, a[-1]]
    p = subprocess.run(a, cwd=src, capture_output=True, text=True)
    if p.returncode:
        print("%s: gcc -S failed: %s" % (s, p.stderr[-300:]), file=sys.stderr)
        continue
    for b in (32, 64):
        cmd = (QEMU + [AS32] if b == 32 else [AS64]) + [
            "--32", "-o", os.path.join(work, "o", "as.o"), sfile]
        r = measure(cmd, b, src)
        if r[3]:
            print("%s as %d: exit %s %s" % (s, b, r[3], r[4][:400]), file=sys.stderr)
            continue
        if b == 64:
            # native as lives ~10 ms, a few samples: run it again under strace with its
            # exit_group delayed 300 ms, so that its memory at exit is sampled (ptrace adds
            # nothing to the tracee's memory); peak = the larger, at_100pct = that at exit.
            t = measure(["strace", "-qq", "-o", "/dev/null", "-e", "trace=exit_group", "-e",
                         "inject=exit_group:delay_enter=300000"] + cmd, 64, src, traced=AS64)
            exitw.writerow([s, r[1], r[2][-1], t[2][-1], r[5], t[5]])
            r = (r[0], max([x for x in (r[1], t[1]) if x != ""], default=""),
                 r[2][:9] + [t[2][-1]]) + r[3:]
        w.writerow([s, "as", b, r[0], r[1]] + r[2])

        print(s, "as", b, r[0], r[1], r[5], "samples", os.path.getsize(sfile), "bytes .s",
              file=sys.stderr, flush=True)
