/* shmem: swap-backed page cache (2.6.28 mm/shmem.c), the memory of tmpfs files, SysV
 * segments and shared anonymous mappings. A shmem object is a struct address_space whose
 * pages are PageSwapBacked: they live on the anon LRU lists, count in NR_FILE_PAGES (and
 * NR_FILE_MAPPED while mapped), never in NR_FILE_DIRTY, and reclaim writes them to swap
 * (shmem_writepage), leaving a swap entry per page index in the object. */
#ifndef MMSIM_MM_SHMEM_H
#define MMSIM_MM_SHMEM_H

#include "mm/mm.h"

/* The part of 2.6.28's shmem_inode_info the model keeps. */
struct shmem_inode_info {
	uint32_t *swp;	       /* per page index: its swap slot, 0 for none (shmem_swp_entry) */
	unsigned long swapped; /* indices with a swap entry (info->swapped) */
	/* nobody can open it again (shmem_zero_setup's object): it goes with its last mapping */
	bool unlinked;
	/* pages committed for it (shmem_acct_size of a shared anonymous mapping), given back
	 * when it goes (shmem_unacct_size) */
	unsigned long acct_pages;
	/* made without VM_ACCOUNT (a tmpfs file, a GEM object, MAP_NORESERVE): each page is
	 * committed as it is allocated (shmem_acct_block), given back as it goes */
	bool acct_blocks;
	/* pages allocated and not given back: in the cache or swapped (info->alloced; equal
	 * to nrpages + swapped after shmem_recalc_inode) */
	unsigned long alloced;
};

/* shmem_writepage's "keep the page locked and active" answer, as the kernel's */
#define AOP_WRITEPAGE_ACTIVATE 0x80000

static inline bool mapping_is_shmem(const struct address_space *f)
{
	return f && f->shmem;
}

/* A page in a shmem object's page cache (not one of its pages in the swap cache). */
static inline bool page_is_shmem(const struct page *p)
{
	return p->mapping && MM->files[p->mapping - 1]->shmem;
}

/* shmem_file_setup: a new object of size_pages pages, empty. It has a dentry and an inode
 * (held while it exists) but no extent on the disk. With VM_ACCOUNT in flags its pages are
 * committed first (shmem_acct_size) and given back when it goes; NULL when
 * vm_enough_memory refuses them. Without it each page is committed when shmem_getpage
 * allocates it (shmem_acct_block, 2.6.28's polarity; 2.6.29 on says VM_NORESERVE). */
struct address_space *shmem_file_setup(const char *name, uint64_t size_pages, unsigned flags);
/* shmem_zero_setup: the object behind a MAP_SHARED | MAP_ANONYMOUS mapping of npages,
 * truncated when its last mapping goes (the file's last fput); flags as shmem_file_setup's. */
struct address_space *shmem_zero_setup(uint64_t npages, unsigned flags);
/* A mapping of f went away (the VMA's fput): an unlinked object with no mapping left is
 * truncated. */
void shmem_mapping_gone(struct address_space *f);
/* shmem_getpage (SGP_CACHE): the object's page at idx, from its cache, else read from the
 * swap slot its entry names, else a new zeroed page. *major (if given) is set when the
 * page had to be read from swap, and PGMAJFAULT counted then, as 2.6.28 counts it here for
 * a fault. Returns 0, -1 past the object's size, -2 without memory, -3 when
 * shmem_acct_block refuses a new page (the kernel's -ENOSPC). */
int shmem_getpage(struct address_space *f, uint64_t idx, pfn_t *pagep, bool *major);
/* shmem_fault: shmem_getpage for a fault on vma at the object's page pgoff, then
 * mark_page_accessed. 0 with *pfn set; -2 for VM_FAULT_OOM; -3 for VM_FAULT_SIGBUS (past
 * the object's end, or the page's commit refused). */
int shmem_fault(struct vm_area_struct *vma, uint64_t pgoff, pfn_t *pfn, bool *major);
/* shmem_writepage for reclaim: the locked, unmapped page moves to the swap cache under a
 * new slot recorded in the object (it stays dirty, unlocked: swap_writepage writes it
 * when reclaim meets it again), 0; or without swap it is redirtied and stays locked,
 * AOP_WRITEPAGE_ACTIVATE. */
int shmem_writepage(pfn_t pfn);
/* shmem_truncate (shmem_delete_inode's truncate_inode_pages + shmem_truncate_range): frees
 * the object's pages and swap entries. Pages someone holds (mapped, locked, under
 * writeback, pinned, isolated by a reclaimer) stay in its cache; once the object is
 * unlinked and unmapped, reclaim frees them unwritten (shmem_writepage). */
void shmem_truncate(struct address_space *f);

#endif
