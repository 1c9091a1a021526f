/* The memory model's data: frames (struct page), zones, address spaces, VMAs and page
 * tables, files and the page cache, swap. Kernel names and flag names throughout
 * (kernel-reclaim.md §1.3). One machine per process: the state lives in `struct mm_machine`
 * reached through the global `MM`. */
#ifndef MMSIM_MM_TYPES_H
#define MMSIM_MM_TYPES_H

#include "hw/blockdev.h"
#include "hw/profile.h"
#include "mm/proportions.h"
#include "mm/task.h"
#include "mm/vmstat.h"
#include "sim/rng.h"
#include "sim/types.h"

/* ---- page flags (§1.3) ---- */
#define PG_locked      (1u << 0)
#define PG_referenced  (1u << 1)
#define PG_dirty       (1u << 2)
#define PG_lru	       (1u << 3)
#define PG_active      (1u << 4)
#define PG_writeback   (1u << 5)
#define PG_reclaim     (1u << 6)
#define PG_swapcache   (1u << 7)
#define PG_swapbacked  (1u << 8)
#define PG_unevictable (1u << 9)
#define PG_mlocked     (1u << 10)
#define PG_buddy       (1u << 11) /* free, in the zone's free list */
#define PG_slab	       (1u << 12) /* kernel allocation (stack, page table, slab): never on an LRU */
#define PG_isolated    (1u << 13) /* simulator: off the LRU in a reclaimer's private list */
#define PG_readahead   (1u << 14)
#define PG_private     (1u << 15) /* buffers attached */
#define PG_pcp	       (1u << 16) /* simulator: free, on a per-CPU page list */

/* LRU lists (§1.3): index = LRU_BASE + LRU_ACTIVE(1) + LRU_FILE(2) */
enum lru_list {
	LRU_INACTIVE_ANON = 0,
	LRU_ACTIVE_ANON = 1,
	LRU_INACTIVE_FILE = 2,
	LRU_ACTIVE_FILE = 3,
	LRU_UNEVICTABLE = 4,
	NR_LRU_LISTS = 5,
};
#define NR_EVICTABLE_LRU 4
#define LRU_ACTIVE	 1
#define LRU_FILE	 2

/* ---- constants (§1.1) ---- */
#define DEF_PRIORITY		12
#define SWAP_CLUSTER_MAX	32
#define PAGE_ALLOC_COSTLY_ORDER 3
#define MAX_ORDER		11

/* get_order: the smallest order whose block of 2^order pages of 1 << page_shift bytes
 * holds `size` bytes */
static inline unsigned get_order(uint64_t size, unsigned page_shift)
{
	unsigned order = 0;
	while (((uint64_t)1 << (page_shift + order)) < size)
		order++;
	return order;
}

/* A frame. Links are frame numbers so the whole array is compact and position-independent. */
struct page {
	uint32_t flags;
	pfn_t next, prev; /* LRU list, free list or a reclaimer's private list */
	int32_t mapcount; /* PTEs mapping the page */
	uint32_t mapping; /* file id + 1, or 0 for anonymous */
	uint32_t index;	  /* page offset in the file */
	uint32_t private; /* swap slot while PG_swapcache; the block's order while PG_buddy */
	uint32_t rmap;	  /* head of the chain of PTEs mapping it (index into the rmap pool) */
	uint8_t zone;
	uint8_t pins;	/* transient references: a task holding the page across a sleep */
	uint16_t owner; /* simulator: why a non-LRU page is allocated (enum page_owner) */
};

enum page_owner {
	OWNER_NONE = 0,
	OWNER_USER_NEW, /* allocated for a user page, not yet on an LRU */
	OWNER_STACK,
	OWNER_PAGETABLE,
	OWNER_SLAB,
	OWNER_SLAB_RECLAIMABLE, /* SLAB_RECLAIM_ACCOUNT caches: dentries, inodes */
	OWNER_PIPE,
	OWNER_OTHER_KERNEL,
};

struct pagelist {
	pfn_t head, tail;
	unsigned long nr;
};

/* Per-CPU hot page list (2.6.28 struct per_cpu_pages): order-0 frees land here and go back
 * to the buddy lists `batch` at a time once `high` are held; allocations take from here
 * first. Pages here are not in NR_FREE_PAGES. */
struct per_cpu_pages {
	struct pagelist list;
	unsigned long high, batch;
};

enum zone_type { ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, ZONE_HIGHMEM, MAX_NR_ZONES };

struct zone {
	const char *name;
	int idx; /* zone_type */
	pfn_t start_pfn, end_pfn;
	unsigned long present_pages;
	/* watermarks (§1.2) */
	unsigned long pages_min, pages_low, pages_high;
	unsigned long lowmem_reserve[MAX_NR_ZONES];
	unsigned int inactive_ratio;
	/* the buddy allocator's free lists: blocks of 2^order pages, the head page marked
	 * PG_buddy with its order in `private` */
	struct pagelist free_area[MAX_ORDER];
	pfn_t boot_top;		   /* boot reservations take the frames below end_pfn downwards */
	struct per_cpu_pages *pcp; /* one per CPU */
	/* split LRU */
	struct pagelist lru[NR_LRU_LISTS];
	unsigned long nr_scan[NR_LRU_LISTS]; /* persistent scan accumulators (§1.8) */
	unsigned long recent_rotated[2], recent_scanned[2];
	int prev_priority;
	/* 2.6.8: the priority this zone was last scanned at, by whichever reclaimer; each
	 * reclaimer's exit copies it to prev_priority (vmscan_268.c) */
	int temp_priority;
	unsigned long pages_scanned;
	bool all_unreclaimable;
	/* ZONE_CONGESTED (2.6.37+, kept by the writeback throttle's policy): reclaim found
	 * every dirty page of a batch backed by a congested queue */
	bool congested;
	unsigned long nr_isolated[2]; /* anon, file */
	struct spinlock lru_lock;
	struct spinlock zone_lock;
	long stat[NR_VM_ZONE_STAT_ITEMS];
	uint64_t
	    event[NR_VM_ZONE_EVENT_ITEMS]; /* per-zone event counters (pgscan_direct_<zone>...) */
	/* KOSAKI's throttle (§2.2) */
	int reclaimers;
	struct waitqueue reclaim_wait;
	/* 5.16 reclaim_throttle (§2.4) */
	struct waitqueue throttle_wait[4];
};

/* ---- address spaces ---- */
#define VM_READ	  0x1u
#define VM_WRITE  0x2u
#define VM_EXEC	  0x4u
#define VM_SHARED 0x8u
#define VM_LOCKED 0x2000u
/* committed: its pages count in vm_committed_space until it goes (mmap_region, 2.6.28) */
#define VM_ACCOUNT 0x100000u
/* MAP_NORESERVE: not checked against vm.overcommit_memory but in mode 2 (mmap_region) */
#define VM_NORESERVE 0x200000u

/* A PTE in 32 bits: present/young/dirty/swap/COW bits and a frame or swap slot number. */
#define PTE_PRESENT  (1u << 31)
#define PTE_YOUNG    (1u << 30)
#define PTE_DIRTY    (1u << 29)
#define PTE_SWAP     (1u << 28)
#define PTE_RDONLY   (1u << 27) /* write-protected for copy-on-write */
#define PTE_PFN_MASK ((1u << 27) - 1)

/* file_ra_state: the readahead state of one open file (include/linux/fs.h). The model keeps
 * one per file mapping; fork shares it, as the child's VMA shares the parent's struct file
 * (each program maps each of its files once, so a mapping stands for an open). */
struct file_ra_state {
	uint64_t start;	     /* where readahead started */
	unsigned size;	     /* pages read */
	unsigned async_size; /* the next readahead starts when this many are left */
	int mmap_miss;	     /* fault misses less hits (signed to 2.6.30, floored at 0 after) */
	uint64_t prev_index; /* prev_pos >> PAGE_SHIFT; UINT64_MAX is file_ra_state_init's -1 */
	int users;	     /* mappings sharing it */
};

struct vm_area_struct {
	struct mm_struct *mm;
	uint32_t id;	/* index in the VMA table; rmap entries refer to it */
	uint64_t start; /* first virtual page number */
	uint64_t npages;
	unsigned flags;
	struct address_space *file; /* NULL for anonymous */
	struct file_ra_state *ra;   /* its open file's readahead state (file mappings) */
	uint64_t pgoff;		    /* file page of the first page */
	uint32_t *pte;		    /* one PTE per page */
	uint32_t *rmap;		    /* per page: the rmap entry of its PTE while it maps one */
	/* the page-table page of each page-table span (1 << pte_shift pages, aligned) the VMA
	 * reaches, NO_PFN if it has none yet; VMAs sharing a span hold the same page */
	pfn_t *ptpage;
	struct vm_area_struct *next; /* in the mm, sorted by start */
	bool dead;
	bool anon_vma; /* has an anon_vma: an anonymous page was mapped here (or in its parent) */
};

#define MMAP_CACHE_BITS 3
#define MMAP_CACHE_SIZE (1 << MMAP_CACHE_BITS)

/* One VMA in the address-ordered index of an mm. */
struct vma_range {
	uint64_t start, end; /* [start, end) in virtual page numbers */
	struct vm_area_struct *vma;
	uint32_t *pte; /* vma->pte, fixed for the VMA's life: a hit reads no VMA */
};

/* Where a mapping goes in the address space (hw_profile's layout): exec's text, the data and
 * brk heap after it, the mmap area (libraries, anonymous mmaps, thread stacks), the stack. */
enum map_area { MAP_AREA_MMAP, MAP_AREA_TEXT, MAP_AREA_BRK, MAP_AREA_STACK, NR_MAP_AREAS };

struct mm_struct {
	struct vm_area_struct *mmap; /* sorted list */
	/* find_vma's ordered structure (the kernel's mm_rb): the VMAs by address in one sorted
	 * array, binary-searched when the one-entry mmap_cache misses */
	struct vma_range *vma_index;
	uint32_t map_count, vma_index_cap;
	/* find_vma's cache in front of it: 2.6.28's mmap_cache holds the last VMA found; this
	 * holds MMAP_CACHE_SIZE, by address and with their ranges inline, as the vmacache of
	 * 3.15 does, so a program that cycles over its stack, text and libc finds each without
	 * a search. Which VMA a lookup finds never depends on it. */
	struct vma_range mmap_cache[MMAP_CACHE_SIZE];
	/* changes whenever a VMA comes or goes (MM->vma_seq: unique over the run, never 0): what a
	 * struct touch_set found stays valid while this does not change */
	uint64_t vma_gen;
	uint64_t area_next[NR_MAP_AREAS]; /* where each area's next mapping goes (enum map_area) */
	unsigned long total_vm;		  /* pages */
	unsigned long rss_anon, rss_file;
	unsigned long nr_ptes;
	pfn_t pgd;	   /* the pgd: 2^hw_profile.pgd_order pages, or NO_PFN */
	pfn_t upper_pt[8]; /* the pud/pmd pages (the rest of hw_profile.pt_upper_pages) */
	int nr_upper_pt;
	int users;     /* tasks sharing it (threads) */
	bool in_fault; /* mmap_sem held for a fault: the swap token's "busy" test */
	int oomkilladj;
	uint32_t id;
	/* swap token (§4) */
	sim_time_t swap_token_time; /* 2004/2005: not eligible for the token before this */
	bool recent_pagein;	    /* 2004/2005: paged in since the holder was last asked */
	bool token_refractory;	    /* Con Kolivas' bit: skip the next turn */
	unsigned long faultstamp;   /* 2.6.20: global_faults at its last grab */
	unsigned token_priority;
	unsigned long last_interval;
	struct task_struct *owner;
	struct mm_struct *all_next, *all_prev; /* every live mm, for teardown */
	/* task_struct.dirties, the task's share of page dirtying: kept per mm (the tasks of
	 * one mm share it; fork gives each process its own) */
	struct prop_local dirties;
};

struct address_space {
	uint32_t id;
	char name[32];
	uint64_t size_pages; /* current size */
	uint64_t cap_pages;  /* extent reserved on disk */
	/* page cache index, one slot per page up to cap_pages, in chunks (mm/page_index.h) */
	struct page_index_chunk **index;
	uint64_t disk_sector; /* start of its contiguous extent */
	unsigned long nrpages;
	unsigned long nr_dirty;
	unsigned long nr_mapped_vmas; /* i_mmap is non-empty */
	sim_time_t dirtied_when;
	uint64_t wb_cursor; /* where the flusher resumes */
	uint64_t wb_pass;   /* the writeback_inodes call that last took it (once per call) */
	bool on_dirty_list;
	struct address_space *dirty_next;
	/* readahead state (file_ra_state) */
	uint64_t ra_prev_index;
	unsigned ra_size;
	bool exec; /* program text */
	/* (the index also keeps, per page, the simulator's shadow bits: FILE_SHADOW_LOADED once
	 * ever read in, FILE_SHADOW_EVICTED while reclaim's eviction is the reason it is not
	 * cached (the refault counters), FILE_SHADOW_FAULTED once mapped by a fault since read
	 * in (read-around's waste)) */
	/* its dentry and inode in the dcache and icache (src/mm/dcache.c, inode.c): the slab each
	 * object sits in (NO_PFN once freed), the open count (d_count), and the unused lists they
	 * wait on */
	pfn_t d_slab, i_slab;
	int d_count;
	bool d_referenced;     /* DCACHE_REFERENCED: a second chance in prune_dcache */
	bool i_unused_counted; /* in inodes_stat.nr_unused */
	struct file_link {
		struct address_space *next, *prev;
		bool on;
	} d_lru, i_list;
	/* a shmem object (tmpfs file, SysV segment, shared anonymous mapping): its
	 * shmem_inode_info, NULL for a file on the disk (src/mm/shmem.c) */
	struct shmem_inode_info *shmem;
};
#define FILE_SHADOW_LOADED  0x1u
#define FILE_SHADOW_EVICTED 0x2u
#define FILE_SHADOW_FAULTED 0x4u /* a task faulted it into a page table since it was read in */

/* Reverse map: one entry per PTE that maps a page, on a doubly linked chain from the page
 * (prev 0: the chain's head), so a PTE's entry (vm_area_struct.rmap) leaves it in O(1). */
struct rmap_item {
	uint32_t *pte; /* the PTE itself: a VMA's PTE array never moves */
	uint32_t next, prev;
	uint32_t vma;
};

/* ---- swap ---- */
struct swap_info {
	uint64_t nr_slots;  /* total_swap_pages */
	uint64_t nr_free;   /* nr_swap_pages */
	uint16_t *swap_map; /* references per slot: swap PTEs + 1 while in the swap cache */
	pfn_t *cache;	    /* swap cache: the page holding each slot, or NO_PFN */
	uint64_t cursor;    /* next-fit allocation keeps swap-out clusters contiguous */
	uint64_t disk_sector;
	struct blockdev *bdev;
};

#endif
