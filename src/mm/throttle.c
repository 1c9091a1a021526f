/* Reclaim throttles (kernel-reclaim.md §2).
 *
 * KOSAKI v6-v8 (§2.2): at most vm.max_reclaiming_tasks_per_zone tasks run shrink_zone on a
 * zone at once; the others wait on the zone's queue. A task holding a ticket carries
 * PF_RECLAIMING so it never waits for a ticket of its own. After waiting, direct reclaim
 * checks how much the whole machine freed since try_to_free_pages began (the PGFREE event
 * count): past 4 x (request + pages_high), and with the zone above its high watermark, the
 * task returns "progress" without scanning, because the others already did its work.
 *
 * 2.6.32 too_many_isolated (§2.3): a direct reclaimer entering shrink_inactive_list sleeps
 * in congestion_wait(HZ/10) while more pages of that LRU type are isolated than remain on
 * the inactive list.
 *
 * 5.16 reclaim_throttle (§2.4): the same isolation test (with the later inactive >>= 3 for
 * __GFP_IO|__GFP_FS callers) sleeps HZ/50 on a queue that is woken as soon as the test
 * fails, once per shrink_inactive_list call (then it gives up on the list); and a direct reclaimer
 * that reclaimed nothing by priority 1 sleeps one jiffy (NOPROGRESS, in its final 5.16 form). The
 * WRITEBACK and CONGESTED reasons are not modelled: they need pages under writeback with
 * PG_reclaim, which the throttle seeds' workloads do not produce; see docs/throttle.md. */
#include "mm/throttle.h"

#include <string.h>

static inline bool current_is_kswapd(void)
{
	return current && (current->flags & PF_KSWAPD);
}

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

unsigned long throttle_shrink_zone(int priority, struct zone *z, struct scan_control *sc)
{
	int max = MM->sysctl.max_reclaiming_tasks_per_zone;
	/* v7+: GFP_NOIO/GFP_NOFS callers could deadlock against a ticket holder that waits on
	 * their I/O, so they are never throttled; nor is a nested call of a ticket holder. */
	if (max <= 0 || !current ||
	    (sc->gfp_mask & (__GFP_IO | __GFP_FS)) != (__GFP_IO | __GFP_FS) ||
	    (current->flags & PF_RECLAIMING))
		return shrink_zone(priority, z, sc);

	current->flags |= PF_RECLAIMING;
	/* wait_event(..., atomic_add_unless(&nr_reclaimers, 1, max)): the condition is tested
	 * before every sleep, and wake_up() wakes every (non-exclusive) waiter, which races
	 * for the ticket; the queue is LIFO as the kernel's, so the latest waiter is woken,
	 * and runs, first. */
	sim_time_t wait_start = local_now();
	while (z->reclaimers >= max)
		sleep_on(&z->reclaim_wait, 0, false);
	trace_event(mmsim_reclaim_ticket_wait, "zid=%d usec_delayed=%lu reclaimers=%d",
		    (int)(z - MM->zones), (unsigned long)((local_now() - wait_start) / 1000),
		    z->reclaimers + 1);
	z->reclaimers++;

	unsigned long nr_reclaimed = 0;
	if (throttle_may_cut_off(z, sc))
		sc->cut_off = 1; /* -EAGAIN: shrink_zones stops, the caller reports progress */
	else
		nr_reclaimed = shrink_zone(priority, z, sc);

	current->flags &= ~PF_RECLAIMING;
	z->reclaimers--;
	wake_up_all(&z->reclaim_wait);
	return nr_reclaimed;
}

bool too_many_isolated(struct zone *z, int file, struct scan_control *sc, bool v516)
{
	if (current_is_kswapd())
		return false;
	long inactive = zone_page_state(z, file ? NR_INACTIVE_FILE : NR_INACTIVE_ANON);
	long isolated = zone_page_state(z, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON);
	if (MM->sysctl.reclaim_lru == RECLAIM_LRU_2625) /* one inactive list: compare totals */
		isolated =
		    zone_page_state(z, NR_ISOLATED_FILE) + zone_page_state(z, NR_ISOLATED_ANON);
	if (v516 && (sc->gfp_mask & (__GFP_IO | __GFP_FS)) == (__GFP_IO | __GFP_FS))
		inactive >>= 3;
	return isolated > inactive;
}

/* The node's throttle queues: one node, so the first zone's array serves as the pgdat's. */
static struct waitqueue *node_throttle_wait(enum vmscan_throttle_state reason)
{
	return &MM->zones[0].throttle_wait[reason];
}

/* reclaim_throttle(pgdat, reason) of 5.16: an uninterruptible sleep with a timeout. */
static void reclaim_throttle(enum vmscan_throttle_state reason)
{
	static const sim_time_t timeout[NR_VMSCAN_THROTTLE] = {
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

/* shrink_inactive_list entry (§2.3, §2.4). 2.6.32 naps until the test fails. 5.16 throttles
 * at most once per call: still too many isolated after the sleep, it returns 0 without
 * scanning (the `stalled` flag, from "mm, vmscan: do not loop on too_many_isolated for
 * ever", 4.14, which 5.16 kept around reclaim_throttle). */
static long isolated_throttle(struct zone *z, struct scan_control *sc, int file)
{
	if (MM->sysctl.reclaim_throttle) {
		bool stalled = false;
		while (too_many_isolated(z, file, sc, true)) {
			if (stalled)
				return 0;
			stalled = true;
			reclaim_throttle(VMSCAN_THROTTLE_ISOLATED);
			if (fatal_signal_pending(current))
				return SWAP_CLUSTER_MAX;
		}
		/* too_many_isolated wakes the throttled when it finds the test false; kswapd
		 * returns from it before the test, so kswapd never wakes them */
		struct waitqueue *wq = node_throttle_wait(VMSCAN_THROTTLE_ISOLATED);
		if (!current_is_kswapd() && waitqueue_active(wq))
			wake_up_all(wq);
		return SHRINK_INACTIVE_PROCEED;
	}
	while (too_many_isolated(z, file, sc, false)) {
		congestion_wait(WRITE, HZ / 10 * JIFFY_NS);
		if (fatal_signal_pending(current))
			return SWAP_CLUSTER_MAX;
	}
	return SHRINK_INACTIVE_PROCEED;
}

/* consider_reclaim_throttle (§2.4, NOPROGRESS in its final 5.16 form). */
static void consider_reclaim_throttle(struct scan_control *sc, int priority, unsigned long scanned,
				      unsigned long reclaimed)
{
	if (reclaimed > scanned / 8) {
		struct waitqueue *wq = node_throttle_wait(VMSCAN_THROTTLE_NOPROGRESS);
		if (waitqueue_active(wq))
			wake_up_one(wq);
		return;
	}
	(void)sc;
	if (current_is_kswapd())
		return;
	if (priority == 1 && !reclaimed)
		reclaim_throttle(VMSCAN_THROTTLE_NOPROGRESS);
}

void reclaim_throttle_setup(void)
{
	const struct vm_sysctl *s = &MM->sysctl;
	reclaim_hooks.shrink_zone_wrap =
	    s->max_reclaiming_tasks_per_zone > 0 ? throttle_shrink_zone : NULL;
	reclaim_hooks.shrink_inactive_throttle =
	    (s->too_many_isolated || s->reclaim_throttle) ? isolated_throttle : NULL;
	reclaim_hooks.after_shrink_zones = s->reclaim_throttle ? consider_reclaim_throttle : NULL;
}
