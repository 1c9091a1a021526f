/* The 2.6.28 era: Rik van Riel's split LRU (anon and file lists, get_scan_ratio), mainline
 * from 2.6.28 (kernel-reclaim.md §1). The model's reference kernel. */
#include "mm/era/era.h"

static void defaults(struct vm_sysctl *s, kernel_version_t v)
{
	vm_sysctl_common(s, v);
	s->reclaim_lru = RECLAIM_LRU_2628;
}

const struct kernel_era kernel_era_2628 = {
    .since = KERNEL_VERSION(2, 6, 28),
    .name = "2.6.28",
    .summary = "split LRU reclaim (2.6.28 mm/vmscan.c)",
    .defaults = defaults,
};
