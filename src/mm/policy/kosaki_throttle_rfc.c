/* KOSAKI Motohiro's first reclaim throttle, "[RFC][PATCH] the proposal of improve page
 * reclaim by throttle" (19 Feb 2008, against 2.6.25-rc1; kernel-reclaim.md §2.2, the v1 row;
 * benchmarks.md, "Why KOSAKI's throttle helped"), the patch Minchan Kim ran on the 32 MB
 * ARM board of seed 000. Unlike take2..v8 (kosaki_throttle.c: per zone, around
 * shrink_zone's list work), it is one machine-wide count of the tasks inside
 * try_to_free_pages, at most 2 x the nodes with memory. kswapd never calls
 * try_to_free_pages, so it is never held back. A task that waited more than HZ for its
 * turn first looks at the zones it may allocate from: if one has free pages above four times
 * its high watermark, others did its work, and it returns progress without reclaiming. */
#include "mm/policy/throttle.h"

#define VM(f) offsetof(struct vm_sysctl, f)

bool throttle_rfc_no_longer_needed(const struct scan_control *sc)
{
	/* "classzone = first zone": the highest zone the allocation may use */
	int classzone = gfp_zone(sc->gfp_mask);
	for (int i = classzone; i >= 0; i--) {
		struct zone *z = &MM->zones[i];
		if (z->present_pages &&
		    zone_watermark_ok(z, sc->order, 4 * z->pages_high, classzone, 0))
			return true;
	}
	return false;
}

static unsigned long rfc_enter(struct scan_control *sc, bool *skip)
{
	int max = MM->sysctl.max_reclaiming_tasks;
	if (max <= 0 || !current)
		return 0;
	sim_time_t start = local_now();
	bool waited = MM->rfc_reclaimers >= max;
	/* wait_event on the global queue; wake_up_all wakes every waiter, which re-tests in
	 * the queue's order (LIFO, as wait_event queues them), as kosaki_throttle.c does */
	while (MM->rfc_reclaimers >= max)
		sleep_on(&MM->rfc_reclaim_wait, 0, false);
	if (waited)
		trace_event(mmsim_reclaim_ticket_wait, "zid=-1 usec_delayed=%lu reclaimers=%d",
			    (unsigned long)((local_now() - start) / 1000), MM->rfc_reclaimers + 1);
	MM->rfc_reclaimers++;
	/* time_after(jiffies, start + HZ) */
	if (jiffies_between(start, local_now()) > (uint64_t)HZ && throttle_rfc_no_longer_needed(sc))
		*skip = true;
	return 1;
}

static void rfc_exit(struct scan_control *sc, unsigned long entered)
{
	(void)sc;
	if (!entered)
		return;
	MM->rfc_reclaimers--;
	wake_up_all(&MM->rfc_reclaim_wait);
}

static const struct param_desc params[] = {
    {"vm.max_reclaiming_tasks", P_INT, VM(max_reclaiming_tasks), 0, 100000, NULL,
     "KOSAKI's first reclaim throttle (RFC, Feb 2008): tasks in try_to_free_pages at once, "
     "machine-wide (0 = off; the RFC's limit: 2 x the nodes with memory)"},
};

const struct reclaim_policy policy_kosaki_throttle_rfc = {
    .name = "kosaki-throttle-rfc",
    .summary = "KOSAKI Motohiro, page reclaim throttle RFC (v1, Feb 2008, not merged)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(max_reclaiming_tasks),
    .ops = {.direct_reclaim_enter = rfc_enter, .direct_reclaim_exit = rfc_exit},
};
