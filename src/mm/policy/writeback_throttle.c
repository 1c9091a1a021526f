/* Mel Gorman's 2011 series, v3 6/7 "throttle reclaim when isolated pages are under
 * writeback" (kernel-reclaim.md §5.2; seed thread 004), as vm.reclaim_throttle_writeback:
 * after a batch is put back, shrink_inactive_list calls wait_iff_congested(zone,
 * BLK_RW_ASYNC, HZ/10) when enough of the batch was under writeback.
 *
 * wait_iff_congested came with 2.6.37 ("writeback: do not sleep on the congestion queue if
 * there are no congested BDIs or if significant congestion is not being encountered in the
 * current zone", 0e093d99763e), and with it the zone flag it tests, ZONE_CONGESTED, which
 * the 2.6.28 base lacks; this policy carries both rules of that commit as 3.0 has them:
 * shrink_page_list marks the zone when every dirty page of a batch was kept by pageout
 * (PAGE_KEEP, which the model's pageout returns for a congested queue or a page not
 * freeable), and kswapd clears the mark when it finds the zone at its high watermark. */
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

/* nr_bdi_congested[BLK_RW_ASYNC] != 0: some request queue is write-congested (a RAID's
 * members are queues of their own; the swap cache's bdi never is) */
static bool some_bdi_write_congested(void)
{
	return bdi_write_congested(&MM->disk) || bdi_write_congested(&MM->swap_disk);
}

/* wait_iff_congested: sleep on the congestion queue, woken as congestion_wait is, only if
 * some backing device is congested and this zone met congestion; else just offer to
 * reschedule */
static void wait_iff_congested(struct zone *z, sim_time_t timeout)
{
	sim_time_t start = local_now();
	if (!some_bdi_write_congested() || !z->congested)
		cond_resched();
	else
		congestion_wait_untraced(WRITE, timeout);
	trace_event(writeback_wait_iff_congested, "usec_timeout=%u usec_delayed=%u",
		    (unsigned)(timeout / 1000), (unsigned)((local_now() - start) / 1000));
}

static void throttle_on_writeback(struct zone *z, struct scan_control *sc,
				  const struct reclaim_batch *b)
{
	/* end of shrink_page_list (2.6.37+): all dirty pages met were backed by congestion */
	if (b->nr_dirty && b->nr_dirty == b->nr_congested)
		z->congested = true;
	if (!b->nr_writeback)
		return;
	/* 100% of the batch under writeback at priority 12, 50% at 11, 25% at 10, ... */
	if (b->nr_writeback < (b->nr_taken >> (DEF_PRIORITY - sc->priority)))
		return;
	zone_stat_add(z, NR_VMSCAN_THROTTLED, 1);
	wait_iff_congested(z, HZ / 10 * JIFFY_NS);
}

/* balance_pgdat, 2.6.37+: a zone at its high watermark is no longer congested */
static void zone_balanced(struct zone *z)
{
	z->congested = false;
}

static const struct param_desc params[] = {
    {"vm.reclaim_throttle_writeback", P_INT, VM(reclaim_throttle_writeback), 0, 1, NULL,
     "throttle reclaimers when isolated pages are under writeback"},
};

/* mainline 3.2 (§5.1) */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(3, 2, 0), 0, VM(reclaim_throttle_writeback), 1},
};

static void boot(void)
{
	if (MM)
		for (int i = 0; i < MM->nr_zones; i++)
			MM->zones[i].congested = false;
}

const struct reclaim_policy policy_writeback_throttle = {
    .name = "writeback-throttle",
    .summary = "Mel Gorman, throttle reclaim when isolated pages are under writeback "
	       "(2011, mainline 3.2), through 2.6.37's wait_iff_congested and ZONE_CONGESTED",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(reclaim_throttle_writeback),
    .boot = boot,
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.after_putback = throttle_on_writeback, .kswapd_zone_balanced = zone_balanced},
};
