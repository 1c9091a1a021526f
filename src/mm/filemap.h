/* The page cache's read side shared by the fault paths of each era (filemap.c: 2.6.23-2.6.30
 * filemap_fault; filemap_2631.c: 2.6.31's do_sync/do_async_mmap_readahead). */
#ifndef MMSIM_MM_FILEMAP_H
#define MMSIM_MM_FILEMAP_H

#include "mm/mm.h"

/* VM_MAX_READAHEAD (include/linux/mm.h): a block device's backing_dev_info.ra_pages is
 * 128 KiB in pages (blk_queue_make_request); MM->ra_pages holds the files' (§ readahead) */
#define VM_MAX_READAHEAD_KB 128
/* mm/filemap.c: past this many more misses than hits a file gets no mmap read-around */
#define MMAP_LOTSAMISS 100

/* __do_page_cache_readahead (mm/readahead.c): reads the absent pages of [start, start + nr)
 * below the end of the file, marking PG_readahead on the page nr - lookahead_size into the
 * window if it is one of them; returns how many it started. Stops at an allocation failure. */
unsigned long __do_page_cache_readahead(struct address_space *f, uint64_t start, uint64_t nr,
					uint64_t lookahead_size);
/* max_sane_readahead: nr, at most half of the inactive file and free pages */
unsigned long max_sane_readahead(unsigned long nr);
/* page_cache_read: the one page at pgoff read (or already there): 0, else -1 (no memory) */
int page_cache_read(struct address_space *f, uint64_t pgoff);
/* find_lock_page: the page at pgoff once its read has finished, or NO_PFN if not cached */
pfn_t find_lock_page(struct address_space *f, uint64_t pgoff);
void wait_on_page_locked(pfn_t pfn);

/* 2.6.31's filemap_fault (filemap_2631.c), the hook of vm.mmap_sync_readahead */
pfn_t filemap_fault_2631(struct vm_area_struct *vma, uint64_t pgoff, bool *major);

#endif
