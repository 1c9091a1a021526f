/* KOSAKI Motohiro's "page reclaim throttle" v6-v8 (kernel-reclaim.md §2.2; seed threads 000
 * and 001), never merged: at most vm.max_reclaiming_tasks_per_zone tasks run shrink_zone on
 * a zone at once; the others wait on the zone's queue. A task holding a ticket carries
 * PF_RECLAIMING so it never waits for a ticket of its own. After waiting, direct reclaim
 * checks how much the whole machine freed since try_to_free_pages began (the PGFREE event
 * count): past 4 x (request + pages_high), and with the zone above its high watermark, the
 * task returns "progress" without scanning, because the others already did its work. */
#include "mm/policy/throttle.h"

#define VM(f) offsetof(struct vm_sysctl, f)

bool throttle_may_cut_off(struct zone *z, struct scan_control *sc)
{
	if (!sc->may_cut_off || current_is_kswapd())
		return false;
	uint64_t threshold = ((1ull << sc->order) + z->pages_high) * 4;
	uint64_t freed = vm_events[PGFREE];
	if (freed - sc->was_freed < threshold)
		return false;
	if (zone_watermark_ok(z, sc->order, z->pages_high, gfp_zone(sc->gfp_mask), 0))
		return true;
	sc->was_freed = freed;
	return false;
}

/* shrink_zone's entry in the v6-v8 patch ("[PATCH 4/5] add throttle to shrink_zone()"):
 * the ticket covers the list work only; the patch gives it back at the body's `out:`,
 * before shrink_zone's closing throttle_vm_writeout, so a holder waiting there for writeback
 * to drain keeps no other reclaimer out. */
unsigned long throttle_shrink_zone_enter(struct zone *z, struct scan_control *sc, bool *skip)
{
	int max = MM->sysctl.max_reclaiming_tasks_per_zone;
	/* v7+: GFP_NOIO/GFP_NOFS callers could deadlock against a ticket holder that waits on
	 * their I/O, so they are never throttled; nor is a nested call of a ticket holder. */
	if (max <= 0 || !current ||
	    (sc->gfp_mask & (__GFP_IO | __GFP_FS)) != (__GFP_IO | __GFP_FS) ||
	    (current->flags & PF_RECLAIMING))
		return 0;

	current->flags |= PF_RECLAIMING;
	/* wait_event(..., atomic_add_unless(&nr_reclaimers, 1, max)): the condition is tested
	 * before every sleep, and wake_up() wakes every (non-exclusive) waiter, which races
	 * for the ticket; the queue is LIFO as the kernel's, so the latest waiter is woken,
	 * and runs, first. */
	sim_time_t wait_start = local_now();
	bool waited = z->reclaimers >= max;
	while (z->reclaimers >= max)
		sleep_on(&z->reclaim_wait, 0, false);
	if (waited) /* only the waits: a free ticket is no event */
		trace_event(mmsim_reclaim_ticket_wait, "zid=%d usec_delayed=%lu reclaimers=%d",
			    (int)(z - MM->zones),
			    (unsigned long)((local_now() - wait_start) / 1000), z->reclaimers + 1);
	z->reclaimers++;
	if (throttle_may_cut_off(z, sc)) {
		sc->cut_off = 1; /* -EAGAIN: shrink_zones stops, the caller reports progress */
		*skip = true;
	}
	return 1;
}

void throttle_shrink_zone_exit(struct zone *z, struct scan_control *sc, unsigned long ticket)
{
	(void)sc;
	if (!ticket)
		return;
	current->flags &= ~PF_RECLAIMING;
	z->reclaimers--;
	wake_up_all(&z->reclaim_wait);
}

static const struct param_desc params[] = {
    {"vm.max_reclaiming_tasks_per_zone", P_INT, VM(max_reclaiming_tasks_per_zone), 0, 100000, NULL,
     "KOSAKI's reclaim throttle: tasks per zone in shrink_zone (0 = off)"},
};

const struct reclaim_policy policy_kosaki_throttle = {
    .name = "kosaki-throttle",
    .summary = "KOSAKI Motohiro, page reclaim throttle v6-v8 (2008, -mm, not merged)",
    .group = POLICY_GROUP_RECLAIM,
    .params = params,
    .nparams = ARRAY_SIZE(params),
    .on_switch = POLICY_SWITCH(max_reclaiming_tasks_per_zone), /* his own default was 3 */
    .ops = {.shrink_zone_enter = throttle_shrink_zone_enter,
	    .shrink_zone_exit = throttle_shrink_zone_exit},
};
