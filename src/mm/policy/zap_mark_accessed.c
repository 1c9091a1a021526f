/* zap_pte_range before Ken Chen's "do not disturb page referenced state when unmapping memory
 * range" (commit daa88c8d214, first in 2.6.21), as the switch vm.zap_mark_accessed: up to
 * 2.6.20 a file page unmapped through a young PTE is marked accessed (mm/memory.c at v2.6.11
 * and v2.6.20), so the exit of a process that used it can activate it. 2.6.21 to 2.6.28 only
 * set PG_referenced there (the base, mm/memory.c zap_vma); 2.6.29 marks it again, together
 * with leaving the fault unmarked (unmap_mark_accessed.c). */
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

static bool zap_young_file(pfn_t pfn)
{
	mark_page_accessed(pfn);
	return true;
}

static const struct param_desc params[] = {
    {"vm.zap_mark_accessed", P_INT, VM(zap_mark_accessed), 0, 1, NULL,
     "mark file pages accessed when a young PTE is unmapped, besides the fault (up to 2.6.20)"},
};

/* the oldest release the model runs is 2.6.8 (the swap token's era); v2.6.11 already has it */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(2, 6, 0), KERNEL_VERSION(2, 6, 20), VM(zap_mark_accessed), 1},
};

const struct reclaim_policy policy_zap_mark_accessed = {
    .name = "zap-mark-accessed",
    .summary = "zap_pte_range marks a young file page accessed (before Ken Chen, 2.6.21)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(zap_mark_accessed),
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.zap_young_file = zap_young_file},
};
