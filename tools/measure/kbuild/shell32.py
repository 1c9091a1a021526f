#!/usr/bin/env python3
"""The anonymous memory of the shell that make runs for a Kbuild compile job (`/bin/sh -c
'set -e; echo ...; gcc ...; scripts/basic/fixdep ... > mm/.x.o.tmp; rm -f ...; mv -f ...'`),
over its life: while it parses the command string, while it waits for gcc, while it runs
fixdep, rm and mv. bash 5.2 and dash 0.5.12 (Debian 12), as 32-bit (i386, under qemu-i386) and
as 64-bit (native x86-64) processes. Called by shell32.sh (see its header for requirements and
the whole procedure).

usage: shell32.py SRCDIR MAKELOG ENVFILE I386ROOT WORKDIR OUT.csv [DIR_PREFIX ...]

SRCDIR: the configured kernel tree (only read: the .d files are made from it with gcc -E);
MAKELOG: output of `make V=1 -k -B -n ...` in SRCDIR: its `set -e; echo '...'; gcc ... -c -o X.o
X.c; scripts/basic/fixdep ...; rm -f ...; mv -f ...` lines are the jobs' command strings, in
the log's order; ENVFILE: the environment (NUL-separated, first record = the make arguments)
that the sub-make `make -f scripts/Makefile.build obj=mm` got, recorded by shell32.sh's make
wrapper; I386ROOT: the i386 .debs (bash, dash, libtinfo6) extracted with dpkg -x; WORKDIR:
scratch; OUT.csv: one row per shell run. DIR_PREFIX: only jobs whose source starts so.

Per job and shell (bash, dash) and bits (32, 64):
  the shell runs the job's command string byte for byte as make gives it (`sh -c STRING`,
  argv[0] "sh" as when /bin/sh is a link to it; bash then runs in POSIX mode), with cwd a
  scratch tree WORKDIR/tree: include/ and arch/ are symlinks into SRCDIR (fixdep reads the
  headers), mm/ holds copies of the sources, scripts/basic/fixdep is a copy of the tree's
  fixdep (a 64-bit host program). `gcc` is found through PATH in WORKDIR/bin: a stand-in
  host /bin/sh script (a separate process, so the shell forks and waits as beside the real
  gcc) that lives 1 s, then writes the job's real dependency file (-Wp,-MD,...; made
  beforehand by the host gcc -m32 -E with the job's flags) and an empty .o. fixdep then turns
  the real .d into .x.o.tmp, rm and mv run for real in the scratch mm/.
  Environment: ENVFILE's (Kbuild's exported variables, ~3 KB) with MAKELEVEL=2, the -n/-k/-B
  flags taken out of MAKEFLAGS/MFLAGS, PATH with WORKDIR/bin first, PWD = the scratch tree.
  32-bit: `qemu-i386 -L I386ROOT -B BASE -0 sh I386ROOT/bin/{bash,dash} -c STRING`, the
  children (gcc stand-in, fixdep, rm, mv) are host programs; 64-bit: /bin/{bash,dash}.
Sampling every INTERVAL s (env SHELL32_INTERVAL, default 0.001) of the shell process only,
while /proc/PID/exe is the shell (qemu-i386 for 32-bit): 32-bit the sum of smaps `Anonymous:`
in the guest's 4 GiB window at BASE, 64-bit smaps_rollup `Anonymous:` -- helpers32.py's
guest_anon() and rollup_anon(), loaded from its source (it is a script, importing it would run
it). A sample is in the gcc phase when a child of the shell has the stand-in on its command line.
Each run is repeated under `strace -e inject=exit_group,execve:delay_enter=300000` (the shell
only, not its children; the first execve, strace starting the shell, is not delayed): its
exit_group -- or, when the shell execs the last command (bash does for `mv` at the end
instead of forking), that execve -- is held 300 ms, so the shell's last memory is sampled.
Row: job, shell, bits, runtime_ms (wall, the plain run, until the pid exits, includes the
exec'd mv), anon_wait_kB (median of the gcc-phase samples), anon_peak_kB (largest sample of
both runs), anon_exit_kB (last sample of the traced run, i.e. at exit_group or at the final
execve), then extra columns: anon_first_kB (first non-zero sample), anon_post_max_kB (largest sample
after the gcc phase, both runs), samples, wait_samples, cmd_bytes (the command string),
exec_last (1 when the shell ended by execve instead of exit_group), rc.
WORKDIR/fixdep64.csv: fixdep's own anonymous memory per job (native, run alone on the job's
.d under strace with its exit_group held 300 ms): job, runtime_ms, anon_peak_kB, anon_exit_kB.
"""
import ast, csv, os, re, shlex, shutil, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))


def load_from_helpers32(names):
    """The named top-level functions and constants of helpers32.py, without running its body."""
    path = os.path.join(here, "helpers32.py")
    tree = ast.parse(open(path).read(), path)
    keep = [n for n in tree.body
            if (isinstance(n, ast.FunctionDef) and n.name in names) or
            (isinstance(n, ast.Assign) and any(getattr(t, "id", None) in names
                                                for t in n.targets))]
    ns = {"os": os}
    exec(compile(ast.Module(body=keep, type_ignores=[]), path, "exec"), ns)
    return ns


h32 = load_from_helpers32({"BASE", "guest_anon", "rollup_anon"})
BASE, guest_anon, rollup_anon = h32["BASE"], h32["guest_anon"], h32["rollup_anon"]
INTERVAL = float(os.environ.get("SHELL32_INTERVAL", "0.001"))
DELAY_US = 300000
src, makelog, envfile, root, work, out = sys.argv[1:7]
prefixes = sys.argv[7:]
src, work = os.path.abspath(src), os.path.abspath(work)
QEMU = ["qemu-i386", "-L", root, "-B", hex(BASE)]
SHELLS = {("bash", 32): os.path.join(root, "bin/bash"), ("dash", 32): os.path.join(root, "bin/dash"),
          ("bash", 64): "/bin/bash", ("dash", 64): "/bin/dash"}
tree = os.path.join(work, "tree")
bindir = os.path.join(work, "bin")
ddir = os.path.join(work, "d")
STANDIN = os.path.join(bindir, "gcc")


def setup():
    for d in (bindir, ddir, os.path.join(tree, "mm"), os.path.join(tree, "scripts/basic")):
        os.makedirs(d, exist_ok=True)
    for d in ("include", "arch"):
        l = os.path.join(tree, d)
        if not os.path.islink(l):
            os.symlink(os.path.join(src, d), l)
    shutil.copy2(os.path.join(src, "scripts/basic/fixdep"), os.path.join(tree, "scripts/basic"))
    with open(STANDIN, "w") as f:
        f.write("#!/bin/sh\n# stands in for gcc: lives 1 s, then writes the job's real dependency"
                " file (-Wp,-MD,F; saved in\n# %s) and an empty -o file\n"
                "d=; o=; for a; do case $a in -Wp,-MD,*) d=${a#-Wp,-MD,};; esac; done\n"
                'while [ $# -gt 0 ]; do [ "$1" = -o ] && o=$2; shift; done\n'
                "sleep 1\n"
                '[ -n "$d" ] && cp "%s/${d##*/}" "$d"\n'
                '[ -n "$o" ] && : > "$o"\nexit 0\n' % (ddir, ddir))
    os.chmod(STANDIN, 0o755)
    for sh in ("bash", "dash"):
        l = os.path.join(work, "sh64", sh, "sh")
        os.makedirs(os.path.dirname(l), exist_ok=True)
        if not os.path.islink(l):
            os.symlink(SHELLS[(sh, 64)], l)


def jobs_from_log():
    seen, res = set(), []
    for l in open(makelog, errors="replace"):
        l = l.rstrip("\n")
        if not l.startswith("set -e;") or "scripts/basic/fixdep" not in l:
            continue
        m = re.search(r"; (gcc .*? -c -o (\S+\.o) (\S+\.c));", l)
        if not m:
            continue
        s = m.group(3)
        if s in seen or (prefixes and not any(s.startswith(p) for p in prefixes)):
            continue
        seen.add(s)
        res.append((s, m.group(2), l, shlex.split(m.group(1))))
    return res


copied = set()


def make_depfile(s, obj, argv):
    """The job's real .d: its gcc flags with -E -o /dev/null and -MD into WORKDIR/d."""
    a = list(argv)
    i = a.index("-c")
    del a[i:i + 3]  # -c -o X.o
    dname = None
    for k, x in enumerate(a):
        if x.startswith("-Wp,-MD,"):
            dname = os.path.basename(x[len("-Wp,-MD,"):])
            a[k] = "-Wp,-MD," + os.path.join(ddir, dname)
    a = a[:-1] + ["-E", "-o", "/dev/null", a[-1]]
    p = subprocess.run(a, cwd=src, capture_output=True, text=True)
    if p.returncode:
        print("%s: gcc -E failed: %s" % (s, p.stderr[-300:]), file=sys.stderr)
        return None
    f = os.path.join(ddir, dname)
    t = open(f).read()
    open(f, "w").write(re.sub(r"^[^:]*:", obj + ":", t, count=1))  # cpp named it x.o
    p = os.path.dirname(s)
    if p not in copied:  # the directory's sources and local headers (fixdep reads them)
        copied.add(p)
        os.makedirs(os.path.join(tree, p), exist_ok=True)
        for n in os.listdir(os.path.join(src, p)):
            if n.endswith((".c", ".h")):
                shutil.copy2(os.path.join(src, p, n), os.path.join(tree, p))
    return dname


def shell_env():
    recs = open(envfile, "rb").read().split(b"\0")[1:]
    env = {}
    for r in recs:
        if b"=" in r:
            k, v = r.decode(errors="replace").split("=", 1)
            env[k] = v
    env.pop("_", None)
    env["MAKELEVEL"] = "2"
    for k in ("MAKEFLAGS", "MFLAGS"):
        if k in env:
            w = env[k].split(" ", 1)
            flags = w[0].lstrip("-").replace("n", "").replace("k", "").replace("B", "")
            env[k] = ("-" if k == "MFLAGS" else "") + flags + (" " + w[1] if len(w) > 1 else "")
    env["PATH"] = bindir + ":/usr/local/bin:/usr/bin:/bin"
    env["PWD"] = tree
    return env


def children_have_standin(pid):
    for c in open("/proc/%d/task/%d/children" % (pid, pid)).read().split():
        try:
            if STANDIN.encode() in open("/proc/%s/cmdline" % c, "rb").read():
                return True
        except OSError:
            pass
    return False


def measure(argv, bits, shexe, traced=False):
    """Run argv (the shell, or strace running it), sample the shell. Returns dict."""
    exe = os.path.realpath("/usr/bin/qemu-i386" if bits == 32 else shexe)
    probe = guest_anon if bits == 32 else rollup_anon
    if traced:
        argv = ["strace", "-qq", "-o", "/dev/null", "-e", "trace=exit_group,execve,execveat",
                "-e", "inject=exit_group:delay_enter=%d" % DELAY_US,
                "-e", "inject=execve,execveat:delay_enter=%d:when=2+" % DELAY_US] + argv
    errf = open(os.path.join(work, "stderr.txt"), "w+")
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=tree, env=ENV, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=errf)
    samples = []  # (t, kB, in_gcc_phase)
    pid = None if traced else p.pid
    gone = False  # the shell pid is no longer the shell (exec'd the last command)
    while p.poll() is None:
        try:
            if traced and pid is None:
                for c in open("/proc/%d/task/%d/children" % (p.pid, p.pid)).read().split():
                    if os.readlink("/proc/%s/exe" % c) == exe:
                        pid = int(c)
            if pid and not gone:
                if os.readlink("/proc/%d/exe" % pid) == exe:
                    t = time.monotonic() - t0
                    g = children_have_standin(pid)
                    v = probe(pid)
                    if os.readlink("/proc/%d/exe" % pid) == exe:
                        samples.append((t, v, g))
                elif samples:
                    gone = True
        except (OSError, ValueError):
            pass
        time.sleep(INTERVAL)
    T = time.monotonic() - t0
    errf.seek(0)
    err = errf.read()
    errf.close()
    return {"T": T, "samples": samples, "rc": p.returncode, "err": err, "exec_last": gone}


def clean(obj):
    d, b = os.path.split(obj)
    for n in (b, "." + b + ".d", "." + b + ".tmp", "." + b + ".cmd"):
        try:
            os.unlink(os.path.join(tree, d, n))
        except FileNotFoundError:
            pass


def fixdep_anon(s, obj, dname, cmd):
    """fixdep alone, native, on the job's .d: its anonymous peak and at exit (exit_group held)."""
    d = os.path.join(tree, os.path.dirname(obj), dname)
    shutil.copy2(os.path.join(ddir, dname), d)
    fx = os.path.realpath(os.path.join(tree, "scripts/basic/fixdep"))
    argv = ["strace", "-qq", "-o", "/dev/null", "-e", "trace=exit_group", "-e",
            "inject=exit_group:delay_enter=%d" % DELAY_US, fx, d, obj, cmd]
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=tree, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    samples, pid = [], None
    while p.poll() is None:
        try:
            if pid is None:
                for c in open("/proc/%d/task/%d/children" % (p.pid, p.pid)).read().split():
                    if os.readlink("/proc/%s/exe" % c) == fx:
                        pid = int(c)
            if pid and os.readlink("/proc/%d/exe" % pid) == fx:
                samples.append(rollup_anon(pid))
        except (OSError, ValueError):
            pass
        time.sleep(INTERVAL)
    os.unlink(d)
    return [s, int((time.monotonic() - t0) * 1000) - DELAY_US // 1000,
            max(samples, default=""), samples[-1] if samples else ""]


setup()
ENV = shell_env()
jobs = jobs_from_log()
print("%d jobs, env %d bytes" % (len(jobs), sum(len(k) + len(v) + 2 for k, v in ENV.items())),
      file=sys.stderr)
w = csv.writer(open(out, "w", newline="", buffering=1))
w.writerow(["job", "shell", "bits", "runtime_ms", "anon_wait_kB", "anon_peak_kB", "anon_exit_kB",
            "anon_first_kB", "anon_post_max_kB", "samples", "wait_samples", "cmd_bytes",
            "exec_last", "rc"])
fw = csv.writer(open(os.path.join(work, "fixdep64.csv"), "w", newline="", buffering=1))
fw.writerow(["job", "runtime_ms_approx", "anon_peak_kB", "anon_exit_kB"])
for s, obj, cmd, argv in jobs:
    dname = make_depfile(s, obj, argv)
    if not dname:
        continue
    fixdep_cmd = re.search(r"scripts/basic/fixdep \S+ \S+ '(.*)' > ", cmd).group(1)
    fw.writerow(fixdep_anon(s, obj, dname, fixdep_cmd.replace("'\\''", "'")))
    for sh in ("bash", "dash"):
        for b in (32, 64):
            shexe = SHELLS[(sh, b)]
            if b == 32:
                argv = QEMU + ["-0", "/bin/sh", shexe, "-c", cmd]
            else:  # argv[0] ends in "sh" as make's /bin/sh: a symlink named sh
                argv = [os.path.join(work, "sh64", sh, "sh"), "-c", cmd]
            runs = []
            for traced in (False, True):
                clean(obj)
                runs.append(measure(argv, b, shexe, traced))
            r, t = runs
            if r["rc"] or t["rc"] or not os.path.exists(os.path.join(tree, obj)) or \
                    not os.path.exists(os.path.join(tree, os.path.dirname(obj),
                                                    "." + os.path.basename(obj) + ".cmd")):
                print("%s %s %d: rc %s/%s %s %s" % (s, sh, b, r["rc"], t["rc"], r["err"][:300],
                                                    t["err"][:300]), file=sys.stderr)
            wait = [v for _, v, g in r["samples"] if g]
            gi = [i for i, x in enumerate(r["samples"]) if x[2]]
            post = r["samples"][gi[-1] + 1:] if gi else []
            tg = [i for i, x in enumerate(t["samples"]) if x[2]]
            post += t["samples"][tg[-1] + 1:] if tg else []
            allv = [v for _, v, _ in r["samples"] + t["samples"]]
            row = [s, sh, b, int(r["T"] * 1000),
                   int(statistics.median(wait)) if wait else "",
                   max(allv, default=""),
                   t["samples"][-1][1] if t["samples"] else "",
                   next((v for _, v, _ in r["samples"] if v), ""),
                   max((v for _, v, _ in post), default=""),
                   len(r["samples"]), len(wait), len(cmd.encode()),
                   int(t["exec_last"]), r["rc"]]
            w.writerow(row)
            print(" ".join(map(str, row)), file=sys.stderr, flush=True)
