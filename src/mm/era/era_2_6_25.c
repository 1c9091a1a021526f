/* The 2.6.25 era: one active and one inactive list per zone, calc_reclaim_mapped, and
 * try_to_free_pages reporting progress unless every zone is all_unreclaimable
 * (kernel-reclaim.md §1.6, §1.8, §1.10, §1.11). Stands for 2.6.24-2.6.27. */
#include "mm/era/era.h"

static void defaults(struct vm_sysctl *s, kernel_version_t v)
{
	vm_sysctl_common(s, v);
	s->reclaim_lru = RECLAIM_LRU_2625;
}

const struct kernel_era kernel_era_2625 = {
    .since = KERNEL_VERSION(2, 6, 25),
    .name = "2.6.25",
    .summary = "two-list reclaim (2.6.25 mm/vmscan.c), 2.6.24-2.6.27",
    .defaults = defaults,
};
