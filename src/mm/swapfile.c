/* Swap slots: reference counts per slot (swap PTEs + 1 while the slot's page is in the swap
 * cache), next-fit allocation from a cursor so that pages swapped out together land in one
 * contiguous run (the kernel's cluster allocation has the same effect). */
#include "mm/mm.h"

#include <stdio.h>
#include <stdlib.h>

uint32_t get_swap_page(void)
{
	struct swap_info *si = &MM->swap;
	if (!si->nr_free)
		return UINT32_MAX;
	for (uint64_t n = 0; n < si->nr_slots; n++) {
		uint64_t s = si->cursor++;
		if (si->cursor >= si->nr_slots)
			si->cursor = 1;
		if (s == 0) /* slot 0 holds the swap header */
			continue;
		if (!si->swap_map[s]) {
			si->swap_map[s] = 1;
			si->nr_free--;
			return (uint32_t)s;
		}
	}
	return UINT32_MAX;
}

void swap_duplicate(uint32_t slot)
{
	MM->swap.swap_map[slot]++;
}

void swap_free(uint32_t slot)
{
	struct swap_info *si = &MM->swap;
	if (!si->swap_map[slot]) {
		fprintf(stderr, "mmsim: BUG: swap_free of free slot %u\n", slot);
		abort();
	}
	if (--si->swap_map[slot] == 0)
		si->nr_free++;
}

int swap_count(uint32_t slot)
{
	return MM->swap.swap_map[slot];
}

pfn_t lookup_swap_cache(uint32_t slot)
{
	return MM->swap.cache[slot];
}

void add_to_swap_cache(pfn_t pfn, uint32_t slot)
{
	struct page *p = pfn_to_page(pfn);
	MM->swap.cache[slot] = pfn;
	p->flags |= PG_swapcache | PG_swapbacked;
	p->private = slot;
	inc_zone_page_state(p, NR_FILE_PAGES);
}

/* add_to_swap (§1.13 step 10): a slot for an anonymous page, which becomes dirty. */
bool add_to_swap(pfn_t pfn)
{
	uint32_t slot = get_swap_page();
	if (slot == UINT32_MAX)
		return false;
	cpu_work_sys(MM->hw->swap_alloc_ns);
	add_to_swap_cache(pfn, slot); /* the allocation's reference is the cache's */
	set_page_dirty(pfn);
	return true;
}

void delete_from_swap_cache(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	uint32_t slot = p->private;
	MM->swap.cache[slot] = NO_PFN;
	p->flags &= ~PG_swapcache;
	p->private = 0;
	dec_zone_page_state(p, NR_FILE_PAGES);
	swap_free(slot);
}

/* can_share_swap_page (2.6.28 swapfile.c): the faulting task is the page's only user when
 * its mappers plus the other references to its swap slot come to one. */
bool can_share_swap_page(pfn_t pfn)
{
	const struct page *p = pfn_to_page(pfn);
	int count = p->mapcount;
	if (count <= 1 && (p->flags & PG_swapcache))
		count += swap_count(p->private) - 1; /* page_swapcount */
	return count == 1;
}

/* remove_exclusive_swap_page_count (2.6.28): the page leaves the swap cache, dirty, and its
 * slot is freed when nothing but the cache holds the slot and nothing but the cache, the
 * caller and `mappers` PTEs hold the page (page_count == count; a pin is another holder). */
bool remove_exclusive_swap_page_count(pfn_t pfn, int mappers)
{
	struct page *p = pfn_to_page(pfn);
	if (!(p->flags & PG_swapcache) || (p->flags & PG_writeback))
		return false;
	if (p->mapcount != mappers || p->pins)
		return false;
	if (swap_count(p->private) != 1)
		return false;
	delete_from_swap_cache(pfn);
	set_page_dirty(pfn);
	return true;
}

/* remove_exclusive_swap_page_ref: as above with the page's own mappers allowed. */
bool remove_exclusive_swap_page_ref(pfn_t pfn)
{
	return remove_exclusive_swap_page_count(pfn, pfn_to_page(pfn)->mapcount);
}

/* pagevec_swap_free (2.6.28 swap.c): each page not locked by someone else. */
void pagevec_swap_free(const pfn_t *pfns, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const struct page *p = pfn_to_page(pfns[i]);
		if (!(p->flags & PG_swapcache) || !trylock_page(pfns[i]))
			continue;
		remove_exclusive_swap_page_ref(pfns[i]);
		unlock_page(pfns[i]);
	}
}

void free_swap_and_cache(uint32_t slot)
{
	swap_free(slot);
	pfn_t pfn = MM->swap.cache[slot];
	if (pfn == NO_PFN || swap_count(slot) != 1)
		return;
	struct page *p = pfn_to_page(pfn);
	if (page_mapped(p) || (p->flags & (PG_locked | PG_writeback)) || p->pins)
		return;
	delete_from_swap_cache(pfn);
	release_user_page(pfn);
}

/* ---- page_io ---- */

static uint64_t slot_sector(uint32_t slot)
{
	return MM->swap.disk_sector + ((uint64_t)slot << (MM->page_shift - SECTOR_SHIFT));
}

static void swap_write_end(struct bio *bio)
{
	pfn_t pfn = bio->pfn;
	bio_free(MM->swap.bdev, bio);
	end_page_writeback(pfn);
}

void swap_writepage(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	p->flags |= PG_writeback;
	inc_zone_page_state(p, NR_WRITEBACK);
	count_vm_event(PSWPOUT);
	count_vm_events(PGPGOUT, MM->page_size / 1024);
	unlock_page(pfn);
	submit_page_bio(MM->swap.bdev, pfn, slot_sector(p->private), WRITE, swap_write_end);
}

static void swap_read_end(struct bio *bio)
{
	pfn_t pfn = bio->pfn;
	bio_free(MM->swap.bdev, bio);
	unlock_page(pfn);
	release_user_page(pfn);
}

/* read_swap_cache_async: the slot's page in the swap cache, read in if needed. */
static pfn_t read_swap_cache_async(uint32_t slot)
{
	pfn_t pfn = lookup_swap_cache(slot);
	if (pfn != NO_PFN)
		return pfn;
	pfn = __alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
	if (pfn == NO_PFN)
		return NO_PFN;
	pfn_t raced = lookup_swap_cache(slot);
	if (raced != NO_PFN || !swap_count(slot)) {
		__free_page(pfn);
		return raced;
	}
	struct page *p = pfn_to_page(pfn);
	p->owner = OWNER_USER_NEW;
	MM->nr_user_new++;
	p->flags |= PG_locked;
	swap_duplicate(slot); /* the cache's reference */
	add_to_swap_cache(pfn, slot);
	cpu_work_sys(MM->hw->swapin_page_ns); /* the lookup and the insert (KPATH) */
	/* §1.3: 2.6.28's swap-in enters the inactive list; before, the active one */
	lru_cache_add_lru(pfn, MM->rules->swapin_active ? LRU_ACTIVE_ANON : LRU_INACTIVE_ANON);
	count_vm_event(PSWPIN);
	count_vm_events(PGPGIN, MM->page_size / 1024);
	submit_page_bio(MM->swap.bdev, pfn, slot_sector(slot), READ, swap_read_end);
	return pfn;
}

/* valid_swaphandles (2.6.28 swapfile.c): within the 2^page_cluster-aligned window holding
 * the slot (slot 0 is the header), the run of allocated slots around it. Returns the
 * number of slots to read from *start, or 0 for no readahead. Before 2.6.25-rc1 (2.6.8's
 * swapfile.c; 8952898b0d2 "swapin: fix valid_swaphandles defect") the run began at the
 * window's start and ended at its first free slot, whether or not it reached the faulting
 * slot: one free slot at the start of a window made every fault in it read one page. */
static unsigned valid_swaphandles(uint32_t slot, uint64_t *start)
{
	const struct swap_info *si = &MM->swap;
	int cluster = MM->sysctl.page_cluster;
	if (!cluster)
		return 0;
	uint64_t base = ((uint64_t)slot >> cluster) << cluster;
	uint64_t end = base + (1ull << cluster);
	if (!base)
		base++;
	if (end > si->nr_slots)
		end = si->nr_slots;
	unsigned nr = 0;
	if (MM->rules->swapin_window_from_start) {
		*start = base;
		for (uint64_t t = base; t < end && si->swap_map[t]; t++)
			nr++;
		return nr;
	}
	for (uint64_t t = slot + 1; t < end && si->swap_map[t]; t++)
		nr++;
	uint64_t low = slot;
	while (low > base && si->swap_map[low - 1]) {
		low--;
		nr++;
	}
	*start = low;
	return nr ? nr + 1 : 0;
}

/* swapin_readahead (2.6.28 swap_state.c): every slot of the run in ascending order, the
 * faulting one among them, then the faulting one's page. A fault that found no page in
 * the swap cache is major whoever ends up reading it. */
pfn_t swapin_readahead(uint32_t slot, bool *major)
{
	uint64_t off = 0;
	cpu_work_sys(MM->hw->swapin_ra_ns); /* with grab_swap_token's check (KPATH) */
	unsigned nr = valid_swaphandles(slot, &off);
	for (uint64_t end = off + nr; off < end; off++)
		if (read_swap_cache_async((uint32_t)off) == NO_PFN)
			break;
	pfn_t pfn = read_swap_cache_async(slot);
	*major = pfn != NO_PFN;
	return pfn;
}
