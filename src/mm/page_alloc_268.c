/* The page allocator and watermarks of 2.6.8 (mm/page_alloc.c at v2.6.8; vm.reclaim_lru =
 * 2.6.8), for the 2004 kernels of the swap-token thread.
 *
 * Watermarks: min_free_kbytes = sqrt(lowmem KiB) in [128, 16384] (4x less than 2.6.25's);
 * pages_min shared out by zone size, pages_low = 2 x min, pages_high = 3 x min. Instead of
 * lowmem_reserve a zone has `protection` per allocation class: its own pages_low plus that
 * of every populated zone above it up to the class's first zone (sysctl
 * lower_zone_protection 0).
 *
 * __alloc_pages: a zone serves an allocation when it has (1 << order) + protection free
 * pages - pages_low, not pages_min, at every pass: before kswapd is woken, after (less a
 * quarter of pages_low for __GFP_HIGH), and after direct reclaim - or pages_high when the
 * caller cannot wait; PF_MEMALLOC and PF_MEMDIE callers ignore the marks. There is no
 * per-order test of the free blocks. A caller that may retry (order <= 3, or __GFP_REPEAT,
 * or __GFP_NOFAIL, and not __GFP_NORETRY) waits HZ/50 and reclaims again, forever: the OOM
 * killer is try_to_free_pages' business (oom_kill_268.c). kswapd is woken at pages_low,
 * without an order. */
#include "mm/mm.h"
#include "sim/int_sqrt.h"

/* init_per_zone_pages_min, 2.6.8 */
long min_free_kbytes_for_268(unsigned long lowmem_kbytes)
{
	long v = (long)int_sqrt(lowmem_kbytes);
	if (v < 128)
		v = 128;
	if (v > 16384)
		v = 16384;
	return v;
}

/* setup_per_zone_pages_min, 2.6.8 */
void setup_per_zone_pages_min_268(void)
{
	unsigned long pages_min =
	    (unsigned long)MM->sysctl.min_free_kbytes >> (MM->page_shift - 10);
	unsigned long lowmem_pages = 0;
	for (int i = 0; i < MM->nr_zones; i++)
		if (i != ZONE_HIGHMEM)
			lowmem_pages += MM->zones[i].present_pages;
	for (int i = 0; i < MM->nr_zones; i++) {
		struct zone *z = &MM->zones[i];
		if (!z->present_pages)
			continue;
		if (i == ZONE_HIGHMEM) {
			unsigned long m = z->present_pages / 1024;
			if (m < SWAP_CLUSTER_MAX)
				m = SWAP_CLUSTER_MAX;
			if (m > 128)
				m = 128;
			z->pages_min = m;
		} else {
			z->pages_min = (unsigned long)((uint64_t)pages_min * z->present_pages /
						       (lowmem_pages ? lowmem_pages : 1));
		}
		z->pages_low = z->pages_min * 2;
		z->pages_high = z->pages_min * 3;
		for (int j = 0; j < MAX_NR_ZONES; j++)
			z->lowmem_reserve[j] = 0; /* 2.6.8 has protection instead */
		z->inactive_ratio = 1;
	}
}

/* total_memory = nr_free_pagecache_pages() at kswapd_init, after the watermarks: the pages
 * above pages_high in every zone a page-cache allocation may use. */
unsigned long total_memory_268(void)
{
	unsigned long sum = 0;
	for (int i = 0; i < MM->nr_zones; i++) {
		const struct zone *z = &MM->zones[i];
		if (z->present_pages > z->pages_high)
			sum += z->present_pages - z->pages_high;
	}
	return sum;
}

/* setup_per_zone_protection with lower_zone_protection 0: the sum of pages_low from z up to
 * the class's first zone (higherzone_val's chain; zones above the highest populated one
 * contribute nothing). */
unsigned long zone_protection_268(const struct zone *z, int classzone)
{
	unsigned long sum = 0;
	for (int j = z->idx; j <= classzone; j++)
		sum += MM->zones[j].present_pages ? MM->zones[j].pages_low : 0;
	return sum;
}

enum pass { FIRST, HIGH, AFTER_RECLAIM };

/* One walk down the zonelist with 2.6.8's test. */
static pfn_t zonelist_pass(unsigned gfp, unsigned order, int high, int classzone, enum pass pass)
{
	bool wait = gfp & __GFP_WAIT;
	for (int i = high; i >= 0; i--) {
		struct zone *z = &MM->zones[i];
		if (!z->present_pages)
			continue;
		long min = (1L << order) + (long)zone_protection_268(z, classzone);
		if (pass == HIGH && (gfp & __GFP_HIGH))
			min -= (long)(z->pages_low >> 2);
		/* rt_task() callers dip deeper at the first two passes; the model has none */
		long free = zone_page_state(z, NR_FREE_PAGES);
		if (free >= min || (!wait && free >= (long)z->pages_high)) {
			pfn_t pfn = rmqueue(z, order, gfp);
			if (pfn != NO_PFN)
				return pfn;
		}
	}
	return NO_PFN;
}

pfn_t __alloc_pages_268(unsigned gfp, unsigned order)
{
	int high = gfp_zone(gfp);
	int classzone = first_populated(high); /* alloc_type = zone_idx(zones[0]) */
	bool wait = gfp & __GFP_WAIT;
	pfn_t pfn;

	if (current)
		cpu_work_sys(MM->hw->page_alloc_ns);
	pfn = zonelist_pass(gfp, order, high, classzone, FIRST);
	if (pfn != NO_PFN)
		return pfn;
	for (int i = high; i >= 0; i--)
		if (MM->zones[i].present_pages)
			wakeup_kswapd(&MM->zones[i], 0);
	pfn = zonelist_pass(gfp, order, high, classzone, HIGH);
	if (pfn != NO_PFN)
		return pfn;
	for (;;) { /* rebalance: */
		if (current && ((current->flags & PF_MEMALLOC) || (current->tif & TIF_MEMDIE))) {
			for (int i = high; i >= 0; i--) {
				if (!MM->zones[i].present_pages)
					continue;
				pfn = rmqueue(&MM->zones[i], order, gfp);
				if (pfn != NO_PFN)
					return pfn;
			}
			break;
		}
		if (!wait || !current)
			break;
		current->flags |= PF_MEMALLOC;
		struct reclaim_state reclaim_state = {0};
		current->reclaim_state = &reclaim_state;
		try_to_free_pages(order, gfp);
		current->reclaim_state = NULL;
		current->flags &= ~PF_MEMALLOC;
		pfn = zonelist_pass(gfp, order, high, classzone, AFTER_RECLAIM);
		if (pfn != NO_PFN)
			return pfn;
		bool do_retry = false;
		if (!(gfp & __GFP_NORETRY)) {
			if (order <= 3 || (gfp & __GFP_REPEAT))
				do_retry = true;
			if (gfp & __GFP_NOFAIL)
				do_retry = true;
		}
		if (!do_retry || MM->oom_stop_requested)
			break;
		congestion_wait(WRITE, HZ / 50 * JIFFY_NS); /* blk_congestion_wait */
	}
	MM->rstats.alloc_failures++;
	return NO_PFN;
}
