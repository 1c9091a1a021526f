/* isolate_lru_pages (kernel-reclaim.md §1.12, 2.6.28 mm/vmscan.c) with lumpy reclaim:
 * the pages a reclaimer takes off the LRU onto its private list, where they stay while it
 * works on them and possibly sleeps. */
#include "mm/vmscan.h"

static void isolate_page(struct zone *z, pfn_t pfn, enum lru_list lru, struct pagelist *dst)
{
	struct page *p = pfn_to_page(pfn);
	del_page_from_lru_list(z, pfn, lru);
	p->flags &= ~PG_lru;
	p->flags |= PG_isolated;
	int file = page_is_file_cache(p);
	z->nr_isolated[file]++;
	zone_stat_add(z, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON, 1);
	pagelist_add(dst, pfn);
}

/* __isolate_lru_page (2.6.28 mm/vmscan.c): only a page on an LRU, on a list of the asked
 * active state and type unless ISOLATE_BOTH, and evictable. The type is the list's (in
 * vm.reclaim_lru = 2.6.25 every evictable page is on the file lists, and 2.6.25's test
 * looked at the active state alone). No page on an LRU is being freed here, so the kernel's
 * -EBUSY case does not arise. */
static bool isolate_lru_page_ok(const struct page *p, int mode, int file)
{
	if (!(p->flags & PG_lru))
		return false;
	enum lru_list lru = page_lru(p);
	if (lru == LRU_UNEVICTABLE)
		return false;
	if (mode != ISOLATE_BOTH) {
		if (!(p->flags & PG_active) != !(mode == ISOLATE_ACTIVE))
			return false;
		if ((lru >= LRU_INACTIVE_FILE) != !!file)
			return false;
	}
	return true;
}

/* isolate_lru_pages (§1.12, 2.6.28): up to nr_to_scan pages from the tail of the list, and
 * for order > 0 lumpy reclaim: every other page of the tag page's naturally aligned 2^order
 * block that passes the same test, from whatever list it is on, each one taken counting as
 * scanned. A pfn of another zone is skipped (the kernel's zone-id test). */
unsigned long isolate_lru_pages(unsigned long nr_to_scan, struct zone *z, enum lru_list lru,
				struct pagelist *dst, unsigned long *scanned, int order, int mode)
{
	unsigned long scan, nr_taken = 0, nr_lumpy = 0;
	int file = lru >= LRU_INACTIVE_FILE;
	for (scan = 0; scan < nr_to_scan && z->lru[lru].nr; scan++) {
		pfn_t tag = z->lru[lru].tail;
		isolate_page(z, tag, lru, dst);
		nr_taken++;
		if (!order)
			continue;
		pfn_t pfn = tag & ~(((pfn_t)1 << order) - 1);
		pfn_t end = pfn + ((pfn_t)1 << order);
		if (end > MM->nr_frames)
			end = MM->nr_frames;
		for (; pfn < end; pfn++) {
			if (pfn == tag)
				continue;
			struct page *c = pfn_to_page(pfn);
			if (c->zone != z->idx || !isolate_lru_page_ok(c, mode, file))
				continue;
			isolate_page(z, pfn, page_lru(c), dst);
			nr_taken++;
			nr_lumpy++;
			scan++;
		}
	}
	*scanned = scan;
	count_vm_events(MMSIM_LUMPY_TAKEN, nr_lumpy);
	trace_event(mm_vmscan_lru_isolate,
		    "isolate_mode=%d order=%d nr_requested=%lu nr_scanned=%lu nr_taken=%lu "
		    "contig_taken=%lu contig_dirty=0 contig_failed=0",
		    mode, order, nr_to_scan, scan, nr_taken, nr_lumpy);
	spin_lock_hold(&z->lru_lock, MM->hw->isolate_ns * (scan ? scan : 1));
	return nr_taken;
}
