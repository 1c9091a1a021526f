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
};

enum pageout_t { PAGE_KEEP, PAGE_KEEP_DIRTY, PAGE_ACTIVATE, PAGE_SUCCESS, PAGE_CLEAN };
enum { PAGEOUT_IO_ASYNC, PAGEOUT_IO_SYNC };

#define SHRINK_INACTIVE_PROCEED (-1L)

/* Where the seed policies attach; every hook NULL is vanilla 2.6.28. */
struct reclaim_policy_hooks {
	/* replaces the call of shrink_zone from shrink_zones/balance_pgdat (throttles) */
	unsigned long (*shrink_zone_wrap)(int priority, struct zone *z, struct scan_control *sc);
	/* shrink_active_list: keep this referenced page active (VM_EXEC protection) */
	bool (*keep_active)(pfn_t pfn, unsigned long vm_flags, int file);
	/* shrink_zone: stop the round loop early (2.6.29 bail-out) */
	bool (*shrink_zone_bail)(struct scan_control *sc, int priority, unsigned long nr_reclaimed);
	/* shrink_inactive_list entry: SHRINK_INACTIVE_PROCEED to go on and scan, or what
	 * shrink_inactive_list returns at once: SWAP_CLUSTER_MAX (pretended progress with a
	 * fatal signal pending, §2.3) or 0 (5.16: still too many isolated after one throttle,
	 * §2.4) */
	long (*shrink_inactive_throttle)(struct zone *z, struct scan_control *sc, int file);
	/* do_try_to_free_pages, after each shrink_zones pass: pages scanned in the pass,
	 * reclaimed in the whole call so far (5.16 NOPROGRESS; §2.4) */
	void (*after_shrink_zones)(struct scan_control *sc, int priority, unsigned long scanned,
				   unsigned long reclaimed);
};
extern struct reclaim_policy_hooks reclaim_hooks;
extern void (*disable_swap_token_hook)(void);
extern bool (*swap_token_referenced_hook)(struct mm_struct *mm);

/* Switches that are not hooks: VM_EXEC protection (§3) and the 2011 writeback series (§5)
 * read MM->sysctl directly; exec_protect_setup() installs the keep_active hook. */
void exec_protect_setup(void);
/* §5.2: true when this reclaimer must not write this dirty file page now. */
bool reclaim_skip_file_writeback(pfn_t pfn, struct scan_control *sc);
/* §5.2 throttle: after a batch, wait if enough of it was under writeback. */
void reclaim_throttle_on_writeback(struct zone *z, struct scan_control *sc, unsigned long nr_taken,
				   unsigned long nr_writeback);

/* isolation modes (2.6.28 include/linux/swap.h) */
enum { ISOLATE_INACTIVE, ISOLATE_ACTIVE, ISOLATE_BOTH };
unsigned long isolate_lru_pages(unsigned long nr_to_scan, struct zone *z, enum lru_list lru,
				struct pagelist *dst, unsigned long *scanned, int order, int mode);
unsigned long shrink_page_list(struct pagelist *list, struct scan_control *sc, int sync);
unsigned long shrink_inactive_list(unsigned long max_scan, struct zone *z, struct scan_control *sc,
				   int priority, int file);
void shrink_active_list(unsigned long nr_pages, struct zone *z, struct scan_control *sc,
			int priority, int file);
void shrink_active_putback(struct zone *z, struct pagelist *inactive, struct pagelist *active,
			   unsigned long taken);
void get_scan_ratio(struct zone *z, struct scan_control *sc, unsigned long percent[2]);
unsigned long shrink_zone(int priority, struct zone *z, struct scan_control *sc);
/* vm.reclaim_lru = 2.6.25 (vmscan_2625.c): the two-list shrink_zone, and §1.10's test */
unsigned long shrink_zone_2625(int priority, struct zone *z, struct scan_control *sc);
int calc_reclaim_mapped(const struct scan_control *sc, const struct zone *z, int priority);

#endif
