/* shmem (2.6.28 mm/shmem.c): the page cache of tmpfs files, SysV segments and shared
 * anonymous mappings, backed by swap instead of a disk extent. Its pages are
 * PageSwapBacked and not PageAnon: they sit on the anon LRU lists (page_is_file_cache is
 * false), count in NR_FILE_PAGES, in NR_FILE_MAPPED while mapped, and are dirtied without
 * writeback accounting (shmem_aops' __set_page_dirty_no_writeback). Reclaim's pageout
 * calls shmem_writepage, which moves the page from the object's cache to the swap cache and
 * records the slot in the object; the swap cache's writepage (swap_writepage) writes it
 * when reclaim meets it again. shmem_getpage brings it back from the slot. */
#include "mm/shmem.h"
#include "mm/filemap.h"
#include "mm/fs.h"
#include "sim/xalloc.h"

/* shmem_unacct_blocks */
static void shmem_unacct_blocks(struct shmem_inode_info *info, unsigned long pages)
{
	if (info->acct_blocks)
		vm_unacct_memory(pages);
}

/* shmem_recalc_inode: pages the object no longer holds, in its cache or swapped, are given
 * back (mm/shmem.c, 2.6.28). */
static void shmem_recalc_inode(struct address_space *f)
{
	struct shmem_inode_info *info = f->shmem;
	long freed = (long)info->alloced - (long)info->swapped - (long)f->nrpages;
	if (freed > 0) {
		info->alloced -= (unsigned long)freed;
		shmem_unacct_blocks(info, (unsigned long)freed);
	}
}

struct address_space *shmem_file_setup(const char *name, uint64_t size_pages, unsigned flags)
{
	/* shmem_acct_size, before the object exists */
	uint64_t acct = (flags & VM_ACCOUNT) ? vm_commit_pages(size_pages) : 0;
	if (acct && !vm_enough_memory(acct))
		return NULL;
	/* shmem_get_inode + d_alloc on shm_mnt (held while the object lives); no disk extent.
	 * They may wait for memory: the pages are committed meanwhile. */
	MM->vm_committed_pending += (long)acct;
	struct address_space *f = mapping_create(name, size_pages, size_pages);
	MM->vm_committed_pending -= (long)acct;
	f->shmem = xcalloc(1, sizeof(*f->shmem));
	f->shmem->swp = xcalloc(size_pages ? size_pages : 1, sizeof(uint32_t));
	f->shmem->acct_pages = acct;
	f->shmem->acct_blocks = !(flags & VM_ACCOUNT);
	return f;
}

struct address_space *shmem_zero_setup(uint64_t npages, unsigned flags)
{
	struct address_space *f = shmem_file_setup("dev/zero", npages, flags);
	if (f)
		f->shmem->unlinked = true;
	return f;
}

void shmem_mapping_gone(struct address_space *f)
{
	struct shmem_inode_info *info = f->shmem;
	if (info->unlinked && !f->nr_mapped_vmas) {
		shmem_truncate(f); /* shmem_delete_inode */
		vm_unacct_memory(info->acct_pages);
		info->acct_pages = 0;
		/* the kernel's truncate waits for every page and frees it, so its recalc gives
		 * every block back; shmem_truncate leaves a page a reclaimer holds, which
		 * reclaim frees later */
		shmem_unacct_blocks(info, info->alloced);
		info->alloced = 0;
	}
}

/* add_to_page_cache_locked: the page joins the object's radix tree (no LRU change). */
static void shmem_add_to_page_cache(struct address_space *f, uint64_t idx, pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	p->mapping = f->id + 1;
	p->index = (uint32_t)idx;
	page_index_store(f, idx, pfn);
	f->nrpages++;
	inc_zone_page_state(p, NR_FILE_PAGES);
}

static void shmem_swp_set(struct shmem_inode_info *info, uint64_t idx, uint32_t slot)
{
	if (!info->swp[idx] != !slot)
		info->swapped += slot ? 1 : (unsigned long)-1;
	info->swp[idx] = slot;
}

/* The swap-in half of shmem_getpage: the page of `slot` is in the swap cache (or being
 * read into it). 1: the page moved to the object's cache at idx; 0: try again. */
static int shmem_swapin_move(struct address_space *f, uint64_t idx, uint32_t slot, pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (!trylock_page(pfn)) { /* being read, or reclaim holds it: wait and repeat */
		p->pins++;
		wait_on_page_locked(pfn);
		p->pins--;
		release_user_page(pfn);
		return 0;
	}
	if (p->flags & PG_writeback) {
		p->pins++;
		wait_on_page_writeback(pfn);
		p->pins--;
		unlock_page(pfn);
		release_user_page(pfn);
		return 0;
	}
	if (!(p->flags & PG_swapcache) || p->private != slot || f->shmem->swp[idx] != slot) {
		unlock_page(pfn);
		release_user_page(pfn);
		return 0;
	}
	/* add_to_page_cache_locked, shmem_swp_set(0), delete_from_swap_cache: the page stays
	 * on the LRU list it is on; it is dirty again, its slot freed */
	shmem_add_to_page_cache(f, idx, pfn);
	shmem_swp_set(f->shmem, idx, 0);
	delete_from_swap_cache(pfn); /* the swap cache's reference */
	set_page_dirty(pfn);
	swap_free(slot); /* the object's entry's reference */
	unlock_page(pfn);
	return 1;
}

int shmem_getpage(struct address_space *f, uint64_t idx, pfn_t *pagep, bool *major)
{
	struct shmem_inode_info *info = f->shmem;
	if (idx >= f->size_pages)
		return -1;
	shmem_recalc_inode(f);
	for (int tries = 0;; tries++) { /* repeat */
		pfn_t pfn = find_lock_page(f, idx);
		if (pfn != NO_PFN) {
			*pagep = pfn;
			return 0;
		}
		uint32_t slot = info->swp[idx];
		if (slot) {
			pfn = lookup_swap_cache(slot);
			if (pfn == NO_PFN) {
				/* here we actually do the io: a fault counts as major */
				if (major && !*major) {
					count_vm_event(PGMAJFAULT);
					*major = true;
				}
				bool readahead_major;
				pfn = swapin_readahead(slot, &readahead_major); /* shmem_swapin */
				if (pfn == NO_PFN) {
					if (info->swp[idx] == slot || tries > 2)
						return -2;
					continue;
				}
				/* wait_on_page_locked + page_cache_release, then repeat */
				struct page *p = pfn_to_page(pfn);
				p->pins++;
				wait_on_page_locked(pfn);
				p->pins--;
				release_user_page(pfn);
				continue;
			}
			if (shmem_swapin_move(f, idx, slot, pfn)) {
				*pagep = pfn;
				return 0;
			}
			continue;
		}
		/* shmem_acct_block before the page is allocated: -ENOSPC when refused */
		if (info->acct_blocks && !vm_enough_memory(1))
			return -3;
		/* committed and not yet alloced while the allocation and the zeroing may wait */
		long charged = info->acct_blocks ? 1 : 0;
		MM->vm_committed_pending += charged;
		/* shmem_alloc_page: a new page, zeroed (clear_highpage), swap-backed */
		pfn = __alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
		if (pfn == NO_PFN) {
			MM->vm_committed_pending -= charged;
			shmem_unacct_blocks(info, 1);
			return -2;
		}
		struct page *p = pfn_to_page(pfn);
		p->owner = OWNER_USER_NEW;
		MM->nr_user_new++;
		cpu_work_sys(MM->hw->page_zero_ns);
		if (page_index_lookup(f, idx) != NO_PFN ||
		    info->swp[idx]) { /* raced while we reclaimed */
			release_user_page(pfn);
			MM->vm_committed_pending -= charged;
			shmem_unacct_blocks(info, 1);
			continue;
		}
		MM->vm_committed_pending -= charged;
		info->alloced++;
		p->flags |= PG_swapbacked; /* SetPageSwapBacked */
		shmem_add_to_page_cache(f, idx, pfn);
		/* add_to_page_cache_lru: 2.6.28 puts a swap-backed page on the active anon list
		 * (lru_cache_add_active_anon); 2.6.25 puts every page cache page on the one
		 * inactive list (lru_cache_add) */
		lru_cache_add_lru(pfn, MM->rules->split_lru ? LRU_ACTIVE_ANON : LRU_INACTIVE_ANON);
		*pagep = pfn;
		return 0;
	}
}

int shmem_fault(struct vm_area_struct *vma, uint64_t pgoff, pfn_t *pfn, bool *major)
{
	int error = shmem_getpage(vma->file, pgoff, pfn, major);
	if (error)
		return error == -2 ? -2 : -3; /* VM_FAULT_OOM, else VM_FAULT_SIGBUS */
	mark_page_accessed(*pfn);
	return 0;
}

int shmem_writepage(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	struct address_space *f = page_mapping(p);
	struct shmem_inode_info *info = f->shmem;
	uint64_t idx = p->index;
	if (info->unlinked && !f->nr_mapped_vmas) {
		/* the object is gone, truncated while a reclaimer held this page (shmem_truncate
		 * leaves it; truncate_inode_pages would have waited and freed it): nothing to
		 * write, and clean, __remove_mapping frees it */
		unlock_page(pfn);
		return 0;
	}
	if (MM->swap.nr_slots) { /* total_swap_pages */
		uint32_t slot = get_swap_page();
		if (info->swp[idx]) { /* a stale entry (none in the model): drop it */
			free_swap_and_cache(info->swp[idx]);
			shmem_swp_set(info, idx, 0);
		}
		shmem_recalc_inode(f);
		if (slot != UINT32_MAX) {
			cpu_work_sys(MM->hw->swap_alloc_ns);
			add_to_swap_cache(pfn, slot); /* get_swap_page's reference is the cache's */
			remove_from_page_cache(pfn);
			shmem_swp_set(info, idx, slot);
			swap_duplicate(slot); /* the object's entry's reference */
			set_page_dirty(pfn);  /* a swap cache page now: no accounting */
			unlock_page(pfn);
			return 0;
		}
	}
	/* redirty: for reclaim, back with the page locked, to be activated */
	set_page_dirty(pfn);
	return AOP_WRITEPAGE_ACTIVATE;
}

void shmem_truncate(struct address_space *f)
{
	struct shmem_inode_info *info = f->shmem;
	for (uint64_t i = 0; i < f->cap_pages; i++) {
		pfn_t pfn = page_index_lookup(f, i);
		if (pfn != NO_PFN) {
			struct page *p = pfn_to_page(pfn);
			if (!page_mapped(p) && !(p->flags & (PG_locked | PG_writeback)) &&
			    (p->flags & PG_lru) && !p->pins) {
				remove_from_page_cache(pfn);
				p->flags &= ~PG_dirty; /* cancel_dirty_page: never accounted */
				release_user_page(pfn);
			}
		}
		if (info->swp[i]) {
			uint32_t slot = info->swp[i];
			shmem_swp_set(info, i, 0);
			free_swap_and_cache(slot);
		}
	}
	shmem_recalc_inode(f);
}
