/* LRU list operations (kernel-reclaim.md §1.3, §1.4). The per-CPU pagevecs are flushed at
 * once: a page reaches its LRU list the moment it is added (docs/model.md). */
#include "mm/mm.h"

void add_page_to_lru_list(struct zone *z, pfn_t pfn, enum lru_list lru)
{
	pagelist_add(&z->lru[lru], pfn);
	if (lru < NR_EVICTABLE_LRU)
		zone_stat_add(z, (enum zone_stat_item)(NR_LRU_BASE + lru), 1);
	else
		zone_stat_add(z, NR_UNEVICTABLE, 1);
}

void del_page_from_lru_list(struct zone *z, pfn_t pfn, enum lru_list lru)
{
	pagelist_del(&z->lru[lru], pfn);
	if (lru < NR_EVICTABLE_LRU)
		zone_stat_add(z, (enum zone_stat_item)(NR_LRU_BASE + lru), -1);
	else
		zone_stat_add(z, NR_UNEVICTABLE, -1);
}

void del_page_from_lru(struct zone *z, pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	del_page_from_lru_list(z, pfn, page_lru(p));
	p->flags &= ~(PG_lru | PG_active);
}

/* lru_cache_add_lru: a freshly allocated user page joins its zone's list. */
void lru_cache_add_lru(pfn_t pfn, enum lru_list lru)
{
	struct page *p = pfn_to_page(pfn);
	struct zone *z = page_zone(p);
	if (p->owner == OWNER_USER_NEW) {
		p->owner = OWNER_NONE;
		MM->nr_user_new--;
	}
	if (lru & LRU_ACTIVE)
		p->flags |= PG_active;
	/* ____pagevec_lru_add (2.6.28; update_page_reclaim_stat in 2.6.31): a page joining an
	 * evictable list counts as scanned for its type, and as rotated too when it joins an
	 * active list, so get_scan_ratio (§1.9) sees new anon pages as in use and freshly read
	 * page cache as not yet. 2.6.25 has no such statistics. */
	if (MM->rules->split_lru && lru < LRU_UNEVICTABLE) {
		int file = (lru & LRU_FILE) != 0;
		z->recent_scanned[file]++;
		if (lru & LRU_ACTIVE)
			z->recent_rotated[file]++;
	}
	if (!MM->rules->split_lru && lru < LRU_UNEVICTABLE) /* 2.6.25: one pair of lists */
		lru = (enum lru_list)((lru & LRU_ACTIVE) | LRU_FILE);
	p->flags |= PG_lru;
	spin_lock_hold(&z->lru_lock, MM->hw->lru_add_ns);
	add_page_to_lru_list(z, pfn, lru);
}

void activate_page(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	struct zone *z = page_zone(p);
	if ((p->flags & (PG_lru | PG_active | PG_unevictable)) != PG_lru)
		return;
	int file = page_is_file_cache(p);
	spin_lock_hold(&z->lru_lock, MM->hw->lru_add_ns);
	del_page_from_lru_list(z, pfn, page_lru(p));
	p->flags |= PG_active;
	add_page_to_lru_list(z, pfn, page_lru(p));
	count_vm_event(PGACTIVATE);
	z->recent_rotated[file]++;
	z->recent_scanned[file]++;
}

/* The three-state machine of §1.4. */
void mark_page_accessed(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (p->flags & PG_unevictable)
		return;
	if (!(p->flags & PG_active) && (p->flags & PG_referenced) && (p->flags & PG_lru)) {
		activate_page(pfn);
		p->flags &= ~PG_referenced;
	} else if (!(p->flags & PG_referenced)) {
		p->flags |= PG_referenced;
	}
}

/* End of writeback on a page reclaim wanted: to the inactive tail, next in line (§1.4). */
void rotate_reclaimable_page(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (p->flags & (PG_locked | PG_dirty | PG_active | PG_unevictable))
		return;
	if (!(p->flags & PG_lru))
		return;
	struct zone *z = page_zone(p);
	enum lru_list lru = page_lru(p);
	pagelist_del(&z->lru[lru], pfn);
	pagelist_add_tail(&z->lru[lru], pfn);
	count_vm_event(PGROTATED);
}

static bool page_orphaned(const struct page *p)
{
	return p->mapcount == 0 && p->mapping == 0 && !(p->flags & PG_swapcache) &&
	       !(p->flags & (PG_locked | PG_writeback)) && p->pins == 0;
}

/* An isolated page goes back to the head of the list its flags name. */
void putback_lru_page(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	struct zone *z = page_zone(p);
	p->flags &= ~PG_isolated;
	z->nr_isolated[page_is_file_cache(p)]--;
	zone_stat_add(z, page_is_file_cache(p) ? NR_ISOLATED_FILE : NR_ISOLATED_ANON, -1);
	if (page_orphaned(p)) {
		/* its owner let go while we held it: the last reference is ours */
		p->flags &= ~PG_active;
		__free_page(pfn);
		return;
	}
	p->flags |= PG_lru;
	add_page_to_lru_list(z, pfn, page_lru(p));
}

void release_user_page(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (!page_orphaned(p))
		return;
	if (p->flags & PG_lru) {
		spin_lock_hold(&page_zone(p)->lru_lock, MM->hw->lru_add_ns);
		del_page_from_lru(page_zone(p), pfn);
		__free_page(pfn);
	} else if (p->owner == OWNER_USER_NEW) {
		MM->nr_user_new--;
		__free_page(pfn);
	}
	/* isolated: the reclaimer holding it frees it */
}
