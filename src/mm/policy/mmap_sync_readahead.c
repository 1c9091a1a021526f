/* 2.6.31's file-fault readahead (Wu Fengguang's readahead series; filemap_2631.c), as the
 * switch vm.mmap_sync_readahead. Off, file faults follow 2.6.23-2.6.30's filemap_fault
 * (mm/filemap.c): read-around on a miss, PGMAJFAULT only for a fault that read around. */
#include "mm/filemap.h"
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

static const struct param_desc params[] = {
    {"vm.mmap_sync_readahead", P_INT, VM(mmap_sync_readahead), 0, 1, NULL,
     "file faults read ahead as 2.6.31's do_sync/do_async_mmap_readahead (Wu Fengguang)"},
};

/* mm/filemap.c at v2.6.30 still reads around inside filemap_fault; v2.6.31 has
 * do_sync_mmap_readahead */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(2, 6, 31), 0, VM(mmap_sync_readahead), 1},
};

const struct reclaim_policy policy_mmap_sync_readahead = {
    .name = "mmap-sync-readahead",
    .summary = "Wu Fengguang, do_sync/do_async_mmap_readahead for file faults (2.6.31)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(mmap_sync_readahead),
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.filemap_fault = filemap_fault_2631},
};
