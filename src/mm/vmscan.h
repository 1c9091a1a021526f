/* Reclaim internals shared by vmscan.c, the policy switches and the tests. */
#ifndef MMSIM_MM_VMSCAN_H
#define MMSIM_MM_VMSCAN_H

#include "mm/mm.h"

struct scan_control {
	unsigned long nr_scanned;
	unsigned gfp_mask;
	int may_writepage;
	int may_swap;
	int swap_cluster_max;
	int swappiness;
	int all_unreclaimable;
	int order;
	unsigned long nr_reclaimed_so_far; /* for policies that look at progress */
	/* KOSAKI's throttle (§2.2): direct reclaim may stop once enough was freed */
	int may_cut_off;
	uint64_t was_freed; /* global PGFREE when try_to_free_pages began (or last checked) */
	int cut_off;	    /* set by the throttle: -EAGAIN, stop and report progress */
	int priority;	    /* of the shrink_inactive_list in progress (2011 writeback series) */
	unsigned long nr_writeback; /* pages shrink_page_list found under writeback */
	unsigned long nr_dirty;	    /* dirty pages it reached the writeback decision with */
	unsigned long nr_congested; /* of those, the ones pageout kept (a congested queue) */
	/* 2.6.25-rc1..rc6 (vm.reclaim_nap_needs_io): pages of this priority's pass under
	 * writeback, dirty but not writable by this caller, or still under I/O after pageout */
	unsigned long nr_io_pages;
	/* 2.6.8 (vmscan_268.c): read_page_state(nr_mapped) at the start of each priority's
	 * pass (direct) or of balance_pgdat (kswapd); shrink_zone's quota, counted down by what
	 * shrink_cache frees */
	unsigned long nr_mapped;
	long nr_to_reclaim;
};

/* One batch of shrink_inactive_list, as shrink_page_list left it. */
struct reclaim_batch {
	unsigned long nr_taken, nr_writeback, nr_dirty, nr_congested;
};

enum pageout_t { PAGE_KEEP, PAGE_KEEP_DIRTY, PAGE_ACTIVATE, PAGE_SUCCESS, PAGE_CLEAN };
enum { PAGEOUT_IO_ASYNC, PAGEOUT_IO_SYNC };

#define SHRINK_INACTIVE_PROCEED (-1L)

/* isolation modes (2.6.28 include/linux/swap.h) */
enum { ISOLATE_INACTIVE, ISOLATE_ACTIVE, ISOLATE_BOTH };
unsigned long isolate_lru_pages(unsigned long nr_to_scan, struct zone *z, enum lru_list lru,
				struct pagelist *dst, unsigned long *scanned, int order, int mode);
unsigned long shrink_page_list(struct pagelist *list, struct scan_control *sc, int sync);
/* pageout (§1.14): the locked dirty page to its mapping's writepage (src/mm/pageout.c) */
enum pageout_t pageout(pfn_t pfn, int sync);
/* __remove_mapping: detaches a clean, unmapped, unreferenced page from its cache */
bool remove_mapping(pfn_t pfn);
unsigned long shrink_inactive_list(unsigned long max_scan, struct zone *z, struct scan_control *sc,
				   int priority, int file);
void shrink_active_list(unsigned long nr_pages, struct zone *z, struct scan_control *sc,
			int priority, int file);
void shrink_active_putback(struct zone *z, struct pagelist *inactive, struct pagelist *active,
			   unsigned long taken);
void get_scan_ratio(struct zone *z, struct scan_control *sc, unsigned long percent[2]);
unsigned long shrink_zone(int priority, struct zone *z, struct scan_control *sc);
static inline bool current_is_kswapd(void)
{
	return current && (current->flags & PF_KSWAPD);
}
/* Every mapped page, file or anonymous: 2.6.8's nr_mapped, 2.6.25's NR_FILE_MAPPED +
 * NR_ANON_PAGES (§1.10's mapped_ratio) */
static inline unsigned long nr_mapped_pages(void)
{
	return (unsigned long)(global_page_state(NR_FILE_MAPPED) +
			       global_page_state(NR_ANON_PAGES));
}
/* A direct reclaimer's slab pages freed since its last call (reclaim_state), taken. */
unsigned long take_reclaimed_slab(struct scan_control *sc);
/* Puts shrink_inactive_list's kept pages back on their LRU lists. */
void putback_pages(struct zone *z, struct pagelist *list);
/* shrink_zone's scan accumulator for list l (2.6.8-2.6.27, §1.8): adds `add`, and returns
 * what it holds once that reaches a cluster (emptying it), else 0. */
unsigned long take_scan(struct zone *z, enum lru_list l, unsigned long add,
			const struct scan_control *sc);
/* vm.reclaim_lru = 2.6.8 (vmscan_268.c): its shrink_cache and refill_inactive_zone */
unsigned long shrink_cache_268(unsigned long nr_to_scan, struct zone *z, struct scan_control *sc);
void refill_inactive_zone_268(unsigned long nr_pages, struct zone *z, struct scan_control *sc);
/* vm.reclaim_lru = 2.6.25 (vmscan_2625.c): §1.10's test */
int calc_reclaim_mapped(const struct scan_control *sc, const struct zone *z, int priority);
/* do_try_to_free_pages' report and the reclaim nap, by kernel (vmscan_2625.c) */
unsigned long reclaim_progress(unsigned long nr_reclaimed);
bool reclaim_nap_wanted(const struct scan_control *sc, unsigned long scanned, int priority);

#endif
