"""Snapshots of /proc shared by the measurement scripts (Linux, root for /proc/slabinfo).

Every figure is printed raw, as the kernel reports it; the scripts only subtract
snapshots and divide by counts they also print.
"""
import os
import subprocess
import sys

CACHES = (
    "task_struct", "mm_struct", "vm_area_struct", "anon_vma", "anon_vma_chain",
    "files_cache", "signal_cache", "sighand_cache", "fs_cache", "cred_jar", "pid",
    "skbuff_head_cache", "skbuff_small_head", "UNIX", "sock_inode_cache", "dentry",
    "kmalloc-64", "kmalloc-128", "kmalloc-192", "kmalloc-256", "kmalloc-512",
    "kmalloc-1k", "kmalloc-2k", "kmalloc-4k", "kmalloc-8k", "filp", "pipe_inode_info",
    "kmalloc-cg-64", "kmalloc-cg-128", "kmalloc-cg-192", "kmalloc-cg-256", "kmalloc-cg-512",
    "kmalloc-cg-1k", "kmalloc-cg-2k", "proc_inode_cache",
)

MEMINFO = ("MemFree", "AnonPages", "KernelStack", "PageTables", "Slab", "SUnreclaim",
           "SReclaimable", "Dirty", "Writeback", "Cached")


def ensure_tool(binary, package):
    """Installs the Debian package that provides `binary` when it is missing."""
    if subprocess.call(["sh", "-c", "command -v %s >/dev/null" % binary]) == 0:
        return
    print("# installing %s (for %s)" % (package, binary), flush=True)
    subprocess.check_call(["apt-get", "-o", "DPkg::Lock::Timeout=600", "install", "-y",
                           "-q", package], env=dict(os.environ,
                                                    DEBIAN_FRONTEND="noninteractive"))


def meminfo(keys=MEMINFO):
    out = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, v = line.split(":", 1)
            if k in keys:
                out[k] = int(v.split()[0])  # kB
    return out


def slabinfo(caches=CACHES):
    """name -> (active_objs, num_objs, objsize, objperslab, pagesperslab); caches=None: all"""
    out = {}
    with open("/proc/slabinfo") as f:
        for line in f:
            if line.startswith(("slabinfo", "#")):
                continue
            p = line.split()
            if caches is None or p[0] in caches:
                out[p[0]] = tuple(int(x) for x in p[1:6])
    return out


def read_kv(path):
    out = {}
    try:
        with open(path) as f:
            for line in f:
                if ":" in line:
                    k, v = line.split(":", 1)
                    v = v.split()
                    if v and v[0].isdigit():
                        out[k] = int(v[0])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return out


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except FileNotFoundError:
        return []


def nr_maps(pid):
    try:
        with open("/proc/%d/maps" % pid) as f:
            return sum(1 for _ in f)
    except FileNotFoundError:
        return 0


def print_delta(tag, m0, m1, s0, s1, per=None):
    """meminfo and slab deltas between two snapshots, and per `per` tasks if given."""
    for k in MEMINFO:
        if k in m0 and k in m1:
            d = m1[k] - m0[k]
            extra = " per_task_kB %.2f" % (d / per) if per else ""
            print("%s meminfo %s delta_kB %d%s" % (tag, k, d, extra))
    for k in sorted(s1):
        a0 = s0.get(k, (0, 0, s1[k][2], 0, 0))[0]
        d = s1[k][0] - a0
        extra = " per_task %.3f" % (d / per) if per else ""
        print("%s slab %s objsize %d delta_objs %d%s" % (tag, k, s1[k][2], d, extra))


def need_root():
    if os.geteuid() != 0:
        sys.exit("needs root: /proc/slabinfo and other tasks' smaps")
