/* Mel Gorman's 2011 series, v3 6/7 "throttle reclaim when isolated pages are under
 * writeback" (kernel-reclaim.md §5.2; seed thread 004), as vm.reclaim_throttle_writeback:
 * after a batch is put back, shrink_inactive_list waits in wait_iff_congested when enough
 * of the batch was under writeback. */
#include "mm/policy/policy.h"

#define VM(f) offsetof(struct vm_sysctl, f)

/* wait_iff_congested (2.6.37+): sleep only when a backing device is congested, else just
 * offer to reschedule. The zone's ZONE_CONGESTED condition is approximated by the disk's
 * write congestion (docs/model.md). */
static void wait_iff_congested(sim_time_t timeout)
{
	if (!bdi_write_congested(&MM->disk)) {
		cond_resched();
		return;
	}
	congestion_wait(WRITE, timeout);
}

static void throttle_on_writeback(struct zone *z, struct scan_control *sc, unsigned long nr_taken,
				  unsigned long nr_writeback)
{
	if (!nr_writeback)
		return;
	/* 100% of the batch under writeback at priority 12, 50% at 11, 25% at 10, ... */
	if (nr_writeback < (nr_taken >> (DEF_PRIORITY - sc->priority)))
		return;
	zone_stat_add(z, NR_VMSCAN_THROTTLED, 1);
	wait_iff_congested(HZ / 10 * JIFFY_NS);
}

static const struct param_desc params[] = {
    {"vm.reclaim_throttle_writeback", P_INT, VM(reclaim_throttle_writeback), 0, 1, NULL,
     "throttle reclaimers when isolated pages are under writeback"},
};

/* mainline 3.2 (§5.1) */
static const struct policy_release mainline[] = {
    {KERNEL_VERSION(3, 2, 0), 0, VM(reclaim_throttle_writeback), 1},
};

const struct reclaim_policy policy_writeback_throttle = {
    .name = "writeback-throttle",
    .summary = "Mel Gorman, throttle reclaim when isolated pages are under writeback "
	       "(2011, mainline 3.2)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(reclaim_throttle_writeback),
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.after_putback = throttle_on_writeback},
};
