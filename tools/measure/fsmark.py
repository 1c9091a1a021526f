#!/usr/bin/env python3
"""fs_mark 3.3's own memory and its system calls per file, measured on the real program.

Runs Mel Gorman's command line (-D 100 -N 150 -n 150 -t 1 -S0) with smaller files and
fewer iterations, so it is quick: the worker's memory does not depend on the file size
except through -w, the bytes per write() (default 16 KiB). While the worker runs, samples
its per-VMA Rss / Private_Dirty (smaps) and keeps the largest; then reruns it under
`strace -f -c` and prints the calls per file. data/measured/fsmark.txt is one run.

usage: tools/measure/fsmark.py [FILE_SIZE_BYTES]       (default 1048576)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

FILES, LOOPS = 150, 2


def vmas(pid):
    out, cur = {}, None
    try:
        with open("/proc/%d/smaps" % pid) as f:
            for line in f:
                p = line.split()
                if p and "-" in p[0] and len(p) >= 5:
                    cur = "%s %s %s" % (p[0], p[1], os.path.basename(p[5]) if len(p) > 5
                                        else "[anon]")
                    out[cur] = {}
                elif cur and p and p[0].rstrip(":") in ("Rss", "Private_Dirty", "Anonymous"):
                    out[cur][p[0].rstrip(":")] = int(p[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return out


def cmd(d, size):
    return ["fs_mark", "-d", d, "-D", "100", "-N", str(FILES), "-n", str(FILES), "-L",
            str(LOOPS), "-t", "1", "-S0", "-s", str(size)]


def main():
    common.need_root()
    common.ensure_tool("fs_mark", "fsmark")
    common.ensure_tool("strace", "strace")
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    print("# uname %s" % " ".join(os.uname()))
    base = tempfile.mkdtemp(prefix="fsmark-measure-")
    try:
        d = os.path.join(base, "a")
        print("# " + " ".join(cmd(d, size)))
        proc = subprocess.Popen(cmd(d, size), stdout=subprocess.PIPE, text=True, cwd=base)
        best, samples = {}, 0
        while proc.poll() is None:
            for kid in common.children(proc.pid):
                v = vmas(kid)
                samples += 1
                for k, val in v.items():
                    name = k.split(" ", 1)[1]
                    key = (k.split()[0], name)
                    old = best.get(key, {})
                    best[key] = {f: max(old.get(f, 0), val.get(f, 0)) for f in
                                 ("Rss", "Private_Dirty", "Anonymous")}
            time.sleep(0.02)
        for line in proc.communicate()[0].splitlines():
            print("fs_mark_output " + line)
        print("worker samples %d" % samples)
        tot = 0
        for (rng, name), v in sorted(best.items()):
            if v["Rss"]:
                lo, hi = (int(x, 16) for x in rng.split("-"))
                print("worker vma %-28s size_kB %6d max Rss %d Anonymous %d Private_Dirty %d"
                      % (name, (hi - lo) >> 10, v["Rss"], v["Anonymous"], v["Private_Dirty"]))
                tot += v["Private_Dirty"]
        print("worker Private_Dirty total_kB %d" % tot)
        shutil.rmtree(d, ignore_errors=True)
        st = subprocess.run(["strace", "-f", "-c", "-o", os.path.join(base, "st")] +
                            cmd(d, size), stdout=subprocess.DEVNULL, cwd=base)
        nfiles = FILES * LOOPS
        with open(os.path.join(base, "st")) as f:
            for line in f:
                p = line.split()
                if len(p) >= 5 and p[-1].isidentifier() and p[3].isdigit():
                    print("strace %-12s calls %7s per_file %.2f" % (p[-1], p[3],
                                                                   int(p[3]) / nfiles))
        print("strace exit %d files %d" % (st.returncode, nfiles))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
