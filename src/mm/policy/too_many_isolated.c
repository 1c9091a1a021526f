/* Mainline 2.6.32's too_many_isolated() (kernel-reclaim.md §2.3; commit 35cd78156c49, Rik
 * van Riel): a direct reclaimer entering shrink_inactive_list sleeps in
 * congestion_wait(HZ/10) while more pages of that LRU type are isolated than remain on the
 * inactive list. The 5.16 throttle (reclaim_throttle.c) supersedes it when both are on. */
#include "mm/policy/throttle.h"

#define VM(f) offsetof(struct vm_sysctl, f)

bool too_many_isolated(struct zone *z, int file, struct scan_control *sc, bool v516)
{
	if (current_is_kswapd())
		return false;
	long inactive = zone_page_state(z, file ? NR_INACTIVE_FILE : NR_INACTIVE_ANON);
	long isolated = zone_page_state(z, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON);
	if (!MM->rules->split_lru) /* one inactive list: compare totals */
		isolated =
		    zone_page_state(z, NR_ISOLATED_FILE) + zone_page_state(z, NR_ISOLATED_ANON);
	if (v516 && (sc->gfp_mask & (__GFP_IO | __GFP_FS)) == (__GFP_IO | __GFP_FS))
		inactive >>= 3;
	return isolated > inactive;
}

static long isolated_throttle(struct zone *z, struct scan_control *sc, int file)
{
	while (too_many_isolated(z, file, sc, false)) {
		congestion_wait(WRITE, HZ / 10 * JIFFY_NS);
		if (fatal_signal_pending(current))
			return SWAP_CLUSTER_MAX; /* pretend progress: the task is dying */
	}
	return SHRINK_INACTIVE_PROCEED;
}

static const struct param_desc params[] = {
    {"vm.too_many_isolated", P_INT, VM(too_many_isolated), 0, 1, NULL,
     "2.6.32 throttle: wait while isolated > inactive"},
};

static void defaults(struct vm_sysctl *s)
{
	s->too_many_isolated = 0;
}

static bool active(const struct vm_sysctl *s)
{
	return s->too_many_isolated && !s->reclaim_throttle;
}

/* commit 35cd78156c49, first in 2.6.32 (mm/vmscan.c at v2.6.31 has no too_many_isolated) */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(2, 6, 32), 0, VM(too_many_isolated), 1},
};

const struct reclaim_policy policy_too_many_isolated = {
    .name = "too-many-isolated",
    .summary = "Rik van Riel, throttle direct reclaim when too many pages are isolated "
	       "(mainline 2.6.32)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .defaults = defaults,
    .active = active,
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.shrink_inactive_throttle = isolated_throttle},
};
