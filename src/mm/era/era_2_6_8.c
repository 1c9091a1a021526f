/* The 2.6.8 era: the reclaim, page allocator and OOM killer of 2.6.8 (vmscan_268.c,
 * page_alloc_268.c, oom_kill_268.c, read at v2.6.8), for the 2.6.8-rc2 runs of the swap-token
 * thread. It stands for 2.6.8 alone: 2.6.9 already changed the allocator's watermarks
 * (pages_min at the second pass, can_try_harder) and balance_pgdat (loop_again, the
 * all_unreclaimable test), so 2.6.9-2.6.24 run the next era, 2.6.25's. */
#include "mm/era/era.h"

static void defaults(struct vm_sysctl *s, kernel_version_t v)
{
	vm_sysctl_common(s, v);
	s->reclaim_lru = RECLAIM_LRU_268;
}

const struct kernel_era kernel_era_268 = {
    .since = KERNEL_VERSION(2, 6, 8),
    .until = KERNEL_VERSION(2, 6, 9),
    .name = "2.6.8",
    .summary = "2.6.8's reclaim, allocator and OOM killer (2.6.8 mm/), 2.6.8 only",
    .defaults = defaults,
};
