#!/usr/bin/env python3
"""pagemap.py PID STEP PROGRAM PHASE [ZAPFILE]: the pages of each file mapping of PID present
in its page tables (/proc/PID/pagemap bit 63), as CSV rows
step,program,phase,pid,path,perms,pgoff,pages,uw,zapped,anon_kb,present,anon_present,ranges
pgoff and ranges are file page indices (file offset / 4096); ranges "a-b c d-e" (inclusive),
present pages that are anonymous (copy-on-write of a private mapping; pagemap bit 61 clear)
included and counted in anon_present. uw: the VMA is registered with userfaultfd (VmFlags
"uw"), so fault-around was off for it (touchmap.c). zapped: its start address is in ZAPFILE
(touchmap.c's zap.PID: the VMAs zapped before a switch); "-" when no ZAPFILE is given.
Run as root (pagemap's frame numbers are not needed, only the present bit)."""
import struct
import sys
import pageranges


def vmas(pid):
    cur = None
    for line in open("/proc/%s/smaps" % pid):
        f = line.split()
        if "-" in f[0] and len(f) >= 5 and not f[0].endswith(":"):
            if cur:
                yield cur
            start, end = (int(x, 16) for x in f[0].split("-"))
            path = line.split(None, 5)[5].strip() if len(f) >= 6 else ""
            cur = dict(start=start, end=end, perms=f[1], pgoff=int(f[2], 16) // 4096,
                       inode=int(f[4]), path=path, uw=0, anon_kb=0)
        elif f[0] == "VmFlags:":
            cur["uw"] = int("uw" in f[1:])
        elif f[0] == "Anonymous:":
            cur["anon_kb"] = int(f[1])
    if cur:
        yield cur


def main():
    pid, step, prog, phase = sys.argv[1:5]
    zapped = None
    if len(sys.argv) > 5:
        try:
            zapped = {int(x, 16) for x in open(sys.argv[5]).read().split() if x != "done"}
        except OSError:
            zapped = set()
    try:
        vs = list(vmas(pid))
        pm = open("/proc/%s/pagemap" % pid, "rb")
    except OSError:
        return
    for v in vs:
        if not v["inode"] or not v["path"].startswith("/") or "touchmap" in v["path"]:
            continue
        n = (v["end"] - v["start"]) // 4096
        pm.seek(v["start"] // 4096 * 8)
        ent = struct.unpack("<%dQ" % n, pm.read(n * 8))
        pres = [v["pgoff"] + i for i, e in enumerate(ent) if e >> 63 & 1]
        anon = sum(1 for e in ent if e >> 63 & 1 and not e >> 61 & 1)
        z = "-" if zapped is None else int(v["start"] in zapped)
        path = v["path"].replace(",", "%2C")
        print("%s,%s,%s,%s,%s,%s,%d,%d,%d,%s,%d,%d,%d,%s" % (
            step, prog, phase, pid, path, v["perms"], v["pgoff"], n, v["uw"], z, v["anon_kb"],
            len(pres), anon, pageranges.fmt(pres)))


main()
