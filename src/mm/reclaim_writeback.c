/* Mel Gorman's 2011 series "Reduce filesystem writeback from page reclaim" (kernel-reclaim.md
 * §5.2), each patch its own switch on the 2.6.28 base:
 *   vm.reclaim_direct_file_writeback = 0  direct reclaim never writes file pages (patch 1)
 *   vm.reclaim_kswapd_file_writeback = 1  kswapd writes them only at priority < DEF_PRIORITY-2
 *                                     = 0  kswapd never writes them (v2 patch 8)
 *   vm.reclaim_immediate = 1              a skipped dirty page gets PG_reclaim, so it goes to
 *                                         the inactive tail when its writeback ends (v3 7/7)
 *   vm.reclaim_throttle_writeback = 1     wait_iff_congested when a batch was mostly under
 *                                         writeback (v3 6/7)
 * With the defaults (1, 2, 0, 0) reclaim writes as vanilla does. Anonymous pages are always
 * written to swap: there is no flusher for them. */
#include "mm/vmscan.h"

bool reclaim_skip_file_writeback(pfn_t pfn, struct scan_control *sc)
{
	bool kswapd = current && (current->flags & PF_KSWAPD);
	bool skip;
	if (!kswapd)
		skip = !MM->sysctl.reclaim_direct_file_writeback;
	else if (MM->sysctl.reclaim_kswapd_file_writeback == 0)
		skip = true;
	else if (MM->sysctl.reclaim_kswapd_file_writeback == 1)
		skip = sc->priority >= DEF_PRIORITY - 2; /* writes only "getting into trouble" */
	else
		skip = false;
	if (!skip)
		return false;
	struct page *p = pfn_to_page(pfn);
	inc_zone_page_state(p, NR_VMSCAN_WRITE_SKIP);
	if (MM->sysctl.reclaim_immediate) {
		/* the flusher will write it; its end of writeback rotates it to the tail */
		p->flags |= PG_reclaim;
		inc_zone_page_state(p, NR_VMSCAN_IMMEDIATE);
	}
	return true;
}

/* wait_iff_congested (2.6.37+): sleep only when a backing device is congested, else just
 * offer to reschedule. The zone's ZONE_CONGESTED condition is approximated by the disk's
 * write congestion (docs/model.md). */
static void wait_iff_congested(sim_time_t timeout)
{
	sim_time_t start = local_now();
	if (!bdi_write_congested(&MM->disk))
		cond_resched();
	else
		congestion_wait_untraced(WRITE, timeout);
	trace_event(writeback_wait_iff_congested, "usec_timeout=%u usec_delayed=%u",
		    (unsigned)(timeout / 1000), (unsigned)((local_now() - start) / 1000));
}

void reclaim_throttle_on_writeback(struct zone *z, struct scan_control *sc, unsigned long nr_taken,
				   unsigned long nr_writeback)
{
	if (!MM->sysctl.reclaim_throttle_writeback || !nr_writeback)
		return;
	/* 100% of the batch under writeback at priority 12, 50% at 11, 25% at 10, ... */
	if (nr_writeback < (nr_taken >> (DEF_PRIORITY - sc->priority)))
		return;
	zone_stat_add(z, NR_VMSCAN_THROTTLED, 1);
	wait_iff_congested(HZ / 10 * JIFFY_NS);
}
