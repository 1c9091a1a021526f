#!/usr/bin/env python3
"""Per-page footprint of a usemem-style process: map an anonymous region, write one byte
in every page, and print the /proc/meminfo AnonPages and PageTables deltas and this
process's status (RssAnon, VmPTE) before and after. Shows what the model charges per
page of the region (one anon page, and one PTE page per PAGE_SIZE/8 pages).
data/measured/usemem.txt is one run.

usage: tools/measure/usemem.py [MiB ...]        (default 64 256)
"""
import mmap
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def run(mib):
    page = os.sysconf("SC_PAGE_SIZE")
    size = mib << 20
    st0 = common.read_kv("/proc/self/status")
    m0 = common.meminfo()
    region = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for off in range(0, size, page):
        region[off] = 1
    m1 = common.meminfo()
    st1 = common.read_kv("/proc/self/status")
    pages = size // page
    print("region_MiB %d pages %d" % (mib, pages))
    for k in ("RssAnon", "VmPTE"):
        d = st1.get(k, 0) - st0.get(k, 0)
        print("status %s delta_kB %d per_page_B %.3f" % (k, d, d * 1024 / pages))
    for k in ("AnonPages", "PageTables"):
        d = m1[k] - m0[k]
        print("meminfo %s delta_kB %d per_page_B %.3f" % (k, d, d * 1024 / pages))
    region.close()


def main():
    print("# uname %s" % " ".join(os.uname()))
    print("# page_size %d" % os.sysconf("SC_PAGE_SIZE"))
    for mib in [int(x) for x in sys.argv[1:]] or [64, 256]:
        run(mib)


if __name__ == "__main__":
    main()
