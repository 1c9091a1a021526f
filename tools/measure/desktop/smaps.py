#!/usr/bin/env python3
"""smaps.py PID STEP PROGRAM PHASE: /proc/PID/smaps summarised per mapping, as CSV rows
(PID may also be the path of a saved smaps file, as remote.sh saves one)
step,program,phase,pid,path,perms,size_kb,rss_kb,ref_kb,anon_kb,swap_kb
Anonymous mappings ([heap], unnamed, [anon:...]) are summed into one [anon] row per
permission set; [stack] is its own row; file mappings one row each."""
import re
import sys

pid, step, prog, phase = sys.argv[1:5]
rows = {}
cur = None
try:
    f = open(pid if "/" in pid else "/proc/%s/smaps" % pid)
except OSError:
    sys.exit(0)
for line in f:
    m = re.match(r"^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \d+\s*(.*)$", line)
    if m:
        perms, path = m.group(1), m.group(2).strip()
        if path in ("", "[heap]") or path.startswith("[anon"):
            path = "[anon]"
        key = (path, perms)
        cur = rows.setdefault(key, [0, 0, 0, 0, 0])
        continue
    k = line.split(":")[0]
    idx = {"Size": 0, "Rss": 1, "Referenced": 2, "Anonymous": 3, "Swap": 4}.get(k)
    if idx is not None and cur is not None:
        cur[idx] += int(line.split()[1])
for (path, perms), v in sorted(rows.items()):
    if path in ("[vvar]", "[vdso]", "[vsyscall]"):
        continue
    print("%s,%s,%s,%s,%s,%s,%d,%d,%d,%d,%d" % (step, prog, phase, pid, path, perms, *v))
