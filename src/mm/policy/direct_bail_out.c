/* Rik van Riel's "vmscan: bail out of direct reclaim after swap_cluster_max pages" (commit
 * a79311c14ea, first in 2.6.29, with 01dbe5c9b10 "improve reclaim throughput to bail out
 * patch"), as the switch vm.reclaim_direct_bail_out: shrink_zone's round-robin over the
 * lists stops after a round once the direct reclaimer has freed more than swap_cluster_max
 * pages in this try_to_free_pages call (sc->nr_reclaimed, carried across zones and
 * priorities), below DEF_PRIORITY only, and never in kswapd. The lists are cut in the same
 * rounds, so each got at most one more chunk than the others. From 2.6.33 (338fde90930,
 * "make consistent of reclaim bale out between do_try_to_free_page and shrink_zone") the
 * test is nr_reclaimed >= sc->nr_to_reclaim, SWAP_CLUSTER_MAX for a direct reclaimer and
 * ULONG_MAX for kswapd: the value 2. */
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

/* shrink_zone at v2.6.29..v2.6.32: nr_reclaimed > swap_cluster_max && priority <
 * DEF_PRIORITY && !current_is_kswapd(); at v2.6.33 nr_reclaimed >= nr_to_reclaim */
static bool bail_out(const struct scan_control *sc, unsigned long nr_reclaimed, int priority)
{
	if ((current && (current->flags & PF_KSWAPD)) || priority >= DEF_PRIORITY)
		return false;
	unsigned long total = sc->nr_reclaimed_so_far + nr_reclaimed;
	unsigned long target = (unsigned long)sc->swap_cluster_max;
	return MM->sysctl.reclaim_direct_bail_out == 2 ? total >= target : total > target;
}

static const struct param_desc params[] = {
    {"vm.reclaim_direct_bail_out", P_INT, VM(reclaim_direct_bail_out), 0, 2, NULL,
     "direct reclaim leaves shrink_zone once it freed more than (1, 2.6.29) or as many as "
     "(2, 2.6.33) swap_cluster_max pages"},
};

/* mm/vmscan.c at v2.6.28 has no such test in shrink_zone; v2.6.29 has it; v2.6.33 the >= */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(2, 6, 29), KERNEL_VERSION(2, 6, 32), VM(reclaim_direct_bail_out), 1},
    {KERNEL_VERSION(2, 6, 33), 0, VM(reclaim_direct_bail_out), 2},
};

const struct reclaim_policy policy_direct_bail_out = {
    .name = "direct-bail-out",
    .summary = "Rik van Riel, bail out of direct reclaim after swap_cluster_max pages (2.6.29)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(reclaim_direct_bail_out),
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.shrink_zone_bail_out = bail_out},
};
