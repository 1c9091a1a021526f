/* Mainline 5.16's reclaim_throttle() (kernel-reclaim.md §2.4; Mel Gorman, "Remove
 * dependency on congestion_wait in mm/" v4): the isolation test of 2.6.32 (with the later
 * inactive >>= 3 for __GFP_IO|__GFP_FS callers) sleeps HZ/50 on a queue that is woken as
 * soon as the test fails, once per shrink_inactive_list call (then it gives up on the
 * list); and a direct reclaimer that reclaimed nothing by priority 1 sleeps one jiffy
 * (NOPROGRESS, in its final 5.16 form). The WRITEBACK and CONGESTED reasons are not
 * modelled: they need pages under writeback with PG_reclaim, which the throttle seeds'
 * workloads do not produce; see docs/throttle.md. */
#include "mm/policy/throttle.h"

#define VM(f) offsetof(struct vm_sysctl, f)

/* The node's throttle queues: one node, so the first zone's array serves as the pgdat's. */
static struct waitqueue *node_throttle_wait(enum vmscan_throttle_state reason)
{
	return &MM->zones[0].throttle_wait[reason];
}

/* reclaim_throttle(pgdat, reason) of 5.16: an uninterruptible sleep with a timeout. */
static void reclaim_throttle(enum vmscan_throttle_state reason)
{
	const sim_time_t timeout[NR_VMSCAN_THROTTLE] = {
	    [VMSCAN_THROTTLE_WRITEBACK] = HZ / 10 * JIFFY_NS,
	    [VMSCAN_THROTTLE_ISOLATED] = HZ / 50 * JIFFY_NS,
	    [VMSCAN_THROTTLE_NOPROGRESS] = JIFFY_NS,
	    [VMSCAN_THROTTLE_CONGESTED] = JIFFY_NS,
	};
	/* kernel threads other than kswapd may be what reclaim waits for: never throttled */
	if ((current->flags & PF_KTHREAD) && !current_is_kswapd()) {
		cond_resched();
		return;
	}
	static const char *const reason_name[NR_VMSCAN_THROTTLE] = {
	    [VMSCAN_THROTTLE_WRITEBACK] = "VMSCAN_THROTTLE_WRITEBACK",
	    [VMSCAN_THROTTLE_ISOLATED] = "VMSCAN_THROTTLE_ISOLATED",
	    [VMSCAN_THROTTLE_NOPROGRESS] = "VMSCAN_THROTTLE_NOPROGRESS",
	    [VMSCAN_THROTTLE_CONGESTED] = "VMSCAN_THROTTLE_CONGESTED",
	};
	sim_time_t start = local_now();
	sleep_on(node_throttle_wait(reason), timeout[reason], false);
	/* "usect_delayed" is 5.16's spelling */
	trace_event(mm_vmscan_throttled, "nid=0 usec_timeout=%d usect_delayed=%d reason=%s",
		    (int)(timeout[reason] / 1000), (int)((local_now() - start) / 1000),
		    reason_name[reason]);
}

/* shrink_inactive_list entry: throttle at most once per call; still too many isolated after
 * the sleep, return 0 without scanning (the `stalled` flag, from "mm, vmscan: do not loop
 * on too_many_isolated for ever", 4.14, which 5.16 kept around reclaim_throttle). */
static long isolated_throttle(struct zone *z, struct scan_control *sc, int file)
{
	bool stalled = false;
	while (too_many_isolated(z, file, sc, true)) {
		if (stalled)
			return 0;
		stalled = true;
		reclaim_throttle(VMSCAN_THROTTLE_ISOLATED);
		if (fatal_signal_pending(current))
			return SWAP_CLUSTER_MAX;
	}
	/* too_many_isolated wakes the throttled when it finds the test false; kswapd returns
	 * from it before the test, so kswapd never wakes them */
	struct waitqueue *wq = node_throttle_wait(VMSCAN_THROTTLE_ISOLATED);
	if (!current_is_kswapd() && waitqueue_active(wq))
		wake_up_all(wq);
	return SHRINK_INACTIVE_PROCEED;
}

/* consider_reclaim_throttle (NOPROGRESS in its final 5.16 form). */
static void consider_reclaim_throttle(struct scan_control *sc, int priority, unsigned long scanned,
				      unsigned long reclaimed)
{
	(void)sc;
	if (reclaimed > scanned / 8) {
		struct waitqueue *wq = node_throttle_wait(VMSCAN_THROTTLE_NOPROGRESS);
		if (waitqueue_active(wq))
			wake_up_one(wq);
		return;
	}
	if (current_is_kswapd())
		return;
	if (priority == 1 && !reclaimed)
		reclaim_throttle(VMSCAN_THROTTLE_NOPROGRESS);
}

static const struct param_desc params[] = {
    {"vm.reclaim_throttle", P_INT, VM(reclaim_throttle), 0, 1, NULL,
     "5.16 reclaim_throttle(): ISOLATED and NOPROGRESS"},
};

static const struct policy_release mainline[] = {
    {KERNEL_VERSION(5, 16, 0), 0, VM(reclaim_throttle), 1},
};

const struct reclaim_policy policy_reclaim_throttle = {
    .name = "reclaim-throttle",
    .summary = "Mel Gorman, reclaim_throttle() ISOLATED and NOPROGRESS (mainline 5.16)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(reclaim_throttle),
    .mainline = mainline,
    .nmainline = ARRAY_SIZE(mainline),
    .ops = {.shrink_inactive_throttle = isolated_throttle,
	    .after_shrink_zones = consider_reclaim_throttle},
};
