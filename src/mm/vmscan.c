/* Page reclaim, vanilla 2.6.28 split LRU (kernel-reclaim.md §1.6-§1.16): direct reclaim's
 * priority loop, shrink_zones, shrink_zone with get_scan_ratio, shrink_active_list,
 * shrink_inactive_list with isolate_lru_pages, shrink_page_list in the kernel's decision
 * order, pageout, and kswapd's balance_pgdat. Isolated pages sit on the reclaimer's private
 * list, off the LRU, while it works on them and possibly sleeps. */
#include "mm/vmscan.h"

#include "mm/era/era.h"
#include "mm/policy/policy.h"

#include <string.h>

unsigned long zone_lru_pages(const struct zone *z)
{
	return (unsigned long)(z->stat[NR_ACTIVE_ANON] + z->stat[NR_INACTIVE_ANON] +
			       z->stat[NR_ACTIVE_FILE] + z->stat[NR_INACTIVE_FILE]);
}

bool inactive_anon_is_low(const struct zone *z)
{
	unsigned long active = (unsigned long)z->stat[NR_ACTIVE_ANON];
	unsigned long inactive = (unsigned long)z->stat[NR_INACTIVE_ANON];
	return inactive * z->inactive_ratio < active;
}

/* An isolated page freed by reclaim. */
static void free_isolated_page(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	struct zone *z = page_zone(p);
	int file = page_is_file_cache(p);
	z->nr_isolated[file]--;
	zone_stat_add(z, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON, -1);
	__free_page(pfn);
}

/* shrink_page_list (§1.13): the decision order per page. Kept pages stay on `list` for the
 * caller to put back; freed pages leave it. */
unsigned long shrink_page_list(struct pagelist *list, struct scan_control *sc, int sync)
{
	struct pagelist ret;
	unsigned long nr_reclaimed = 0, pgactivate = 0;
	pagelist_init(&ret);

	while (list->nr) {
		cond_resched();
		pfn_t pfn = pagelist_pop_tail(list);
		struct page *p = pfn_to_page(pfn);
		unsigned long vm_flags = 0;
		cpu_work_sys(MM->hw->scan_page_ns);

		if (!trylock_page(pfn))
			goto keep;
		sc->nr_scanned++;
		if (p->flags & PG_unevictable)
			goto keep_locked;
		if (!sc->may_swap && page_mapped(p))
			goto keep_locked;
		/* Counted twice, as 2.6.28 does ("double the slab pressure"): sc->nr_scanned drives
		 * shrink_slab's pressure and the total_scanned that wakes pdflush (§1.6). */
		if (page_mapped(p) || (p->flags & PG_swapcache))
			sc->nr_scanned++;
		bool may_enter_fs = (sc->gfp_mask & __GFP_FS) ||
				    ((p->flags & PG_swapcache) && (sc->gfp_mask & __GFP_IO));

		if (p->flags & PG_writeback) {
			sc->nr_writeback++;
			if (sync == PAGEOUT_IO_SYNC && may_enter_fs) {
				wait_on_page_writeback(pfn);
			} else {
				sc->nr_io_pages++; /* 2.6.25-rc1..rc6 */
				goto keep_locked;
			}
		}

		int referenced = page_referenced(pfn, true, &vm_flags);
		if (sc->order <= PAGE_ALLOC_COSTLY_ORDER && referenced && page_mapping_inuse(pfn))
			goto activate_locked;

		if (PageAnon(p) && !(p->flags & PG_swapcache)) {
			if (!(sc->gfp_mask & __GFP_IO))
				goto keep_locked;
			if (!add_to_swap(pfn))
				goto activate_locked;
			may_enter_fs = true;
		}

		if (page_mapped(p)) {
			switch (try_to_unmap(pfn)) {
			case SWAP_FAIL:
				goto activate_locked;
			case SWAP_AGAIN:
			case SWAP_MLOCK:
				goto keep_locked;
			case SWAP_SUCCESS:
				break;
			}
		}

		if (p->flags & PG_dirty) {
			sc->nr_dirty++;
			if (page_is_file_cache(p) && policy_skip_file_writeback(pfn, sc))
				goto keep_locked;
			if (sc->order <= PAGE_ALLOC_COSTLY_ORDER && referenced)
				goto keep_locked;
			if (!may_enter_fs) {
				sc->nr_io_pages++;
				goto keep_locked;
			}
			if (!sc->may_writepage)
				goto keep_locked;
			switch (pageout(pfn, sync)) {
			case PAGE_KEEP:
				sc->nr_congested++; /* as 3.0 counts it */
				goto keep_locked;
			case PAGE_KEEP_DIRTY:
				goto keep_locked;
			case PAGE_ACTIVATE:
				goto activate_locked;
			case PAGE_SUCCESS:
				if (p->flags & (PG_writeback | PG_dirty)) {
					sc->nr_io_pages++;
					goto keep;
				}
				if (!trylock_page(pfn))
					goto keep;
				if (p->flags & (PG_writeback | PG_dirty))
					goto keep_locked;
				break;
			case PAGE_CLEAN:
				break;
			}
		}

		if (!remove_mapping(pfn))
			goto keep_locked;
		/* free_it */
		unlock_page(pfn);
		nr_reclaimed++;
		free_isolated_page(pfn);
		continue;

	activate_locked:
		/* 2.6.28: not a candidate for swapping, so reclaim the swap space (2.6.25 keeps
		 * it) */
		if ((p->flags & PG_swapcache) && vm_swap_full() && MM->rules->split_lru)
			remove_exclusive_swap_page_ref(pfn);
		p->flags |= PG_active;
		pgactivate++;
	keep_locked:
		unlock_page(pfn);
	keep:
		pagelist_add(&ret, pfn);
	}
	/* list_splice(&ret_pages, page_list): the caller puts the kept pages back on the LRU in
	 * the order the kernel's would, which decides what the next scan meets first. */
	while (ret.nr)
		pagelist_add(list, pagelist_pop_tail(&ret));
	count_vm_events(PGACTIVATE, pgactivate);
	return nr_reclaimed;
}

void putback_pages(struct zone *z, struct pagelist *list)
{
	unsigned long n = list->nr;
	while (list->nr) {
		pfn_t pfn = pagelist_pop_tail(list);
		struct page *p = pfn_to_page(pfn);
		if (p->flags & PG_active)
			z->recent_rotated[page_is_file_cache(p)]++;
		putback_lru_page(pfn);
	}
	spin_lock_hold(&z->lru_lock, MM->hw->lru_add_ns * n);
}

/* clear_active_flags: lumpy reclaim may have taken active pages; they go back inactive
 * unless reclaim activates them again. Counts what was taken per type into recent_scanned
 * (the kernel's count[] per list, summed by type). */
static unsigned long clear_active_flags(struct zone *z, struct pagelist *list, bool scanned)
{
	unsigned long nr_active = 0;
	for (pfn_t pfn = list->head; pfn != NO_PFN; pfn = pfn_to_page(pfn)->next) {
		struct page *p = pfn_to_page(pfn);
		if (p->flags & PG_active) {
			p->flags &= ~PG_active;
			nr_active++;
		}
		if (scanned)
			z->recent_scanned[page_is_file_cache(p)]++;
	}
	return nr_active;
}

/* The isolation mode (§1.12 step 1): lumpy reclaim takes active neighbours too for a
 * costly order, and in 2.6.28 for any order > 0 once priority has fallen below
 * DEF_PRIORITY - 2 (2.6.25-2.6.27: costly orders only). */
static int inactive_isolate_mode(const struct scan_control *sc, int priority)
{
	if (sc->order > PAGE_ALLOC_COSTLY_ORDER)
		return ISOLATE_BOTH;
	if (MM->rules->split_lru && sc->order && priority < DEF_PRIORITY - 2)
		return ISOLATE_BOTH;
	return ISOLATE_INACTIVE;
}

/* shrink_inactive_list (§1.12). */
unsigned long shrink_inactive_list(unsigned long max_scan, struct zone *z, struct scan_control *sc,
				   int priority, int file)
{
	unsigned long nr_scanned = 0, nr_reclaimed = 0;
	struct pagelist list;
	pagelist_init(&list);
	sc->priority = priority;
	if (policy_hooked(shrink_inactive_throttle)) {
		long ret = mm_active.shrink_inactive_throttle[0]->ops.shrink_inactive_throttle(
		    z, sc, file);
		if (ret != SHRINK_INACTIVE_PROCEED)
			return (unsigned long)ret;
	}
	do {
		unsigned long nr_scan;
		enum lru_list lru = file ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
		unsigned long nr_taken =
		    isolate_lru_pages(sc->swap_cluster_max, z, lru, &list, &nr_scan, sc->order,
				      inactive_isolate_mode(sc, priority));
		count_vm_events(PGDEACTIVATE, clear_active_flags(z, &list, true));
		z->pages_scanned += nr_scan;
		nr_scanned += nr_scan;
		count_vm_events(file ? MMSIM_PGSCAN_FILE : MMSIM_PGSCAN_ANON, nr_scan);
		struct reclaim_batch b = {nr_taken, sc->nr_writeback, sc->nr_dirty,
					  sc->nr_congested};
		unsigned long nr_freed = shrink_page_list(&list, sc, PAGEOUT_IO_ASYNC);
		/* a costly-order direct reclaimer waits for the I/O it started and tries the
		 * rest of the batch again, synchronously */
		if (nr_freed < nr_taken && !current_is_kswapd() &&
		    sc->order > PAGE_ALLOC_COSTLY_ORDER) {
			congestion_wait(WRITE, HZ / 10 * JIFFY_NS);
			count_vm_events(PGDEACTIVATE, clear_active_flags(z, &list, false));
			nr_freed += shrink_page_list(&list, sc, PAGEOUT_IO_SYNC);
		}
		nr_reclaimed += nr_freed;
		if (current_is_kswapd()) {
			count_zone_event(z, PGSCAN_KSWAPD, nr_scan);
			count_vm_events(KSWAPD_STEAL, nr_freed);
			count_vm_events(PGSTEAL_KSWAPD, nr_freed);
		} else {
			count_zone_event(z, PGSCAN_DIRECT, nr_scan);
			count_vm_events(PGSTEAL_DIRECT, nr_freed);
		}
		count_zone_event(z, PGSTEAL, nr_freed);
		if (nr_taken == 0)
			break;
		putback_pages(z, &list);
		b.nr_writeback = sc->nr_writeback - b.nr_writeback;
		b.nr_dirty = sc->nr_dirty - b.nr_dirty;
		b.nr_congested = sc->nr_congested - b.nr_congested;
		policy_call_all(after_putback, z, sc, &b);
	} while (nr_scanned < max_scan);
	trace_event(mm_vmscan_lru_shrink_inactive,
		    "nid=0 zid=%d nr_scanned=%lu nr_reclaimed=%lu priority=%d flags=%s",
		    (int)(z - MM->zones), nr_scanned, nr_reclaimed, priority,
		    TRACE_RECLAIM_FLAGS(file));
	return nr_reclaimed;
}

/* shrink_active_list (§1.11, 2.6.28): every page goes to the inactive list; referenced
 * mapped pages only feed recent_rotated. */
void shrink_active_list(unsigned long nr_pages, struct zone *z, struct scan_control *sc,
			int priority, int file)
{
	(void)priority; /* the active list is aged the same way at every priority in 2.6.28 */
	struct pagelist hold, inactive, active;
	unsigned long pgscanned, pgmoved = 0;
	pagelist_init(&hold);
	pagelist_init(&inactive);
	pagelist_init(&active);
	enum lru_list lru = file ? LRU_ACTIVE_FILE : LRU_ACTIVE_ANON;
	unsigned long taken =
	    isolate_lru_pages(nr_pages, z, lru, &hold, &pgscanned, sc->order, ISOLATE_ACTIVE);
	z->pages_scanned += pgscanned;
	z->recent_scanned[file] += taken;
	count_zone_event(z, PGREFILL, pgscanned);
	count_vm_events(file ? MMSIM_PGREFILL_FILE : MMSIM_PGREFILL_ANON, pgscanned);

	while (hold.nr) {
		cond_resched();
		pfn_t pfn = pagelist_pop_tail(&hold);
		struct page *p = pfn_to_page(pfn);
		unsigned long vm_flags = 0;
		cpu_work_sys(MM->hw->scan_page_ns / 2);
		if (p->flags & PG_unevictable) {
			putback_lru_page(pfn);
			continue;
		}
		const struct address_space *m = file ? page_mapping(p) : NULL;
		bool exec = m && m->exec;
		if (page_mapping_inuse(pfn) && page_referenced(pfn, false, &vm_flags)) {
			pgmoved++;
			if (policy_any_true_keep_active(pfn, vm_flags, file)) {
				if (exec)
					count_vm_event(MMSIM_EXEC_KEPT_ACTIVE);
				pagelist_add(&active, pfn);
				continue;
			}
			if (exec && (vm_flags & VM_EXEC)) {
				count_vm_event(MMSIM_EXEC_DEACT_REFERENCED);
				exec = false;
			}
		}
		if (exec)
			count_vm_event(MMSIM_EXEC_DEACT_UNREFERENCED);
		pagelist_add(&inactive, pfn);
	}
	z->recent_rotated[file] += pgmoved;
	shrink_active_putback(z, &inactive, &active, taken);
}

/* The end of shrink_active_list (2.6.25 and 2.6.28 alike): the deactivated pages to the head
 * of the inactive list with PG_active cleared, the rest back to the active list. 2.6.28
 * moves the deactivated pages through a pagevec released whenever it fills, and only the
 * last, partly filled one has its swap slots released when swap is full
 * (pagevec_swap_free); 2.6.25 releases none, nor does 2.6.30 on (vm.deactivate_keeps_swap). */
#define PAGEVEC_SIZE 14
void shrink_active_putback(struct zone *z, struct pagelist *inactive, struct pagelist *active,
			   unsigned long taken)
{
	unsigned long nr_deact = 0;
	pfn_t pvec[PAGEVEC_SIZE];
	unsigned nr_pvec = 0;
	while (inactive->nr) {
		pfn_t pfn = pagelist_pop_tail(inactive);
		pfn_to_page(pfn)->flags &= ~PG_active;
		putback_lru_page(pfn);
		nr_deact++;
		pvec[nr_pvec++] = pfn;
		if (nr_pvec == PAGEVEC_SIZE)
			nr_pvec = 0; /* __pagevec_release */
	}
	if (vm_swap_full() && MM->rules->split_lru && !policy_hooked(deactivate_keeps_swap))
		pagevec_swap_free(pvec, nr_pvec);
	while (active->nr)
		putback_lru_page(pagelist_pop_tail(active));
	count_vm_events(PGDEACTIVATE, nr_deact);
	spin_lock_hold(&z->lru_lock, MM->hw->lru_add_ns * (taken ? taken : 1));
}

/* get_scan_ratio (§1.9), integer arithmetic throughout. */
void get_scan_ratio(struct zone *z, struct scan_control *sc, unsigned long percent[2])
{
	unsigned long anon = (unsigned long)(z->stat[NR_ACTIVE_ANON] + z->stat[NR_INACTIVE_ANON]);
	unsigned long file = (unsigned long)(z->stat[NR_ACTIVE_FILE] + z->stat[NR_INACTIVE_FILE]);
	unsigned long free = (unsigned long)z->stat[NR_FREE_PAGES];
	if (MM->swap.nr_free == 0) {
		percent[0] = 0;
		percent[1] = 100;
		return;
	}
	if (file + free <= z->pages_high) {
		percent[0] = 100;
		percent[1] = 0;
		return;
	}
	if (z->recent_scanned[0] > anon / 4) {
		z->recent_scanned[0] /= 2;
		z->recent_rotated[0] /= 2;
	}
	if (z->recent_scanned[1] > file / 4) {
		z->recent_scanned[1] /= 2;
		z->recent_rotated[1] /= 2;
	}
	unsigned long anon_prio = (unsigned long)sc->swappiness;
	unsigned long file_prio = 200 - (unsigned long)sc->swappiness;
	unsigned long ap =
	    (anon_prio + 1) * (z->recent_scanned[0] + 1) / (z->recent_rotated[0] + 1);
	unsigned long fp =
	    (file_prio + 1) * (z->recent_scanned[1] + 1) / (z->recent_rotated[1] + 1);
	percent[0] = 100 * ap / (ap + fp + 1);
	percent[1] = 100 - percent[0];
	count_vm_event(MMSIM_SCAN_RATIO_CALLS);
	count_vm_events(MMSIM_SCAN_RATIO_ANON_SUM, percent[0]);
}

/* shrink_list (§1.8 step 4), with the 2.6.28 fall-through for the active anon list; a
 * policy may send the active file list's share to the inactive file list the same way
 * (2.6.31's inactive_file_is_low). */
static unsigned long shrink_list(enum lru_list l, unsigned long nr, struct zone *z,
				 struct scan_control *sc, int priority)
{
	int file = l >= LRU_INACTIVE_FILE;
	if (l == LRU_ACTIVE_FILE) {
		if (policy_active_file_falls_through(z))
			return shrink_inactive_list(nr, z, sc, priority, 1);
		shrink_active_list(nr, z, sc, priority, 1);
		return 0;
	}
	if (l == LRU_ACTIVE_ANON && inactive_anon_is_low(z)) {
		shrink_active_list(nr, z, sc, priority, 0);
		return 0;
	}
	return shrink_inactive_list(nr, z, sc, priority, file);
}

/* shrink_zone's list work, 2.6.28 (§1.8): the scan of each list in proportion to
 * get_scan_ratio, chunk by chunk in turn, then aging the anon list. */
static unsigned long shrink_zone_lists_2628(int priority, struct zone *z, struct scan_control *sc)
{
	unsigned long nr[NR_EVICTABLE_LRU], percent[2], nr_reclaimed = 0;
	get_scan_ratio(z, sc, percent);
	for (int l = 0; l < NR_EVICTABLE_LRU; l++) {
		int file = l >= LRU_INACTIVE_FILE;
		unsigned long scan = (unsigned long)z->stat[NR_LRU_BASE + l];
		if (priority) {
			scan >>= priority;
			scan = scan * percent[file] / 100;
		}
		z->nr_scan[l] += scan;
		nr[l] = z->nr_scan[l];
		if (nr[l] >= (unsigned long)sc->swap_cluster_max)
			z->nr_scan[l] = 0;
		else
			nr[l] = 0;
	}
	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		for (int l = 0; l < NR_EVICTABLE_LRU; l++) {
			if (!nr[l])
				continue;
			unsigned long chunk = MIN(nr[l], (unsigned long)sc->swap_cluster_max);
			nr[l] -= chunk;
			nr_reclaimed += shrink_list((enum lru_list)l, chunk, z, sc, priority);
		}
		if (policy_shrink_zone_bails_out(sc, nr_reclaimed, priority))
			break;
	}
	/* §1.8 step 5: the anon lists are rebalanced even when get_scan_ratio gave anon no
	 * share, so inactive anon pages are ready once swapping starts. */
	if (inactive_anon_is_low(z))
		shrink_active_list(SWAP_CLUSTER_MAX, z, sc, priority, 0);
	return nr_reclaimed;
}

const struct reclaim_rules reclaim_rules_2628 = {
    .name = "2.6.28",
    .summary = "split LRU: anon and file lists, get_scan_ratio (Rik van Riel, 2.6.28)",
    .split_lru = true,
    .swapin_active = false,
    .progress = RECLAIM_PROGRESS_2626,
    .shrink_zone_lists = shrink_zone_lists_2628,
    .throttle_vm_writeout = true,
    .alloc_floor_mins = 1,
};

/* shrink_zone (§1.8): the era's list work, a policy's gate around it, then
 * throttle_vm_writeout. rs->shrinking counts the tasks inside, but not those waiting at the
 * gate (they are not reclaiming). */
unsigned long shrink_zone(int priority, struct zone *z, struct scan_control *sc)
{
	struct reclaim_stats *rs = &MM->rstats;
	const struct reclaim_policy *gate = mm_active.shrink_zone_enter[0];
	cpu_work_sys(MM->hw->scan_page_ns); /* entry overhead: no pass is free */
	bool skip = false;
	unsigned long entered = gate ? gate->ops.shrink_zone_enter(z, sc, &skip) : 0;
	if (skip) { /* KOSAKI's -EAGAIN: return before the list work */
		gate->ops.shrink_zone_exit(z, sc, entered);
		return 0;
	}
	if (++rs->shrinking > rs->max_shrinking)
		rs->max_shrinking = rs->shrinking;
	unsigned long nr_reclaimed = MM->rules->shrink_zone_lists(priority, z, sc);
	if (gate)
		gate->ops.shrink_zone_exit(z, sc, entered);
	if (MM->rules->throttle_vm_writeout)
		throttle_vm_writeout(sc->gfp_mask);
	rs->shrinking--;
	return nr_reclaimed;
}

/* What the shrinkers freed during a direct reclaimer's shrink_slab (its reclaim_state),
 * counted as reclaimed (the kernel adds reclaimed_slab to sc.nr_reclaimed and zeroes it). */
unsigned long take_reclaimed_slab(struct scan_control *sc)
{
	if (!current || !current->reclaim_state)
		return 0;
	unsigned long n = current->reclaim_state->reclaimed_slab;
	sc->nr_reclaimed_so_far += n;
	current->reclaim_state->reclaimed_slab = 0;
	return n;
}

static void note_zone_scanning_priority(struct zone *z, int priority)
{
	if (priority < z->prev_priority)
		z->prev_priority = priority;
}

/* shrink_zones (§1.7). */
static unsigned long shrink_zones(int priority, struct scan_control *sc)
{
	unsigned long nr_reclaimed = 0;
	sc->all_unreclaimable = 1;
	for (int i = gfp_zone(sc->gfp_mask); i >= 0; i--) {
		struct zone *z = &MM->zones[i];
		if (!z->present_pages)
			continue;
		note_zone_scanning_priority(z, priority);
		if (z->all_unreclaimable && priority != DEF_PRIORITY)
			continue;
		sc->all_unreclaimable = 0;
		unsigned long freed = shrink_zone(priority, z, sc);
		nr_reclaimed += freed;
		sc->nr_reclaimed_so_far += freed; /* 2.6.29's sc->nr_reclaimed */
		if (sc->cut_off)
			break;
	}
	return nr_reclaimed;
}

/* do_try_to_free_pages (§1.6). */
static unsigned long do_try_to_free_pages(struct scan_control *sc)
{
	unsigned long nr_reclaimed = 0, total_scanned = 0, lru_pages = 0, ret = 0;
	int priority;
	int high = gfp_zone(sc->gfp_mask);
	count_vm_event(ALLOCSTALL);
	for (int i = high; i >= 0; i--)
		lru_pages += zone_lru_pages(&MM->zones[i]);
	for (priority = DEF_PRIORITY; priority >= 0; priority--) {
		sc->nr_scanned = sc->nr_io_pages = 0;
		if (!priority)
			policy_call_all(priority_zero);
		nr_reclaimed += shrink_zones(priority, sc);
		if (sc->cut_off) { /* KOSAKI's -EAGAIN: someone freed enough (§2.2) */
			ret = 1;
			goto out;
		}
		policy_call_all(after_shrink_zones, sc, priority, sc->nr_scanned, nr_reclaimed);
		shrink_slab(sc->nr_scanned, sc->gfp_mask, lru_pages);
		nr_reclaimed += take_reclaimed_slab(sc);
		total_scanned += sc->nr_scanned;
		if (nr_reclaimed >= (unsigned long)sc->swap_cluster_max) {
			ret = nr_reclaimed;
			goto out;
		}
		if (total_scanned >
		    (unsigned long)sc->swap_cluster_max + sc->swap_cluster_max / 2) {
			wakeup_pdflush(MM->sysctl.laptop_mode ? 0 : (long)total_scanned);
			sc->may_writepage = 1;
		}
		if (reclaim_nap_wanted(sc, sc->nr_scanned, priority))
			congestion_wait(WRITE, HZ / 10 * JIFFY_NS);
	}
	if (!sc->all_unreclaimable)
		ret = reclaim_progress(nr_reclaimed); /* 2.6.25: 1 for none (vmscan_2625.c) */
out:
	if (priority < 0)
		priority = 0;
	for (int i = high; i >= 0; i--)
		if (MM->zones[i].present_pages)
			MM->zones[i].prev_priority = priority;
	return ret;
}

unsigned long try_to_free_pages(unsigned order, unsigned gfp)
{
	struct scan_control sc;
	memset(&sc, 0, sizeof(sc));
	sc.gfp_mask = gfp;
	sc.may_writepage = !MM->sysctl.laptop_mode;
	sc.swap_cluster_max = SWAP_CLUSTER_MAX;
	sc.may_swap = 1;
	sc.swappiness = MM->sysctl.swappiness;
	sc.order = (int)order;
	sc.may_cut_off = 1;
	sc.was_freed = vm_events[PGFREE];

	struct reclaim_stats *rs = &MM->rstats;
	sim_time_t start = local_now();
	if (++rs->direct_reclaimers > rs->max_direct_reclaimers)
		rs->max_direct_reclaimers = rs->direct_reclaimers;
	if (++rs->reclaimers_incl_kswapd > rs->max_reclaimers_incl_kswapd)
		rs->max_reclaimers_incl_kswapd = rs->reclaimers_incl_kswapd;
	char gfpbuf[128];
	trace_event(mm_vmscan_direct_reclaim_begin, "order=%d may_writepage=%d gfp_flags=%s",
		    sc.order, sc.may_writepage, mm_trace_gfp_flags(gfp, gfpbuf, sizeof(gfpbuf)));
	unsigned long ret = policy_gated_direct_reclaim(&sc, MM->rules->do_try_to_free_pages
								 ? MM->rules->do_try_to_free_pages
								 : do_try_to_free_pages);
	trace_event(mm_vmscan_direct_reclaim_end, "nr_reclaimed=%lu", ret);
	rs->direct_reclaimers--;
	rs->reclaimers_incl_kswapd--;
	sim_time_t took = local_now() - start;
	if (took > rs->max_ttfp_ns)
		rs->max_ttfp_ns = took;
	return ret;
}

void wakeup_kswapd(struct zone *z, unsigned order)
{
	if (!z->present_pages)
		return;
	if (zone_watermark_ok(z, (int)order, z->pages_low, 0, 0))
		return;
	if (MM->kswapd_max_order < (int)order)
		MM->kswapd_max_order = (int)order;
	if (!waitqueue_active(&MM->kswapd_wait))
		return;
	trace_event(mm_vmscan_wakeup_kswapd, "nid=0 zid=%d order=%u", (int)(z - MM->zones), order);
	wake_up_all(&MM->kswapd_wait);
}

/* balance_pgdat (§1.15). */
static unsigned long balance_pgdat(int order)
{
	struct reclaim_state *reclaim_state = current ? current->reclaim_state : NULL;
	struct scan_control sc;
	int temp_priority[MAX_NR_ZONES];
	unsigned long nr_reclaimed;
	bool all_zones_ok;
	memset(&sc, 0, sizeof(sc));
	sc.gfp_mask = GFP_KERNEL;
	sc.may_swap = 1;
	sc.swap_cluster_max = SWAP_CLUSTER_MAX;
	sc.swappiness = MM->sysctl.swappiness;
	sc.order = order;
loop_again:
	nr_reclaimed = 0;
	unsigned long total_scanned = 0;
	sc.may_writepage = !MM->sysctl.laptop_mode;
	count_vm_event(PAGEOUTRUN);
	for (int i = 0; i < MM->nr_zones; i++)
		temp_priority[i] = DEF_PRIORITY;
	all_zones_ok = true;
	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		int end_zone = 0, i;
		unsigned long lru_pages = 0;
		if (!priority)
			policy_call_all(priority_zero);
		all_zones_ok = true;
		sc.nr_io_pages = 0;
		cpu_work_sys(MM->hw->scan_page_ns); /* pass overhead: no pass is free */
		for (i = MM->nr_zones - 1; i >= 0; i--) {
			struct zone *z = &MM->zones[i];
			if (!z->present_pages)
				continue;
			if (z->all_unreclaimable && priority != DEF_PRIORITY)
				continue;
			if (inactive_anon_is_low(z))
				shrink_active_list(SWAP_CLUSTER_MAX, z, &sc, priority, 0);
			if (!zone_watermark_ok(z, order, z->pages_high, 0, 0)) {
				end_zone = i;
				break;
			}
		}
		if (i < 0)
			goto out;
		for (i = 0; i <= end_zone; i++)
			lru_pages += zone_lru_pages(&MM->zones[i]);
		for (i = 0; i <= end_zone; i++) {
			struct zone *z = &MM->zones[i];
			if (!z->present_pages)
				continue;
			if (z->all_unreclaimable && priority != DEF_PRIORITY)
				continue;
			if (!zone_watermark_ok(z, order, z->pages_high, end_zone, 0))
				all_zones_ok = false;
			temp_priority[i] = priority;
			sc.nr_scanned = 0;
			note_zone_scanning_priority(z, priority);
			if (!zone_watermark_ok(z, order, 8 * z->pages_high, end_zone, 0))
				nr_reclaimed += shrink_zone(priority, z, &sc);
			if (reclaim_state)
				reclaim_state->reclaimed_slab = 0;
			unsigned long nr_slab = shrink_slab(sc.nr_scanned, GFP_KERNEL, lru_pages);
			if (reclaim_state)
				nr_reclaimed += reclaim_state->reclaimed_slab;
			total_scanned += sc.nr_scanned;
			if (z->all_unreclaimable)
				continue;
			if (nr_slab == 0 && z->pages_scanned >= zone_lru_pages(z) * 6)
				z->all_unreclaimable = true;
			if (total_scanned > SWAP_CLUSTER_MAX * 2 &&
			    total_scanned > nr_reclaimed + nr_reclaimed / 2)
				sc.may_writepage = 1;
			/* 2.6.37+ tests the high watermark again here, after the shrink */
			if (policy_hooked(kswapd_zone_balanced) &&
			    zone_watermark_ok(z, order, z->pages_high, end_zone, 0))
				policy_call_all(kswapd_zone_balanced, z);
		}
		if (all_zones_ok)
			break;
		if (reclaim_nap_wanted(&sc, total_scanned, priority))
			congestion_wait(WRITE, HZ / 10 * JIFFY_NS);
		if (nr_reclaimed >= SWAP_CLUSTER_MAX)
			break;
	}
out:
	for (int i = 0; i < MM->nr_zones; i++)
		MM->zones[i].prev_priority = temp_priority[i];
	if (!all_zones_ok) {
		cond_resched();
		goto loop_again;
	}
	return nr_reclaimed;
}

void kswapd_main(void *arg)
{
	(void)arg;
	int order = 0;
	struct reclaim_state reclaim_state = {0};
	current->reclaim_state = &reclaim_state;
	current->flags |= PF_MEMALLOC | PF_SWAPWRITE | PF_KSWAPD;
	for (;;) {
		int new_order = MM->kswapd_max_order;
		MM->kswapd_max_order = 0;
		if (order < new_order) {
			order = new_order;
		} else {
			trace_event(mm_vmscan_kswapd_sleep, "nid=0");
			sleep_on(&MM->kswapd_wait, 0, false);
			order = MM->kswapd_max_order;
		}
		trace_event(mm_vmscan_kswapd_wake, "nid=0 order=%d", order);
		MM->rstats.reclaimers_incl_kswapd++;
		if (MM->rstats.reclaimers_incl_kswapd > MM->rstats.max_reclaimers_incl_kswapd)
			MM->rstats.max_reclaimers_incl_kswapd = MM->rstats.reclaimers_incl_kswapd;
		if (MM->rules->balance_pgdat)
			MM->rules->balance_pgdat(order);
		else
			balance_pgdat(order);
		MM->rstats.reclaimers_incl_kswapd--;
	}
}

void mm_start_kthreads(void)
{
	MM->kswapd = task_struct_create("kswapd0", kswapd_main, NULL, true);
	set_user_nice(&MM->kswapd->task, MM->sysctl.kswapd_nice);
	task_start(&MM->kswapd->task);
	MM->flusher = task_struct_create("pdflush", flusher_main, NULL, true);
	task_start(&MM->flusher->task);
}
