/* The two ends of shrink_page_list's work on one page (kernel-reclaim.md §1.13, §1.14):
 * pageout, which hands a dirty page to its mapping's writepage (a file's, the swap cache's
 * swap_writepage, a shmem object's shmem_writepage), and __remove_mapping, which detaches a
 * clean one from its cache. */
#include "mm/policy/policy.h"
#include "mm/shmem.h"
#include "mm/vmscan.h"

/* __remove_mapping: detach a clean, unmapped, unreferenced page from its cache. */
bool remove_mapping(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (page_mapped(p) || p->pins || (p->flags & PG_dirty))
		return false;
	if (p->flags & PG_swapcache) {
		delete_from_swap_cache(pfn);
		count_vm_event(MMSIM_EVICT_ANON);
		return true;
	}
	if (page_is_shmem(p)) { /* clean: never written since it was zeroed */
		remove_from_page_cache(pfn);
		return true;
	}
	if (p->mapping) {
		struct address_space *f = page_mapping(p);
		uint8_t *sh = page_index_shadow_slot(f, p->index);
		if (!(*sh & FILE_SHADOW_FAULTED))
			count_vm_event(f->exec ? MMSIM_EVICT_EXEC_UNFAULTED
					       : MMSIM_EVICT_FILE_UNFAULTED);
		*sh = (uint8_t)((*sh & ~FILE_SHADOW_FAULTED) | FILE_SHADOW_EVICTED);
		count_vm_event(f->exec ? MMSIM_EVICT_EXEC : MMSIM_EVICT_FILE);
		remove_from_page_cache(pfn);
		return true;
	}
	return false;
}

/* §1.14 step 4, on the page's bdi. A swap-cache page's mapping is swapper_space, whose
 * swap_backing_dev_info has no congested_fn and is never marked congested (only a
 * request queue's own bdi is): swap writeout from reclaim never stops here, it waits for
 * a request slot in the block layer instead. A file page's bdi is the disk's queue. */
static bool may_write_to_queue(const struct page *p)
{
	if (!current || (current->flags & PF_SWAPWRITE))
		return true;
	if ((p->flags & PG_swapcache) || page_is_shmem(p))
		return true; /* shmem_backing_dev_info is never congested either */
	return !bdi_write_congested(&MM->disk);
}

/* pageout (§1.14). The page is locked on entry; writepage unlocks it. */
enum pageout_t pageout(pfn_t pfn, int sync)
{
	struct page *p = pfn_to_page(pfn);
	/* is_page_cache_freeable: only the cache and our isolation refer to it */
	if (page_mapped(p) || p->pins)
		return PAGE_KEEP;
	if (!p->mapping && !(p->flags & PG_swapcache))
		return PAGE_KEEP;
	if (!may_write_to_queue(p))
		return PAGE_KEEP;
	if (!clear_page_dirty_for_io(pfn))
		return PAGE_CLEAN;
	p->flags |= PG_reclaim;
	/* page=%p: mem_map taken as address 0, 32-byte struct page */
	trace_event(mm_vmscan_writepage, "page=%08lx pfn=%lu flags=%s", (unsigned long)pfn * 32,
		    (unsigned long)pfn, TRACE_RECLAIM_FLAGS(page_is_file_cache(p)));
	if (p->flags & PG_swapcache) {
		swap_writepage(pfn);
	} else if (page_is_shmem(p)) {
		/* shmem_writepage: to the swap cache, or redirtied without swap */
		if (shmem_writepage(pfn) == AOP_WRITEPAGE_ACTIVATE) {
			p->flags &= ~PG_reclaim;
			return PAGE_ACTIVATE;
		}
	} else {
		write_one_page_async(pfn, true);
	}
	if (page_is_file_cache(p))
		count_vm_event(current && (current->flags & PF_KSWAPD) ? MMSIM_KSWAPD_FILE_WRITES
								       : MMSIM_DIRECT_FILE_WRITES);
	if (sync == PAGEOUT_IO_SYNC)
		wait_on_page_writeback(pfn);
	if (!(p->flags & PG_writeback))
		p->flags &= ~PG_reclaim;
	inc_zone_page_state(p, NR_VMSCAN_WRITE);
	return PAGE_SUCCESS;
}
