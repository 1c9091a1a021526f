/* Johannes Weiner's "mm: don't free swap slots on page deactivation" (commit ad1c3544d0a,
 * first in 2.6.30), as the switch vm.deactivate_keeps_swap: 2.6.28's shrink_active_list
 * released the swap slots of the pages on its last, partly filled pagevec of deactivated
 * pages when swap was full (pagevec_swap_free, a leftover of the rotation 7e9cd48 removed);
 * from 2.6.30 deactivation leaves every slot alone. Swap is still freed where a page is
 * activated (shrink_page_list's activate_locked) and on swap-in. */
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

static bool keeps_swap(void)
{
	return true;
}

static const struct param_desc params[] = {
    {"vm.deactivate_keeps_swap", P_INT, VM(deactivate_keeps_swap), 0, 1, NULL,
     "shrink_active_list frees no swap slots of deactivated pages (2.6.30)"},
};

/* mm/vmscan.c at v2.6.29 calls pagevec_swap_free in shrink_active_list; v2.6.30 does not */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(2, 6, 30), 0, VM(deactivate_keeps_swap), 1},
};

const struct reclaim_policy policy_deactivate_keeps_swap = {
    .name = "deactivate-keeps-swap",
    .summary = "Johannes Weiner, don't free swap slots on page deactivation (2.6.30)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(deactivate_keeps_swap),
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.deactivate_keeps_swap = keeps_swap},
};
