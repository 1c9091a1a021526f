/* Global reclaim as 2.6.8 did it (mm/vmscan.c at v2.6.8; vm.reclaim_lru = 2.6.8), for the
 * 2004 kernels of the swap-token thread (2.6.8-rc2). The lists are 2.6.25's: one active and
 * one inactive list per zone, anon and file together (the model's file lists). Where 2.6.8
 * differs from 2.6.25-2.6.27:
 *  - refill_inactive_zone takes `distress` from zone->prev_priority alone, reads mapped_ratio
 *    from the nr_mapped its caller sampled, has no imbalance term and no zone_is_near_oom,
 *    keeps every anonymous page active while there is no swap, and adds nothing to
 *    zone->pages_scanned;
 *  - shrink_cache works in batches of SWAP_CLUSTER_MAX whatever it was asked for, and counts
 *    one page more per batch than it took (its `nr_scan++ <` test);
 *  - shrink_zone stops once shrink_cache has freed SWAP_CLUSTER_MAX pages (nr_to_reclaim);
 *  - try_to_free_pages reports success only when one priority's pass freed a cluster, and
 *    otherwise calls out_of_memory itself (oom_kill_268.c); no throttle_vm_writeout, no
 *    lumpy reclaim (order is ignored);
 *  - balance_pgdat makes one pass over the priorities per wakeup, never naps (its
 *    total_scanned is never added to) and marks a zone all_unreclaimable after scanning
 *    twice its present pages. */
#include "mm/vmscan.h"

#include "mm/era/era.h"
#include "mm/policy/policy.h"

#include <string.h>

static unsigned long zone_free(const struct zone *z)
{
	return (unsigned long)zone_page_state(z, NR_FREE_PAGES);
}

/* shrink_cache: while nr_to_scan lasts, a batch of up to SWAP_CLUSTER_MAX pages off the
 * inactive list's tail; shrink_list (the model's shrink_page_list) decides each page. */
unsigned long shrink_cache_268(unsigned long nr_to_scan, struct zone *z, struct scan_control *sc)
{
	long max_scan = (long)nr_to_scan;
	unsigned long nr_reclaimed = 0;
	struct pagelist list;
	pagelist_init(&list);
	while (max_scan > 0) {
		unsigned long examined;
		unsigned long nr_taken = isolate_lru_pages(SWAP_CLUSTER_MAX, z, LRU_INACTIVE_FILE,
							   &list, &examined, 0, ISOLATE_INACTIVE);
		z->pages_scanned += nr_taken;
		if (!nr_taken)
			break;
		/* `while (nr_scan++ < SWAP_CLUSTER_MAX && !list_empty(...))` ends one past what
		 * it examined, and that is what pgscan counts */
		unsigned long nr_scan = examined + 1;
		max_scan -= (long)nr_scan;
		count_zone_event(z, current_is_kswapd() ? PGSCAN_KSWAPD : PGSCAN_DIRECT, nr_scan);
		count_vm_events(MMSIM_PGSCAN_FILE, nr_scan);
		unsigned long nr_freed = shrink_page_list(&list, sc, PAGEOUT_IO_ASYNC);
		if (current_is_kswapd())
			count_vm_events(KSWAPD_STEAL, nr_freed);
		count_zone_event(z, PGSTEAL, nr_freed);
		sc->nr_to_reclaim -= (long)nr_freed;
		nr_reclaimed += nr_freed;
		putback_pages(z, &list);
	}
	return nr_reclaimed;
}

/* refill_inactive_zone, 2.6.8 */
void refill_inactive_zone_268(unsigned long nr_pages, struct zone *z, struct scan_control *sc)
{
	struct pagelist hold, inactive, active;
	unsigned long pgscanned;
	pagelist_init(&hold);
	pagelist_init(&inactive);
	pagelist_init(&active);
	unsigned long taken =
	    isolate_lru_pages(nr_pages, z, LRU_ACTIVE_FILE, &hold, &pgscanned, 0, ISOLATE_ACTIVE);
	long distress = 100 >> z->prev_priority;
	unsigned long total = MM->vm_total_pages ? MM->vm_total_pages : 1;
	long mapped_ratio = (long)(sc->nr_mapped * 100 / total);
	long swap_tendency = mapped_ratio / 2 + distress + sc->swappiness;
	bool reclaim_mapped = swap_tendency >= 100;

	while (hold.nr) {
		cond_resched();
		pfn_t pfn = pagelist_pop_tail(&hold);
		struct page *p = pfn_to_page(pfn);
		unsigned long vm_flags = 0;
		cpu_work_sys(MM->hw->scan_page_ns / 2);
		if (page_mapped(p) && (!reclaim_mapped || page_referenced(pfn, false, &vm_flags))) {
			pagelist_add(&active, pfn);
			continue;
		}
		if (MM->swap.nr_slots == 0 && PageAnon(p)) {
			pagelist_add(&active, pfn);
			continue;
		}
		pagelist_add(&inactive, pfn);
	}
	shrink_active_putback(z, &inactive, &active, taken);
	count_zone_event(z, PGREFILL, pgscanned);
}

/* shrink_zone's list work, 2.6.8: the "+1" accumulators of 2.6.25, the lists in turn a
 * cluster at a time, until a cluster is freed. */
static unsigned long shrink_zone_lists_268(int priority, struct zone *z, struct scan_control *sc)
{
	unsigned long nr_active = take_scan(
	    z, LRU_ACTIVE_FILE, ((unsigned long)z->stat[NR_ACTIVE_FILE] >> priority) + 1, sc);
	unsigned long nr_inactive = take_scan(
	    z, LRU_INACTIVE_FILE, ((unsigned long)z->stat[NR_INACTIVE_FILE] >> priority) + 1, sc);
	unsigned long nr_reclaimed = 0;
	sc->nr_to_reclaim = SWAP_CLUSTER_MAX;
	while (nr_active || nr_inactive) {
		if (nr_active) {
			unsigned long chunk = MIN(nr_active, (unsigned long)SWAP_CLUSTER_MAX);
			nr_active -= chunk;
			refill_inactive_zone_268(chunk, z, sc);
		}
		if (nr_inactive) {
			unsigned long chunk = MIN(nr_inactive, (unsigned long)SWAP_CLUSTER_MAX);
			nr_inactive -= chunk;
			nr_reclaimed += shrink_cache_268(chunk, z, sc);
			if (sc->nr_to_reclaim <= 0)
				break;
		}
	}
	return nr_reclaimed;
}

/* try_to_free_pages' priority loop, 2.6.8. */
static unsigned long do_try_to_free_pages_268(struct scan_control *sc)
{
	int high = gfp_zone(sc->gfp_mask);
	unsigned long total_scanned = 0, lru_pages = 0, ret = 0;
	count_vm_event(ALLOCSTALL);
	for (int i = high; i >= 0; i--) {
		struct zone *z = &MM->zones[i];
		if (!z->present_pages)
			continue;
		z->temp_priority = DEF_PRIORITY;
		lru_pages += zone_lru_pages(z);
	}
	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		unsigned long nr_reclaimed = 0;
		sc->nr_mapped = nr_mapped_pages();
		sc->nr_scanned = sc->nr_io_pages = 0;
		if (!priority)
			policy_call_all(priority_zero);
		/* shrink_caches */
		for (int i = high; i >= 0; i--) {
			struct zone *z = &MM->zones[i];
			if (!z->present_pages)
				continue;
			z->temp_priority = priority;
			if (z->prev_priority > priority)
				z->prev_priority = priority;
			if (z->all_unreclaimable && priority != DEF_PRIORITY)
				continue;
			unsigned long freed = shrink_zone(priority, z, sc);
			nr_reclaimed += freed;
			sc->nr_reclaimed_so_far += freed;
			if (sc->cut_off)
				break;
		}
		if (sc->cut_off) { /* a policy's -EAGAIN (§2.2) */
			ret = 1;
			goto out;
		}
		policy_call_all(after_shrink_zones, sc, priority, sc->nr_scanned, nr_reclaimed);
		shrink_slab_268(sc->nr_scanned, sc->gfp_mask, lru_pages);
		nr_reclaimed += take_reclaimed_slab(sc);
		if (nr_reclaimed >= SWAP_CLUSTER_MAX) {
			ret = 1;
			goto out;
		}
		total_scanned += sc->nr_scanned;
		if (total_scanned > SWAP_CLUSTER_MAX + SWAP_CLUSTER_MAX / 2) {
			wakeup_pdflush(MM->sysctl.laptop_mode ? 0 : (long)total_scanned);
			sc->may_writepage = 1;
		}
		if (sc->nr_scanned && priority < DEF_PRIORITY - 2)
			congestion_wait(WRITE, HZ / 10 * JIFFY_NS); /* blk_congestion_wait */
	}
	if ((sc->gfp_mask & __GFP_FS) && !(sc->gfp_mask & __GFP_NORETRY))
		out_of_memory_268(sc->gfp_mask);
out:
	for (int i = high; i >= 0; i--)
		if (MM->zones[i].present_pages)
			MM->zones[i].prev_priority = MM->zones[i].temp_priority;
	return ret;
}

/* balance_pgdat, 2.6.8: the priorities once, down to where every zone is above pages_high. */
static unsigned long balance_pgdat_268(int order)
{
	(void)order; /* 2.6.8's kswapd has no order */
	struct reclaim_state *reclaim_state = current ? current->reclaim_state : NULL;
	struct scan_control sc;
	unsigned long total_reclaimed = 0;
	memset(&sc, 0, sizeof(sc));
	sc.gfp_mask = GFP_KERNEL;
	sc.may_swap = 1;
	sc.swap_cluster_max = SWAP_CLUSTER_MAX;
	sc.swappiness = MM->sysctl.swappiness;
	/* sc.may_writepage = 0 matters only in laptop mode, and only total_scanned could
	 * raise it, which 2.6.8 never adds to */
	sc.may_writepage = !MM->sysctl.laptop_mode;
	sc.nr_mapped = nr_mapped_pages();
	count_vm_event(PAGEOUTRUN);
	for (int i = 0; i < MM->nr_zones; i++)
		MM->zones[i].temp_priority = DEF_PRIORITY;
	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		bool all_zones_ok = true;
		int end_zone = -1;
		unsigned long lru_pages = 0;
		if (!priority)
			policy_call_all(priority_zero);
		cpu_work_sys(MM->hw->scan_page_ns); /* pass overhead: no pass is free */
		for (int i = MM->nr_zones - 1; i >= 0; i--) {
			struct zone *z = &MM->zones[i];
			if (!z->present_pages)
				continue;
			if (z->all_unreclaimable && priority != DEF_PRIORITY)
				continue;
			if (zone_free(z) <= z->pages_high) {
				end_zone = i;
				break;
			}
		}
		if (end_zone < 0)
			break;
		for (int i = 0; i <= end_zone; i++)
			lru_pages += zone_lru_pages(&MM->zones[i]);
		for (int i = 0; i <= end_zone; i++) {
			struct zone *z = &MM->zones[i];
			if (!z->present_pages)
				continue;
			if (z->all_unreclaimable && priority != DEF_PRIORITY)
				continue;
			if (zone_free(z) <= z->pages_high)
				all_zones_ok = false;
			z->temp_priority = priority;
			if (z->prev_priority > priority)
				z->prev_priority = priority;
			sc.nr_scanned = 0;
			unsigned long reclaimed = shrink_zone(priority, z, &sc);
			if (reclaim_state)
				reclaim_state->reclaimed_slab = 0;
			shrink_slab_268(sc.nr_scanned, GFP_KERNEL, lru_pages);
			if (reclaim_state)
				reclaimed += reclaim_state->reclaimed_slab;
			total_reclaimed += reclaimed;
			if (z->all_unreclaimable)
				continue;
			if (z->pages_scanned > z->present_pages * 2)
				z->all_unreclaimable = true;
		}
		if (all_zones_ok)
			break;
	}
	for (int i = 0; i < MM->nr_zones; i++)
		MM->zones[i].prev_priority = MM->zones[i].temp_priority;
	return total_reclaimed;
}

const struct reclaim_rules reclaim_rules_268 = {
    .name = "2.6.8",
    .summary = "2.6.8: two lists, refill_inactive_zone, shrink_zone's quota, its allocator and "
	       "OOM killer",
    .split_lru = false,
    .swapin_active = true,
    .swapin_window_from_start = true,
    .progress = RECLAIM_PROGRESS_2625, /* unused: do_try_to_free_pages_268 reports */
    .shrink_zone_lists = shrink_zone_lists_268,
    .throttle_vm_writeout = false,
    .alloc_floor_mins = 2,
    .do_try_to_free_pages = do_try_to_free_pages_268,
    .balance_pgdat = balance_pgdat_268,
    .alloc_pages = __alloc_pages_268,
    .min_free_kbytes_for = min_free_kbytes_for_268,
    .setup_per_zone_pages_min = setup_per_zone_pages_min_268,
    .total_memory = total_memory_268,
};
