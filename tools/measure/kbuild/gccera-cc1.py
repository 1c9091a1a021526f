#!/usr/bin/env python3
"""Each job's cc1 of an old gcc, 64-bit host binary natively and 32-bit host binary under
qemu-i386 (docs/kbuild-measured.md, "gcc 3.3's memory against gcc 12's").

usage: gccera-cc1.py SRCDIR JOBS.csv GCCDIR CC1_32 OUT.csv [EXTRA]
       gccera-cc1.py --cmd SRCDIR GCCDIR SOURCE   (prints cc1's arguments for SOURCE)

SRCDIR: the kernel tree gccera.sh built (its .cmd files hold Kbuild's compile commands);
JOBS.csv: the sources to run (column `source`); GCCDIR: the 64-bit host build's gcc/ (xgcc,
cc1); CC1_32: the same gcc's cc1 built for an i686 host. For each source, Kbuild's command is
given to GCCDIR/xgcc -### for cc1's command line (output to /dev/null, -fmem-report added),
then cc1 runs
  - natively (GCCDIR/cc1): anonymous peak = the largest RssAnon of /proc/PID/status seen,
  - under `qemu-i386 -B BASE` (CC1_32): the guest's memory is the host range
    [BASE, BASE + 4 GiB); anonymous peak = the largest sum of smaps' Anonymous over the
    mappings in that range (the guest's heap, stack, written data; not qemu's own memory),
both sampled every 20 ms, and the last line of -fmem-report ("Total": the collector's pages
at the end) of each. EXTRA (e.g. "--param ggc-min-heapsize=8192 --param ggc-min-expand=34")
is appended to cc1's arguments (the last --param of a name counts). A 32-bit host cc1 is what ran on the i386 machines of 2004; this host's
kernel runs no i386 binaries natively.
"""
import csv, os, re, shlex, subprocess, sys, threading, time

BASE = 0x200000000000
if sys.argv[1] == "--cmd":  # gccera-cc1.py --cmd SRCDIR GCCDIR SOURCE: print cc1's arguments
    src, gccdir, jobs, cc1_32, out, extra = sys.argv[2], sys.argv[3], None, None, None, []
else:
    src, jobs, gccdir, cc1_32, out = sys.argv[1:6]
    extra = shlex.split(sys.argv[6]) if len(sys.argv) > 6 else []


def cc1_argv(source):
    obj = source[:-2] + ".o"
    d, b = os.path.split(obj)
    cmdf = os.path.join(src, d, "." + b + ".cmd")
    line = open(cmdf).readline()
    cmd = line.split(":=", 1)[1].strip()
    argv = shlex.split(cmd)
    # argv[0] is gccera.sh's wrapper; the rest are the driver's arguments
    drv = [os.path.join(gccdir, "xgcc"), "-B" + gccdir + "/"] + argv[1:] + ["-###"]
    p = subprocess.run(drv, cwd=src, capture_output=True, text=True)
    for l in p.stderr.splitlines():
        a = shlex.split(l)
        if a and a[0].endswith("/cc1"):
            a = a[1:a.index("|")] if "|" in a else a[1:]
            i = a.index("-o")
            a[i + 1] = "/dev/null"
            return a + ["-fmem-report"] + extra
    raise SystemExit("no cc1 line for %s: %s" % (source, p.stderr))


def status_anon(pid):
    try:
        for l in open("/proc/%d/status" % pid):
            if l.startswith("RssAnon:"):
                return int(l.split()[1])
    except OSError:
        return None
    return 0


def guest_anon(pid):
    tot, inr = 0, False
    try:
        with open("/proc/%d/smaps" % pid) as f:
            for l in f:
                if "-" in l[:20] and not l[0].isupper():
                    lo = int(l.split("-", 1)[0], 16)
                    inr = BASE <= lo < BASE + (1 << 32)
                elif inr and l.startswith("Anonymous:"):
                    tot += int(l.split()[1])
    except OSError:
        return None
    return tot


def run(argv, probe):
    t0 = time.time()
    p = subprocess.Popen(argv, cwd=src, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    peak = 0
    err = []
    th = threading.Thread(target=lambda: err.append(p.stderr.read()))
    th.start()
    while p.poll() is None:
        v = probe(p.pid)
        if v is not None and p.poll() is None:
            peak = max(peak, v)
        time.sleep(0.02)
    th.join()
    e = err[0] if err else ""
    tot = ""
    for l in e.splitlines():
        m = re.match(r"Total\s+(\d+)([kM]?)\s+(\d+)([kM]?)", l)
        if m:
            tot = int(m.group(1)) * {"": 1, "k": 1024, "M": 1 << 20}[m.group(2)] // 1024
    return peak, tot, int((time.time() - t0) * 1000), p.returncode, e


if jobs is None:
    print(shlex.join(cc1_argv(sys.argv[4])))
    sys.exit(0)
sources = [r["source"] for r in csv.DictReader(open(jobs))]
w = csv.writer(open(out, "w", newline=""))
w.writerow(["source", "anon_peak_kb_64", "gc_end_kb_64", "wall_ms_64", "anon_peak_kb_32",
            "gc_end_kb_32", "wall_ms_32_qemu"])
for s in sources:
    if not s.endswith(".c") or not os.path.exists(os.path.join(src, s[:-2] + ".o")):
        continue
    a = cc1_argv(s)
    n = run([os.path.join(gccdir, "cc1")] + a, status_anon)
    q = run(["qemu-i386", "-B", hex(BASE), cc1_32] + a, guest_anon)
    if n[3] or q[3]:
        print("%s: exit %s %s" % (s, n[3], q[3]), n[4][:600], q[4][:300], file=sys.stderr)
        continue
    w.writerow([s, n[0], n[1], n[2], q[0], q[1], q[2]])
    print(s, n[:3], q[:3], flush=True)
