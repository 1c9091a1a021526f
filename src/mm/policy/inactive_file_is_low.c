/* Rik van Riel's "evict use-once pages first" (mainline 2.6.31; kernel-reclaim.md §1.21),
 * as the switch vm.reclaim_inactive_file_is_low: the active file list only ages while it is
 * larger than the inactive one; otherwise shrink_list sends its share of the scan to the
 * inactive file list, so use-once pages go first. */
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

/* inactive_file_is_low() of 2.6.31 false: the inactive list is at least as large */
static bool active_file_falls_through(const struct zone *z)
{
	return z->stat[NR_ACTIVE_FILE] <= z->stat[NR_INACTIVE_FILE];
}

static const struct param_desc params[] = {
    {"vm.reclaim_inactive_file_is_low", P_INT, VM(reclaim_inactive_file_is_low), 0, 1, NULL,
     "scan active file pages only while they outnumber inactive ones (Rik van Riel, 2.6.31)"},
};

/* commit 56e49d218890, first in 2.6.31 (mm/vmscan.c at v2.6.30 has no inactive_file_is_low) */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(2, 6, 31), 0, VM(reclaim_inactive_file_is_low), 1},
};

const struct reclaim_policy policy_inactive_file_is_low = {
    .name = "inactive-file-is-low",
    .summary = "Rik van Riel, evict use-once pages first (2.6.31)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(reclaim_inactive_file_is_low),
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.active_file_falls_through = active_file_falls_through},
};
