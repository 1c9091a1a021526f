#!/usr/bin/env bash
# The KPATH instruction counts in src/hw/profile.h are the measurement's
# (data/measured/armboot/kprof/, docs/armboot-measured.md "The kernel's paths, counted"):
# kpaths.py, rerun over the stored console logs and plugin dumps (the default phases; fork's
# two), must print the stored tables byte for byte, and every KPATH_*_INSNS must be its row,
# rounded (the pooled row for the reclaim paths). A constant edited by hand, or data changed
# without the constants, fails.
set -eu
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
command -v zstd >/dev/null || { echo "SKIP: zstd not installed (the dumps are .zst)"; exit 77; }
cd "$(dirname "$0")/../.."
d=data/measured/armboot/kprof
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# kpaths.py over a stored run must print its stored table
reproduces() {
	python3 tools/measure/armboot/kprof/kpaths.py "$d/$1.log" \
		"$d/System.map-2.6.25-rc1-slub-nofb" >"$tmp/$1.txt"
	if ! cmp -s "$tmp/$1.txt" "$d/$2"; then
		echo "FAIL: kpaths.py no longer reproduces $d/$2"
		diff "$d/$2" "$tmp/$1.txt" || true
		exit 1
	fi
}
reproduces kcost-ic3 kpaths-ic3.txt
reproduces kcost-fork-ic3 kpaths-fork-ic3.txt
echo "ok   kpaths.py reproduces the stored tables"
python3 - "$d/kpaths-ic3.txt" "$d/kpaths-fork-ic3.txt" src/hw/profile.h <<'PY'
import re, sys
rows = {}
for table in sys.argv[1:3]:
    for line in open(table).read().splitlines()[1:]:
        # kpaths.py's columns: the path in 14 characters (some names are two words), then
        # phase, instructions, events, per event, and how it was divided
        w = line[15:].split()
        rows[(line[:14].strip(), w[0])] = float(w[3])
want = {
    "KPATH_FAULT_INSNS": rows[("fault", "fault_file")],
    "KPATH_ANON_FAULT_INSNS": rows[("anon fault", "fault_anon")],
    "KPATH_TICK_INSNS": rows[("tick", "tick")],
    "KPATH_PAGE_ALLOC_INSNS": rows[("page_alloc", "fault_anon")],
    "KPATH_PAGE_FREE_INSNS": rows[("page_free", "unmap_anon")],
    "KPATH_LRU_ADD_INSNS": rows[("lru_add", "fault_anon")],
    "KPATH_ISOLATE_INSNS": rows[("isolate", "pooled")],
    "KPATH_SCAN_PAGE_INSNS": rows[("scan_page", "pooled")],
    "KPATH_RMAP_PTE_INSNS": rows[("rmap_pte", "pooled")],
    "KPATH_SWAP_ALLOC_INSNS": rows[("swap_alloc", "swap_out")],
    "KPATH_IO_SUBMIT_INSNS": rows[("io_submit", "swap_out")],
    "KPATH_COPY_PTE_INSNS": rows[("copy_pte", "fork_4m")],
    "KPATH_ZAP_PTE_INSNS": rows[("zap_pte", "fork_4m")],
    "KPATH_PTE_FAULT_INSNS": rows[("pte fault", "swap_in")],
    "KPATH_SWAP_FAULT_INSNS": rows[("swap fault", "swap_in")],
    "KPATH_SWAPIN_RA_INSNS": rows[("swapin_ra", "swap_in")],
    "KPATH_SWAPIN_PAGE_INSNS": rows[("swapin_page", "swap_in")],
    "KPATH_FLUSH_CACHE_PAGE_INSNS": rows[("flush_cache", "swap_out")],
}
have = dict(re.findall(r"#define (KPATH_\w+_INSNS)\s+(\d+)", open(sys.argv[3]).read()))
bad = [f"{k} = {have.get(k)}, the data say {v:.1f}" for k, v in want.items()
       if k not in have or int(have[k]) != round(v)]
if bad:
    sys.exit("FAIL: " + "; ".join(bad))
print(f"ok   the {len(want)} KPATH_*_INSNS constants are the measured rows")
PY
