#!/usr/bin/python3
"""The instructions of each kernel path the hardware profiles price, from a
kcost run (run.sh kcost) of v2.6.25-rc1 on the emulated ARM926.

Usage: kpaths.py LOG SYSTEM.MAP

Each path is a set of kernel functions (below, as 2.6.25-rc1's ARM build
names them after inlining) and an event to divide by, in the phase that
exercises it. Helpers shared with other paths (unlock_page, put_page, the
slab allocator, the scheduler) belong to no path, so each figure is the work
of its own functions: a lower bound by their share. (The zap's put_page is its own: the
child's reference, dropped by free_page_and_swap_cache.) A row needs 1,000 events (rmap_pte in
read_file and mapped_file has a handful: 2.6.25 keeps mapped file pages
active while unmapped ones remain). The reclaim rows are pooled over the
phases (their instructions summed, their events summed).
docs/armboot-measured.md, "The kernel's paths, counted", reads this output.
"""
import bisect
import sys

import kcost

# src/hw/profile.h's costs, each as (phase, functions, event).
ALLOC = {"__alloc_pages", "get_page_from_freelist", "zone_watermark_ok", "__rmqueue",
         "__rmqueue_smallest", "rmqueue_bulk", "move_freepages", "move_freepages_block",
         "__rmqueue_fallback"}
FREE = {"free_hot_cold_page", "free_hot_page", "free_cold_page", "free_pages_bulk.constprop.0",
        "free_pages_bulk", "get_pageblock_flags_group", "__free_pages", "__free_pages_ok",
        "__pagevec_free"}
LRU_ADD = {"lru_cache_add", "lru_cache_add_active", "__pagevec_lru_add",
           "__pagevec_lru_add_active", "release_pages"}
ISOLATE = {"isolate_lru_pages", "__isolate_lru_page", "isolate_pages_global"}
RMAP_PTE = {"page_referenced_one", "page_check_address", "try_to_unmap_one",
            "vma_prio_tree_next", "prio_tree_next", "prio_tree_left", "prio_tree_right",
            "get_index.isra.0"}
SCAN = {"shrink_zone", "shrink_inactive_list", "shrink_page_list", "shrink_active_list",
        "page_referenced", "page_referenced_file.constprop.0", "page_referenced_file",
        "page_referenced_anon", "page_lock_anon_vma", "try_to_unmap", "try_to_unmap_anon",
        "try_to_unmap_file", "remove_mapping", "__remove_from_page_cache", "radix_tree_delete",
        "clear_active_flags", "__pagevec_release_nonlru", "remove_exclusive_swap_page",
        "__delete_from_swap_cache", "pagevec_move_tail.constprop.0"}
SWAP_ALLOC = {"get_swap_page", "add_to_swap", "add_to_swap_cache", "radix_tree_insert",
              "radix_tree_preload", "get_swap_info_struct"}
IO_SUBMIT = {"swap_writepage", "get_swap_bio", "map_swap_page", "bio_alloc", "bio_alloc_bioset",
             "bio_init", "submit_bio", "generic_make_request", "__make_request",
             "drive_stat_acct", "ll_back_merge_fn", "ll_front_merge_fn", "attempt_back_merge",
             "attempt_front_merge", "attempt_merge", "ioprio_best", "blk_queue_bounce",
             "blk_recount_segments", "bio_phys_segments", "bio_hw_segments",
             "test_set_page_writeback", "clear_page_dirty_for_io", "mempool_alloc",
             "mempool_alloc_slab", "get_request.constprop.0", "get_request",
             "get_request_wait", "init_request_from_bio", "rq_init", "blk_plug_device"}
IO_PREFIX = ("elv_", "as_")
# clear_user_page: the new anonymous page's clearing (page_zero_ns)
CLEAR_PAGE = {"v4wb_clear_user_page"}
# ARM's cache and TLB maintenance (VIVT caches): not in an x86 or ia64 fault
ARM_CACHE = ("arm926_", "cpu_arm926_dcache", "v4wbi_", "__flush_dcache_page",
             "flush_dcache_page", "update_mmu_cache")


def kernel_less_arm(p):
    """The kernel's instructions of a profile less ARM's cache and TLB upkeep."""
    return p.kernel - p.sum({f for f in p.insns if f.startswith(ARM_CACHE)})


# A PTE of a private anonymous page, fork to exit (mm/memory.c, v2.6.25-rc1): copy_one_pte
# (inlined in copy_page_range) calls vm_normal_page once and set_pte_ext twice (the parent's
# ptep_set_wrprotect, the child's set_pte_at); zap_pte_range (inlined in unmap_vmas) calls
# vm_normal_page once, set_pte_ext once (ptep_get_and_clear_full), page_remove_rmap, and
# free_page_and_swap_cache with its put_page, the child's reference dropped (not the last).
COPY_PTE = {"copy_page_range"}
ZAP_PTE = {"unmap_vmas", "page_remove_rmap", "free_page_and_swap_cache", "put_page"}
SET_PTE, NORMAL_PAGE = "cpu_arm926_set_pte_ext", "vm_normal_page"


def fork_pte_split(p, p4):
    """(copy, zap) instructions of fork_4m's extra PTEs: fork_4m less fork_exit."""
    def delta(funcs):
        return p4.sum(funcs) - p.sum(funcs)
    set_pte, normal = delta({SET_PTE}), delta({NORMAL_PAGE})
    return (delta(COPY_PTE) + set_pte * 2 // 3 + normal // 2,
            delta(ZAP_PTE) + set_pte - set_pte * 2 // 3 + normal - normal // 2)


def fault_blocks(p, addrs, names, faults, old):
    """The swap_in phase's fault blocks, less ARM's cache upkeep (as in every fault row), in
    instructions: (every, old_only, rest). `every`: the blocks every fault runs, entry to
    exit (executed between the data aborts' and the faults' counts of times). `old_only`:
    handle_mm_fault's blocks the `old` faults on an old PTE run alone (ARM926's young bit is
    emulated: an old PTE is invalid to the MMU), those executed `old` times and the two
    sides of a branch inside them (counts that add up to `old`). `rest`: handle_mm_fault's
    other blocks (run more than once), the faults on a swap entry's."""
    every = old_only = rest = 0
    hmf = []
    for vaddr, n, count in p.blocks:
        if vaddr < 0xC0000000:
            continue
        i = bisect.bisect_right(addrs, vaddr) - 1
        if names[i].startswith(ARM_CACHE):
            continue
        if p.calls["do_DataAbort"] <= count <= faults:
            every += n * count
        elif names[i] == "handle_mm_fault" and count > 1:
            hmf.append((n, count))
    counts = {c for _, c in hmf}
    for n, c in hmf:
        if c == old or (c < old and old - c in counts):
            old_only += n * c
        else:
            rest += n * c
    return every, old_only, rest


def pte_fault(p, addrs, names, faults, old):
    """A fault on a present, old PTE: every fault's blocks a fault, and its own."""
    every, old_only, _ = fault_blocks(p, addrs, names, faults, old)
    return every / faults * old + old_only


def per_call(p, funcs, calls):
    """`calls` calls' share of funcs' instructions, each function at its mean a call."""
    return sum(p.insns[f] / p.calls[f] * calls for f in funcs if p.calls[f])


# A fault on a swap entry whose page is in the swap cache (do_swap_page, inlined in
# handle_mm_fault; mm/memory.c v2.6.25-rc1): its own callees, and its calls of helpers that
# others call too (lookup_swap_cache's find_get_page and radix_tree_lookup; swap_free with
# swap_info_get and swap_entry_free; unlock_page), a call each at their mean.
SWAP_FAULT_OWN = {"lookup_swap_cache", "mark_page_accessed", "page_add_anon_rmap",
                  "__page_set_anon_rmap"}
SWAP_FAULT_SHARED = {"find_get_page", "radix_tree_lookup", "swap_free", "swap_info_get",
                     "swap_entry_free", "unlock_page"}
# A fault that missed the swap cache: swapin_readahead's window (valid_swaphandles) and
# grab_swap_token, once a call
SWAPIN_RA = {"swapin_readahead", "valid_swaphandles", "grab_swap_token"}
# A page swapin_readahead reads: read_swap_cache_async (its find_get_page and
# radix_tree_lookup a call) and add_to_swap_cache's swap_duplicate and radix tree insert
# a page read (swap_readpage calls); the allocation, LRU add and bio are their own costs
SWAPIN_PAGE_CALL = {"find_get_page", "radix_tree_lookup"}
SWAPIN_PAGE_READ = {"add_to_swap_cache", "radix_tree_insert", "radix_tree_preload",
                    "swap_duplicate"}


def swap_fault(p, addrs, names, faults, old, swapf):
    """The instructions of the swap_in phase's swapf faults on a swap entry: every fault's
    blocks at their share, handle_mm_fault's blocks that are neither every fault's nor the
    old-PTE faults', and the callees above."""
    every, _, rest = fault_blocks(p, addrs, names, faults, old)
    return (every / faults * swapf + rest + p.sum(SWAP_FAULT_OWN)
            + per_call(p, SWAP_FAULT_SHARED, swapf))

def events(vm, prefixes):
    return sum(v for k, v in vm.items() if k.startswith(prefixes))


def io_funcs(p):
    return {f for f in p.insns if f in IO_SUBMIT or f.startswith(IO_PREFIX)}


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    runs = {name: (vm, p) for name, vm, p in kcost.read_run(argv[1], argv[2])}
    rows = []

    def row(cost, phase, funcs, n, what, least=1):
        if phase not in runs or n < least:
            return
        vm, p = runs[phase]
        rows.append((cost, phase, p.sum(funcs), n, what))

    if "tick" in runs:
        vm, p = runs["tick"]
        rows.append(("tick", "tick", p.kernel, p.calls["tick_periodic.constprop.0"] or
                     p.calls["tick_periodic"], "every kernel instruction / ticks"))
    if "null_io" in runs:
        vm, p = runs["null_io"]
        rows.append(("null I/O", "null_io", p.kernel, 10000, "all kernel / 10,000 calls"))
    if "fault_file" in runs:
        vm, p = runs["fault_file"]
        rows.append(("file fault", "fault_file", kernel_less_arm(p), vm.get("pgfault", 0),
                     "all kernel less ARM cache upkeep / pgfault"))
        # fault_ns: the model charges the activation as lru_add_ns on its own
        rows.append(("fault", "fault_file", kernel_less_arm(p) - p.insns["activate_page"],
                     vm.get("pgfault", 0), "the file fault less activate_page / pgfault"))
    if "fault_anon" in runs:
        vm, p = runs["fault_anon"]
        # anon_fault_ns: do_anonymous_page's fault; the model charges the page's allocation,
        # clearing and LRU add as page_alloc_ns, page_zero_ns and lru_add_ns on their own
        rows.append(("anon fault", "fault_anon",
                     kernel_less_arm(p) - p.sum(ALLOC | LRU_ADD | CLEAR_PAGE),
                     vm.get("pgfault", 0),
                     "all kernel less ARM cache upkeep, the allocation, clearing, LRU add"))
    if "fork_exit" in runs:  # lmbench's lat_proc fork, the small static kcost forking
        vm, p = runs["fork_exit"]
        rows.append(("fork+exit", "fork_exit", kernel_less_arm(p), 20,
                     "all kernel less ARM cache upkeep / 20 forks"))
        if "fork_4m" in runs:  # the same with 1,024 more anonymous PTEs to copy and zap
            vm4, p4 = runs["fork_4m"]
            rows.append(("fork PTE", "fork_4m", kernel_less_arm(p4) - kernel_less_arm(p),
                         20 * 1024,
                         "less fork_exit / 20 x 1,024 PTEs copied and zapped"))
            # the same PTEs split into fork's copy and the child's zap at exit, by function;
            # the helpers both call are split by their calls a PTE (fork_pte_split)
            copy, zap = fork_pte_split(p, p4)
            rows.append(("copy_pte", "fork_4m", copy, 20 * 1024,
                         "copy_page_range, 2 of 3 set_pte, 1 of 2 vm_normal_page"))
            rows.append(("zap_pte", "fork_4m", zap, 20 * 1024,
                         "zap_pte_range's functions, 1 of 3 set_pte, 1 of 2 vm_normal_page"))
    if "fault_anon" in runs:
        vm, p = runs["fault_anon"]
        row("page_alloc", "fault_anon", ALLOC, events(vm, ("pgalloc_",)), "/ pgalloc")
        row("lru_add", "fault_anon", LRU_ADD,
            p.calls["lru_cache_add_active"] + p.calls["lru_cache_add"], "/ lru_cache_add calls")
    if "unmap_anon" in runs:
        vm, p = runs["unmap_anon"]
        row("page_free", "unmap_anon", FREE, vm.get("pgfree", 0), "/ pgfree")
    if "fault_file" in runs:
        vm, p = runs["fault_file"]
        row("activate_page", "fault_file", {"activate_page"}, vm.get("pgactivate", 0),
            "/ pgactivate")
    for ph in ("read_file", "mapped_file", "swap_out", "swap_in"):
        if ph not in runs:
            continue
        vm, p = runs[ph]
        scan = events(vm, ("pgscan_",))
        refill = events(vm, ("pgrefill_",))
        row("isolate", ph, ISOLATE, scan + refill, "/ (pgscan + pgrefill)")
        row("scan_page", ph, SCAN, scan + refill / 2, "/ (pgscan + pgrefill / 2)")
        row("rmap_pte", ph, RMAP_PTE,
            p.calls["page_referenced_one"] + p.calls["try_to_unmap_one"],
            "/ page_referenced_one + try_to_unmap_one calls", least=1000)
    # the reclaim phases pooled: the figure the profiles take
    for cost in ("isolate", "scan_page", "rmap_pte"):
        mine = [r for r in rows if r[0] == cost]
        if len(mine) > 1:
            rows.append((cost, "pooled", sum(r[2] for r in mine), sum(r[3] for r in mine),
                         "the phases above together"))
    if "swap_in" in runs:
        # the phase reads back pages it wrote, so a fault that is not on a swap entry
        # (lookup_swap_cache, once a swap fault) finds its PTE present but old: reclaim's
        # page_referenced cleared the young bit, which the ARM926 emulates
        vm, p = runs["swap_in"]
        faults = p.calls["handle_mm_fault"]  # pgfault counts the markers' few too
        old = faults - p.calls["lookup_swap_cache"]
        if old >= 1000:
            addrs, names = kcost.load_symbols(argv[2])
            rows.append(("pte fault", "swap_in", round(pte_fault(p, addrs, names, faults, old)),
                         old, "every fault's blocks / faults + the old-PTE blocks / old"))
            swapf = p.calls["lookup_swap_cache"]
            rows.append(("swap fault", "swap_in",
                         round(swap_fault(p, addrs, names, faults, old, swapf)), swapf,
                         "every fault's share, the swap blocks, do_swap_page's calls"))
        ra = p.calls["swapin_readahead"]
        row("swapin_ra", "swap_in", SWAPIN_RA, ra, "/ swapin_readahead calls")
        read = p.calls["swap_readpage"]
        if read >= 1000:
            rows.append(("swapin_page", "swap_in",
                         round(p.insns["read_swap_cache_async"]
                               + per_call(p, SWAPIN_PAGE_CALL, p.calls["read_swap_cache_async"])
                               + per_call(p, SWAPIN_PAGE_READ, read)), read,
                         "read_swap_cache_async's work / swap_readpage calls"))
    if "swap_out" in runs:
        # ARM926's flush_cache_page (VIVT): arm926_flush_user_cache_range over one page, a
        # call (try_to_unmap_one's, of the reclaiming task's own pages, here)
        vm, p = runs["swap_out"]
        row("flush_cache", "swap_out", {"arm926_flush_user_cache_range"},
            p.calls["arm926_flush_user_cache_range"], "/ arm926_flush_user_cache_range calls",
            least=1000)
    if "swap_out" in runs:
        vm, p = runs["swap_out"]
        row("swap_alloc", "swap_out", SWAP_ALLOC, p.calls["add_to_swap_cache"],
            "/ add_to_swap_cache calls")
        row("io_submit", "swap_out", io_funcs(p), vm.get("pswpout", 0), "/ pswpout")
    print(f"{'path':14s} {'phase':12s} {'instructions':>13s} {'events':>9s} {'per event':>10s}  divided")
    for cost, ph, ins, n, what in rows:
        print(f"{cost:14s} {ph:12s} {ins:13d} {n:9.0f} {ins / n:10.1f}  {what}")


if __name__ == "__main__":
    main(sys.argv)
