#!/usr/bin/env python3
"""How many compile jobs a real `make -jN` keeps running (docs/kbuild-measured.md).

usage: concurrency.py SRCDIR OUT.csv JOBS SECONDS [make arguments...]

Runs `make -jJOBS ARGS` in SRCDIR under nice, stopped after SECONDS, and samples /proc every
0.2 s: the processes named cc1, as, gcc (the driver), make and sh, and the anonymous resident
memory of the cc1s (statm resident - shared). One CSV row per sample."""
import os
import signal
import subprocess
import sys
import time


def sample():
    counts = {"cc1": 0, "as": 0, "gcc": 0, "make": 0, "sh": 0}
    anon_kb = 0
    page_kb = os.sysconf("SC_PAGE_SIZE") // 1024
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as f:
                comm = f.read().strip()
            if comm not in counts:
                continue
            counts[comm] += 1
            if comm == "cc1":
                with open(f"/proc/{pid}/statm") as f:
                    fields = f.read().split()
                anon_kb += (int(fields[1]) - int(fields[2])) * page_kb
        except OSError:
            continue
    return counts, anon_kb


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    src, out, jobs, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    args = sys.argv[5:]
    log = open(out + ".log", "w")
    make = subprocess.Popen(["nice", "-n", "19", "make", f"-j{jobs}", "-k"] + args, cwd=src,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    t0 = time.monotonic()
    with open(out, "w") as f:
        f.write("t_s,cc1,as,gcc,make,sh,cc1_anon_kb\n")
        while make.poll() is None:
            t = time.monotonic() - t0
            if t > secs:
                os.killpg(make.pid, signal.SIGTERM)
                make.wait()
                break
            c, anon = sample()
            f.write(f"{t:.1f},{c['cc1']},{c['as']},{c['gcc']},{c['make']},{c['sh']},{anon}\n")
            f.flush()
            time.sleep(0.2)


if __name__ == "__main__":
    main()
