/* Files and the page cache: a per-file index from page offset to frame, buffered read and
 * write, the file fault path with 2.6.23-2.6.30's mmap read-around, and read()'s readahead
 * (a simplified on-demand readahead: a window that grows on sequential misses, and an
 * asynchronous read of the next window when a PG_readahead-marked page is reached). Files
 * live in contiguous extents on the disk. */
#include "mm/filemap.h"
#include "mm/fs.h"
#include "mm/policy/policy.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RA_INIT_PAGES 4

struct address_space *mapping_create(const char *name, uint64_t size_pages, uint64_t cap_pages)
{
	if (cap_pages < size_pages)
		cap_pages = size_pages;
	struct address_space *f = xcalloc(1, sizeof(*f));
	page_index_init(f, cap_pages);
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->size_pages = size_pages;
	f->cap_pages = cap_pages;
	f->ra_prev_index = UINT64_MAX;
	if (MM->nr_files == MM->files_cap) {
		MM->files_cap = MM->files_cap ? MM->files_cap * 2 : 64;
		MM->files = xrealloc(MM->files, MM->files_cap * sizeof(*MM->files));
	}
	f->id = MM->nr_files;
	MM->files[MM->nr_files++] = f;
	d_alloc_file(f);
	return f;
}

struct address_space *file_create(const char *name, uint64_t size_pages, uint64_t cap_pages,
				  bool exec)
{
	struct address_space *f = mapping_create(name, size_pages, cap_pages);
	f->exec = exec;
	f->disk_sector = MM->fs_next_sector;
	MM->fs_next_sector += f->cap_pages << (MM->page_shift - SECTOR_SHIFT);
	MM->fs_next_sector += 2048; /* a gap between files, as a filesystem leaves */
	return f;
}

uint64_t file_sector(const struct address_space *f, uint64_t pgoff)
{
	return f->disk_sector + (pgoff << (MM->page_shift - SECTOR_SHIFT));
}

void add_to_page_cache_lru(struct address_space *f, uint64_t pgoff, pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	p->mapping = f->id + 1;
	p->index = (uint32_t)pgoff;
	p->flags &= ~PG_swapbacked;
	page_index_store(f, pgoff, pfn);
	f->nrpages++;
	inc_zone_page_state(p, NR_FILE_PAGES);
	if (f->exec)
		inc_zone_page_state(p, MMSIM_NR_EXEC_FILE);
	uint8_t *sh = page_index_shadow_slot(f, pgoff);
	if (*sh & FILE_SHADOW_EVICTED)
		count_vm_event(f->exec ? MMSIM_REFAULT_EXEC : MMSIM_REFAULT_FILE);
	if (!(*sh & FILE_SHADOW_LOADED))
		count_vm_event(f->exec ? MMSIM_LOADED_EXEC : MMSIM_LOADED_FILE);
	*sh = FILE_SHADOW_LOADED;
	lru_cache_add_lru(pfn, LRU_INACTIVE_FILE); /* §1.3: page cache enters the inactive list */
}

/* Removes a clean, unmapped page from its file (reclaim's __remove_mapping). */
void remove_from_page_cache(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	struct address_space *f = page_mapping(p);
	page_index_store(f, p->index, NO_PFN);
	f->nrpages--;
	p->mapping = 0;
	dec_zone_page_state(p, NR_FILE_PAGES);
	if (f->exec)
		dec_zone_page_state(p, MMSIM_NR_EXEC_FILE);
}

static void read_end(struct bio *bio)
{
	pfn_t pfn = bio->pfn;
	bio_free(&MM->disk, bio);
	unlock_page(pfn);
}

unsigned long __do_page_cache_readahead(struct address_space *f, uint64_t start, uint64_t nr,
					uint64_t lookahead_size)
{
	uint64_t end = MIN(start + nr, f->size_pages);
	uint64_t mark = start + nr - lookahead_size;
	unsigned long started = 0;
	for (uint64_t i = start; i < end; i++) {
		if (page_index_lookup(f, i) != NO_PFN)
			continue;
		/* page_cache_alloc_cold, as readahead and page_cache_read allocate */
		pfn_t pfn = __alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_COLD, 0);
		if (pfn == NO_PFN)
			return started;
		if (page_index_lookup(f, i) != NO_PFN) { /* someone read it while we reclaimed */
			__free_page(pfn);
			continue;
		}
		struct page *p = pfn_to_page(pfn);
		p->owner = OWNER_USER_NEW;
		MM->nr_user_new++;
		p->flags |= PG_locked | (i == mark && lookahead_size ? PG_readahead : 0);
		add_to_page_cache_lru(f, i, pfn);
		if (!MM->hw->fs_nfs) /* submit_bio counts it; an NFS READ is an RPC */
			count_vm_events(PGPGIN, MM->page_size / 1024);
		submit_page_bio(&MM->disk, pfn, file_sector(f, i), READ, read_end);
		started++;
	}
	return started;
}

unsigned long max_sane_readahead(unsigned long nr)
{
	long avail = global_page_state(NR_INACTIVE_FILE) + global_page_state(NR_FREE_PAGES);
	return MIN(nr, (unsigned long)(avail / 2));
}

/* do_page_cache_readahead (2.6.28): no read-around while the device's read queue is
 * congested */
static void do_page_cache_readahead(struct address_space *f, uint64_t start, uint64_t nr)
{
	if (bdi_read_congested(&MM->disk))
		return;
	__do_page_cache_readahead(f, start, nr, 0);
}

int page_cache_read(struct address_space *f, uint64_t pgoff)
{
	__do_page_cache_readahead(f, pgoff, 1, 0);
	return page_index_lookup(f, pgoff) != NO_PFN ? 0 : -1;
}

static void ondemand_readahead(struct address_space *f, uint64_t index, bool hit_marker)
{
	unsigned size;
	if (hit_marker || index == f->ra_prev_index + 1)
		size = f->ra_size ? MIN(f->ra_size * 2, MM->ra_pages)
				  : MIN(RA_INIT_PAGES, MM->ra_pages);
	else
		size = MIN(RA_INIT_PAGES, MM->ra_pages);
	f->ra_size = size;
	uint64_t start = hit_marker ? index + 1 : index;
	/* the next window is started when the reader reaches the middle of this one */
	__do_page_cache_readahead(f, start, size, size - size / 2);
}

void wait_on_page_locked(pfn_t pfn)
{
	while (pfn_to_page(pfn)->flags & PG_locked)
		sleep_on(page_waitqueue(pfn), 0, false);
}

/* read()'s find_get_page + readahead + wait: the up-to-date page at pgoff, or NO_PFN
 * without memory (the fault paths have their own: filemap_fault_2628, filemap_2631.c). */
static pfn_t get_uptodate_page(struct address_space *f, uint64_t pgoff)
{
	for (int tries = 0;; tries++) {
		pfn_t pfn = page_index_lookup(f, pgoff);
		if (pfn == NO_PFN) {
			ondemand_readahead(f, pgoff, false);
			pfn = page_index_lookup(f, pgoff);
			if (pfn == NO_PFN) {
				if (tries > 2)
					return NO_PFN;
				continue;
			}
		} else if (pfn_to_page(pfn)->flags & PG_readahead) {
			pfn_to_page(pfn)->flags &= ~PG_readahead;
			ondemand_readahead(f, pgoff, true);
		}
		struct page *p = pfn_to_page(pfn);
		p->pins++;
		wait_on_page_locked(pfn);
		p->pins--;
		if (page_index_lookup(f, pgoff) == pfn) {
			f->ra_prev_index = pgoff;
			return pfn;
		}
		release_user_page(pfn);
	}
}

int file_read(struct address_space *f, uint64_t pgoff, uint64_t npages)
{
	cpu_work_sys(MM->hw->syscall_ns);
	for (uint64_t i = pgoff; i < pgoff + npages && i < f->size_pages; i++) {
		pfn_t pfn = get_uptodate_page(f, i);
		if (pfn == NO_PFN)
			return -2;
		mark_page_accessed(pfn); /* do_generic_file_read, once per page per call */
		cpu_work_sys(MM->hw->page_copy_ns);
		cond_resched();
		if (current && fatal_signal_pending(current))
			return -2;
	}
	return 0;
}

pfn_t find_lock_page(struct address_space *f, uint64_t pgoff)
{
	for (;;) {
		pfn_t pfn = page_index_lookup(f, pgoff);
		if (pfn == NO_PFN)
			return NO_PFN;
		struct page *p = pfn_to_page(pfn);
		p->pins++;
		wait_on_page_locked(pfn);
		p->pins--;
		if (page_index_lookup(f, pgoff) == pfn)
			return pfn;
		release_user_page(pfn);
	}
}

/* filemap_fault without madvise hints, 2.6.23 to 2.6.30 (mm/filemap.c at v2.6.28): a miss
 * reads ra_pages around the fault, unless the file has missed MMAP_LOTSAMISS times more
 * than it hit; only a fault that did the read-around counts in PGMAJFAULT, so one that
 * reads the page alone (page_cache_read) is minor, as is one that waits for a page another
 * fault's read-around brought in. A hit found without read-around lowers mmap_miss, a
 * signed count with no floor. */
static pfn_t filemap_fault_2628(struct vm_area_struct *vma, uint64_t pgoff, bool *major)
{
	struct address_space *f = vma->file;
	struct file_ra_state *ra = vma->ra;
	bool did_readaround = false;
	for (;;) { /* retry_find */
		pfn_t pfn = find_lock_page(f, pgoff);
		if (pfn == NO_PFN) {
			ra->mmap_miss++;
			if (ra->mmap_miss <= MMAP_LOTSAMISS) {
				if (!did_readaround)
					*major = true;
				did_readaround = true;
				unsigned long ra_pages = max_sane_readahead(MM->ra_pages);
				if (ra_pages) {
					uint64_t start =
					    pgoff > ra_pages / 2 ? pgoff - ra_pages / 2 : 0;
					do_page_cache_readahead(f, start, ra_pages);
				}
				pfn = find_lock_page(f, pgoff);
			}
			if (pfn == NO_PFN) { /* no_cached_page */
				if (page_cache_read(f, pgoff) < 0)
					return NO_PFN;
				/* 2.6.9-2.6.19 filemap_nopage: grab_swap_token once the read is
				 * started (kernel-reclaim.md §4.1; swap_token.c) */
				policy_call_all(file_no_cached_page, vma->mm);
				continue;
			}
		}
		if (!did_readaround)
			ra->mmap_miss--;
		ra->prev_index = pgoff;
		return pfn;
	}
}

pfn_t filemap_fault(struct vm_area_struct *vma, uint64_t pgoff, bool *major)
{
	if (pgoff >= vma->file->size_pages)
		return NO_PFN;
	pfn_t pfn = policy_hooked(filemap_fault) ? policy_filemap_fault(vma, pgoff, major)
						 : filemap_fault_2628(vma, pgoff, major);
	/* up to 2.6.28 filemap_fault marks every file fault (§1.4); from 2.6.29 the young PTE
	 * stands for the use, and zap_vma marks the page at unmap (unmap_mark_accessed.c) */
	if (pfn != NO_PFN && !policy_fault_leaves_unmarked(pfn))
		mark_page_accessed(pfn);
	return pfn;
}

int file_write(struct address_space *f, uint64_t pgoff, uint64_t npages)
{
	cpu_work_sys(MM->hw->syscall_ns);
	for (uint64_t i = pgoff; i < pgoff + npages; i++) {
		if (i >= f->cap_pages)
			return -1;
		pfn_t pfn = page_index_lookup(f, i);
		if (pfn == NO_PFN) {
			/* whole-page write: no read needed (grab_cache_page_write_begin) */
			pfn = __alloc_pages(GFP_HIGHUSER_MOVABLE, 0);
			if (pfn == NO_PFN)
				return -2;
			if (page_index_lookup(f, i) != NO_PFN) {
				__free_page(pfn);
				pfn = page_index_lookup(f, i);
			} else {
				struct page *p = pfn_to_page(pfn);
				p->owner = OWNER_USER_NEW;
				MM->nr_user_new++;
				add_to_page_cache_lru(f, i, pfn);
			}
		}
		struct page *p = pfn_to_page(pfn);
		p->pins++;
		wait_on_page_locked(pfn);
		/* a page under writeback is rewritten in place; the new data is dirty again */
		p->pins--;
		if (page_index_lookup(f, i) != pfn) {
			i--; /* reclaimed while we waited: do this page again */
			continue;
		}
		cpu_work_sys(MM->hw->page_copy_ns);
		/* no mark_page_accessed: 2.6.28's generic_perform_write has none (2.6.31 added
		 * it; kernel-reclaim.md §1.4) */
		set_page_dirty(pfn);
		if (i + 1 > f->size_pages)
			f->size_pages = i + 1;
		balance_dirty_pages_ratelimited(f);
		cond_resched();
		if (current && fatal_signal_pending(current))
			return -2;
	}
	return 0;
}

void file_truncate(struct address_space *f)
{
	for (uint64_t i = page_index_next(f, 0); i < f->cap_pages; i = page_index_next(f, i + 1)) {
		pfn_t pfn = page_index_lookup(f, i);
		if (pfn == NO_PFN)
			continue;
		struct page *p = pfn_to_page(pfn);
		if (page_mapped(p) || (p->flags & (PG_dirty | PG_writeback | PG_locked)) ||
		    !(p->flags & PG_lru) || p->pins)
			continue;
		remove_from_page_cache(pfn);
		release_user_page(pfn);
	}
}
