/* Global reclaim as 2.6.25-2.6.27 did it (kernel-reclaim.md §1.8, §1.10, §1.11; switch
 * vm.reclaim_lru = 2.6.25): one active and one inactive list per zone holding anon and
 * file pages together, both sifted every pass (the "+1"), and mapped pages protected on
 * the active list until calc_reclaim_mapped says otherwise. The lists are the model's file
 * lists (page_lru() puts every evictable page there in this mode); shrink_inactive_list and
 * shrink_page_list are shared with 2.6.28, whose order of decisions differs from 2.6.27
 * only in the unevictable culling that has nothing to cull here. */
#include "mm/vmscan.h"

#include "mm/era/era.h"

#define NR_ACTIVE   NR_ACTIVE_FILE
#define NR_INACTIVE NR_INACTIVE_FILE

/* zone_is_near_oom (2.6.24-2.6.27): scanning has gone three times round the lists. */
static bool zone_is_near_oom(const struct zone *z)
{
	return z->pages_scanned >= (unsigned long)(z->stat[NR_ACTIVE] + z->stat[NR_INACTIVE]) * 3;
}

/* calc_reclaim_mapped (§1.10), integer arithmetic as the kernel's. */
int calc_reclaim_mapped(const struct scan_control *sc, const struct zone *z, int priority)
{
	if (zone_is_near_oom(z))
		return 1;
	int prio = z->prev_priority < priority ? z->prev_priority : priority;
	long distress = 100 >> prio;
	unsigned long total = MM->vm_total_pages ? MM->vm_total_pages : 1;
	long mapped_ratio = (long)nr_mapped_pages() * 100 / (long)total;
	long swap_tendency = mapped_ratio / 2 + distress + sc->swappiness;
	long imbalance = z->stat[NR_ACTIVE] / (z->stat[NR_INACTIVE] + 1);
	imbalance = imbalance * (MM->sysctl.swappiness + 1) / 100;
	imbalance = imbalance * mapped_ratio / 100;
	swap_tendency += imbalance;
	return swap_tendency >= 100;
}

/* shrink_active_list, 2.6.25-2.6.27 (§1.11): unmapped pages always go inactive; mapped ones
 * stay active unless reclaim_mapped, and then only if not referenced (anon pages stay
 * whenever there is no swap at all). */
static void shrink_active_list_2625(unsigned long nr_pages, struct zone *z, struct scan_control *sc,
				    int priority)
{
	struct pagelist hold, inactive, active;
	unsigned long pgscanned;
	pagelist_init(&hold);
	pagelist_init(&inactive);
	pagelist_init(&active);
	int reclaim_mapped = sc->may_swap ? calc_reclaim_mapped(sc, z, priority) : 0;
	unsigned long taken = isolate_lru_pages(nr_pages, z, LRU_ACTIVE_FILE, &hold, &pgscanned,
						sc->order, ISOLATE_ACTIVE);
	z->pages_scanned += pgscanned;
	count_zone_event(z, PGREFILL, pgscanned);

	while (hold.nr) {
		cond_resched();
		pfn_t pfn = pagelist_pop_tail(&hold);
		struct page *p = pfn_to_page(pfn);
		unsigned long vm_flags = 0;
		cpu_work_sys(MM->hw->scan_page_ns / 2);
		if (page_mapped(p) && (!reclaim_mapped || (MM->swap.nr_slots == 0 && PageAnon(p)) ||
				       page_referenced(pfn, false, &vm_flags))) {
			pagelist_add(&active, pfn);
			continue;
		}
		pagelist_add(&inactive, pfn);
	}
	shrink_active_putback(z, &inactive, &active, taken);
}

/* Takes what the accumulator holds once it reaches a cluster (§1.8; 2.6.8 the same). */
unsigned long take_scan(struct zone *z, enum lru_list l, unsigned long add,
			const struct scan_control *sc)
{
	z->nr_scan[l] += add;
	unsigned long nr = z->nr_scan[l];
	if (nr >= (unsigned long)sc->swap_cluster_max) {
		z->nr_scan[l] = 0;
		return nr;
	}
	return 0;
}

/* shrink_zone's list work, 2.6.25-2.6.27 (§1.8): both lists sifted, chunk by chunk in turn. */
static unsigned long shrink_zone_lists_2625(int priority, struct zone *z, struct scan_control *sc)
{
	unsigned long nr_reclaimed = 0;
	unsigned long nr_active =
	    take_scan(z, LRU_ACTIVE_FILE, ((unsigned long)z->stat[NR_ACTIVE] >> priority) + 1, sc);
	unsigned long nr_inactive = take_scan(
	    z, LRU_INACTIVE_FILE, ((unsigned long)z->stat[NR_INACTIVE] >> priority) + 1, sc);
	unsigned long max = (unsigned long)sc->swap_cluster_max;
	while (nr_active || nr_inactive) {
		if (nr_active) {
			unsigned long chunk = nr_active < max ? nr_active : max;
			nr_active -= chunk;
			shrink_active_list_2625(chunk, z, sc, priority);
		}
		if (nr_inactive) {
			unsigned long chunk = nr_inactive < max ? nr_inactive : max;
			nr_inactive -= chunk;
			nr_reclaimed += shrink_inactive_list(chunk, z, sc, priority, 1);
		}
	}
	return nr_reclaimed;
}

/* What do_try_to_free_pages reports after a full priority loop that left some zone
 * reclaimable (§1.6): 2.6.25 returned 1 ("progress") even when nothing was reclaimed; 2.6.26
 * made it the number reclaimed, so a pass that freed nothing now means OOM
 * (vm.reclaim_progress; auto follows the rule variant). */
unsigned long reclaim_progress(unsigned long nr_reclaimed)
{
	int progress = MM->sysctl.reclaim_progress;
	if (progress == RECLAIM_PROGRESS_AUTO)
		progress = MM->rules->progress;
	return progress == RECLAIM_PROGRESS_2625 && !nr_reclaimed ? 1 : nr_reclaimed;
}

/* The nap after a priority's pass in do_try_to_free_pages and balance_pgdat (§1.6, §1.15):
 * below DEF_PRIORITY - 2 when the pass scanned something; in 2.6.25-rc1..rc6 only when more
 * than a cluster of its pages had I/O pending or needed (vm.reclaim_nap_needs_io: Rik van
 * Riel's f1a9ee758de, reverted for -rc7 by 4dd4b920218). The callers zero the count at the
 * top of each priority's pass, as the kernel does. */
bool reclaim_nap_wanted(const struct scan_control *sc, unsigned long scanned, int priority)
{
	bool io = sc->nr_io_pages > (unsigned long)sc->swap_cluster_max;
	return scanned && priority < DEF_PRIORITY - 2 && (!MM->sysctl.reclaim_nap_needs_io || io);
}

const struct reclaim_rules reclaim_rules_2625 = {
    .name = "2.6.25",
    .summary = "one active and one inactive list per zone, calc_reclaim_mapped (2.6.25)",
    .split_lru = false,
    .swapin_active = true,
    .progress = RECLAIM_PROGRESS_2625,
    .shrink_zone_lists = shrink_zone_lists_2625,
    .throttle_vm_writeout = true,
    .alloc_floor_mins = 1,
};
