#!/usr/bin/env python3
"""What a resident name server touches: BIND's named, idle and answering queries.

Rik van Riel's seed-003 compiles ran with "a 180 MB named in the background"; the thread
gives its size and nothing else. This script starts Debian's named (bind9) as an
authoritative server of one generated zone whose size makes its resident set about
180 MB, waits until it answers, and then measures what it references over intervals:
for each interval length (and, separately, at each query rate) it clears the process's
referenced bits (`clear_refs` 1), waits, and sums `Referenced` and `Rss` over the
anonymous and the file-backed mappings of /proc/PID/smaps. Queries are A lookups of names
drawn uniformly from the zone, sent over UDP at a fixed rate by this script (a uniform
draw touches the most pages a query can: a real resolver's popular names would touch
fewer). Printed raw, one line per measurement; data/measured/named.txt is one run.

usage: tools/measure/named.py [--records N] [--reps R]   (default 520000 records, 3 reps)
"""
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

PORT = 5353
IDLE_S = (1, 10, 60)
QPS = (1, 10, 100, 1000)
LOAD_S = 10


def write_zone(path, n):
    with open(path, "w") as f:
        f.write("$TTL 3600\n@ IN SOA ns.bench. root.bench. 1 3600 600 86400 3600\n"
                "@ IN NS ns.bench.\nns IN A 127.0.0.1\n")
        for i in range(n):
            f.write("h%07d IN A 10.%d.%d.%d\n" % (i, (i >> 16) & 255, (i >> 8) & 255, i & 255))


def query_packet(qid, name):
    q = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0"
    return struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0) + q + struct.pack(">HH", 1, 1)


def ask(sock, qid, i):
    sock.sendto(query_packet(qid & 0xffff, "h%07d.bench" % i), ("127.0.0.1", PORT))
    try:
        sock.recvfrom(4096)
        return True
    except socket.timeout:
        return False


def referenced(pid):
    """kB of (Rss, Referenced) over anonymous and file-backed mappings, and the anonymous
    mappings with referenced pages: (range, Rss kB, Referenced kB)."""
    out = {"anon": [0, 0], "file": [0, 0]}
    kind, vmas, cur = "anon", [], None
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            p = line.split()
            if "-" in p[0] and len(p) >= 5 and ":" not in p[0]:
                path = p[5] if len(p) > 5 else ""
                kind = "file" if path.startswith("/") else "anon"
                cur = [p[0], 0, 0] if kind == "anon" else None
                if cur:
                    vmas.append(cur)
            elif p[0] == "Rss:":
                out[kind][0] += int(p[1])
                if cur:
                    cur[1] = int(p[1])
            elif p[0] == "Referenced:":
                out[kind][1] += int(p[1])
                if cur:
                    cur[2] = int(p[1])
    out["vmas"] = [v for v in vmas if v[2]]
    return out


def clear_refs(pid):
    with open("/proc/%d/clear_refs" % pid, "w") as f:
        f.write("1")


def report(tag, pid, extra="", vmas=False):
    r = referenced(pid)
    print("%s anon_rss_kB %d anon_ref_kB %d file_rss_kB %d file_ref_kB %d%s" %
          (tag, r["anon"][0], r["anon"][1], r["file"][0], r["file"][1], extra), flush=True)
    if vmas:  # where an idle daemon's references fall: the same small mappings each time?
        for rng, rss, ref in r["vmas"]:
            print("  anon_vma %s rss_kB %d ref_kB %d" % (rng, rss, ref))


def main():
    args = sys.argv[1:]
    n, reps = 520000, 3
    while args:
        if args[0] == "--records" and len(args) > 1:
            n, args = int(args[1]), args[2:]
        elif args[0] == "--reps" and len(args) > 1:
            reps, args = int(args[1]), args[2:]
        else:
            sys.exit(__doc__.strip().splitlines()[-1])
    common.ensure_tool("named", "bind9")
    d = tempfile.mkdtemp(prefix="named-measure-")
    write_zone(os.path.join(d, "bench.zone"), n)
    with open(os.path.join(d, "named.conf"), "w") as f:
        f.write('options { directory "%s"; listen-on port %d { 127.0.0.1; }; '
                'listen-on-v6 { none; }; recursion no; pid-file "%s/named.pid"; };\n'
                'zone "bench." { type primary; file "bench.zone"; };\n' % (d, PORT, d))
    print("# uname %s" % " ".join(os.uname()))
    print("# %s" % subprocess.run(["named", "-v"], capture_output=True,
                                  text=True).stdout.strip())
    print("# zone records %d, one worker thread (-n 1), authoritative, no recursion" % n)
    proc = subprocess.Popen(["named", "-c", os.path.join(d, "named.conf"), "-u", "root",
                             "-g", "-n", "1"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.settimeout(1.0)
    try:
        for _ in range(120):
            if ask(sock, 1, 0):
                break
            time.sleep(1)
        else:
            sys.exit("named did not answer")
        time.sleep(10)  # let the load's transient memory settle
        pid = proc.pid
        report("loaded", pid)
        rng = random.Random(1)
        for _ in range(reps):
            for t in IDLE_S:
                clear_refs(pid)
                time.sleep(t)
                report("idle interval_s %d" % t, pid, vmas=True)
        for qps in QPS:
            for _ in range(reps):
                clear_refs(pid)
                t0 = time.time()
                sent = answered = 0
                while True:
                    due = t0 + sent / qps
                    now = time.time()
                    if due >= t0 + LOAD_S:
                        break
                    if due > now:
                        time.sleep(due - now)
                    answered += ask(sock, sent, rng.randrange(n))
                    sent += 1
                time.sleep(max(0.0, t0 + LOAD_S - time.time()))
                report("load qps %d interval_s %d" % (qps, LOAD_S), pid,
                       " queries %d answered %d" % (sent, answered))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()


if __name__ == "__main__":
    main()
