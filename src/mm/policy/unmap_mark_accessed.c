/* Nick Piggin's "mm: don't mark_page_accessed in fault path" (commit bf3f3bc5e73, first in
 * 2.6.29; kernel-reclaim.md §1.4), as the switch vm.unmap_mark_accessed. Up to 2.6.28
 * filemap_fault marks every page it returns accessed, and zap_pte_range only sets
 * PG_referenced on a file page whose PTE is young. From 2.6.29 the fault leaves the page
 * alone (its young PTE already says it was used) and zap_pte_range calls
 * mark_page_accessed instead, so a page unmapped young after a use is promoted as a read()
 * would promote it. filemap_fault (mm/filemap.c) and zap_vma (mm/memory.c) ask this
 * policy's hooks; the 2.6.29 release turns it on, and the key overrides the release. */
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

static bool fault_leaves_unmarked(pfn_t pfn)
{
	(void)pfn;
	return true;
}

/* zap_pte_range at v2.6.29 (the model has no MADV_SEQUENTIAL, so no VM_SequentialReadHint
 * mapping skips it) */
static bool zap_young_file(pfn_t pfn)
{
	mark_page_accessed(pfn);
	return true;
}

static const struct param_desc params[] = {
    {"vm.unmap_mark_accessed", P_INT, VM(unmap_mark_accessed), 0, 1, NULL,
     "mark file pages accessed when a young PTE is unmapped, not at the fault (2.6.29)"},
};

/* mm/filemap.c at v2.6.28 calls mark_page_accessed in filemap_fault; at v2.6.29 it does not */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(2, 6, 29), 0, VM(unmap_mark_accessed), 1},
};

const struct reclaim_policy policy_unmap_mark_accessed = {
    .name = "unmap-mark-accessed",
    .summary = "Nick Piggin, mark_page_accessed at unmap, not in the fault path (2.6.29)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(unmap_mark_accessed),
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.fault_leaves_unmarked = fault_leaves_unmarked, .zap_young_file = zap_young_file},
};
