/* The memory-management core's promises to the layers above (kernel, workloads, cli) and
 * the machine-wide state its files share. */
#ifndef MMSIM_MM_MM_H
#define MMSIM_MM_MM_H

#include "mm/mm_trace.h"
#include "mm/mm_types.h"
#include "mm/page_index.h"

/* gfp flags (kernel values are irrelevant; the combinations are what matter) */
#define __GFP_WAIT	     0x01u
#define __GFP_HIGH	     0x02u
#define __GFP_IO	     0x04u
#define __GFP_FS	     0x08u
#define __GFP_NOFAIL	     0x10u
#define __GFP_NORETRY	     0x20u
#define __GFP_REPEAT	     0x40u
#define __GFP_NOMEMALLOC     0x80u
#define __GFP_HIGHMEM	     0x100u
#define __GFP_DMA32	     0x200u
#define __GFP_DMA	     0x400u
#define __GFP_COLD	     0x800u /* page_cache_alloc_cold: from the per-CPU list's cold end */
#define GFP_ATOMIC	     (__GFP_HIGH)
#define GFP_NOIO	     (__GFP_WAIT)
#define GFP_NOFS	     (__GFP_WAIT | __GFP_IO)
#define GFP_KERNEL	     (__GFP_WAIT | __GFP_IO | __GFP_FS)
#define GFP_USER	     GFP_KERNEL
#define GFP_HIGHUSER_MOVABLE (GFP_KERNEL | __GFP_HIGHMEM)

/* KERNEL_VERSION(2, 6, 28), as linux/version.h has it (src/mm/era/ turns kernel.version
 * into the sysctls that kernel boots with) */
typedef uint32_t kernel_version_t;
#define KERNEL_VERSION(a, b, c) (((kernel_version_t)(a) << 16) + ((b) << 8) + (c))

/* vm.* sysctls and policy switches. Defaults are vanilla 2.6.28. */
struct vm_sysctl {
	int swappiness;		       /* vm.swappiness, 0..100 */
	long min_free_kbytes;	       /* vm.min_free_kbytes, 0 = computed at boot (§1.2) */
	int page_cluster;	       /* vm.page-cluster, -1 = boot default (§1.1) */
	int dirty_ratio;	       /* vm.dirty_ratio */
	int dirty_background_ratio;    /* vm.dirty_background_ratio */
	int dirty_expire_centisecs;    /* vm.dirty_expire_centisecs */
	int dirty_writeback_centisecs; /* vm.dirty_writeback_centisecs */
	int laptop_mode;	       /* vm.laptop_mode */
	int oom_kill_allocating_task;  /* vm.oom_kill_allocating_task */
	int panic_on_oom;	       /* vm.panic_on_oom: 0, or stop the run at the first OOM */
	int lowmem_reserve_ratio[MAX_NR_ZONES]; /* vm.lowmem_reserve_ratio */
	int vfs_cache_pressure;			/* vm.vfs_cache_pressure */
	int overcommit_memory; /* vm.overcommit_memory: OVERCOMMIT_GUESS, _ALWAYS or _NEVER */
	int overcommit_ratio;  /* vm.overcommit_ratio: % of RAM mode 2 lets be committed */
	/* reclaim throttles (kernel-reclaim.md §2), all off in vanilla 2.6.28 */
	int max_reclaiming_tasks_per_zone; /* KOSAKI v8 sysctl; 0 = no throttle (his default 3) */
	int max_reclaiming_tasks;	   /* KOSAKI's RFC (v1): try_to_free_pages callers at once,
					    * machine-wide; 0 = off (the RFC: 2 x nodes) */
	int too_many_isolated;		   /* 2.6.32 too_many_isolated() in shrink_inactive_list */
	int reclaim_throttle;		   /* 5.16 reclaim_throttle() ISOLATED/NOPROGRESS */
	/* VM_EXEC protection (§3), off in 2.6.28 */
	int reclaim_exec_protect; /* referenced mapped exec file pages stay active */
	/* the example policy of docs/extending.md (docs/examples/exec_protect_anon.c), which
	 * only its test registers: mmsim itself has no key for it */
	int reclaim_exec_protect_anon;
	/* Rik van Riel's "evict use-once pages first" (2.6.31, §1.21), off in 2.6.28: the
	 * active file list is scanned only while it is larger than the inactive one */
	int reclaim_inactive_file_is_low;
	/* Rik van Riel's "bail out of direct reclaim after swap_cluster_max pages" (2.6.29),
	 * off in 2.6.28 */
	int reclaim_direct_bail_out;
	/* Johannes Weiner's "don't free swap slots on page deactivation" (2.6.30), off in
	 * 2.6.28 */
	int deactivate_keeps_swap;
	/* Nick Piggin's "don't mark_page_accessed in fault path" (2.6.29), off in 2.6.28: a file
	 * fault no longer marks the page accessed; unmapping a young PTE does */
	int unmap_mark_accessed;
	/* zap_pte_range marks a young file page accessed (up to 2.6.20; Ken Chen's daa88c8d214
	 * made it PG_referenced only in 2.6.21) */
	int zap_mark_accessed;
	/* file faults read ahead as 2.6.31's do_sync/do_async_mmap_readahead (Wu Fengguang's
	 * readahead series), not 2.6.28's read-around in filemap_fault */
	int mmap_sync_readahead;
	/* the 2011 writeback series (§5), vanilla values 1, 2, 0, 0 */
	int reclaim_direct_file_writeback; /* 1: direct reclaim may write file pages */
	int reclaim_kswapd_file_writeback; /* 2 always, 1 at priority < 10 only, 0 never */
	int reclaim_immediate;		   /* PG_reclaim on skipped dirty file pages */
	int reclaim_throttle_writeback;	   /* wait_iff_congested on batches under writeback */
	/* The global reclaim algorithm: RECLAIM_LRU_2628 (the split LRU, the default),
	 * RECLAIM_LRU_2625 (one active and one inactive list per zone, §1.8/§1.10/§1.11) or
	 * RECLAIM_LRU_268 (2.6.8's reclaim, allocator and OOM killer: vmscan_268.c) */
	int reclaim_lru;
	/* What try_to_free_pages reports (§1.6): RECLAIM_PROGRESS_2625 "progress" unless every
	 * zone is all_unreclaimable; RECLAIM_PROGRESS_2626 the pages reclaimed, so a pass that
	 * freed nothing sends the allocator to the OOM killer (Nishanth Aravamudan's "Smarter
	 * retry of costly-order allocations", -mm April 2008, mainline 2.6.26). AUTO follows
	 * reclaim_lru. */
	int reclaim_progress;
	/* The reclaim nap (congestion_wait(WRITE, HZ/10) at priority < DEF_PRIORITY - 2, in
	 * do_try_to_free_pages and balance_pgdat) only when the pass met more than
	 * swap_cluster_max pages with I/O pending or needed (sc->nr_io_pages): Rik van Riel's
	 * "kswapd should only wait on IO if there is IO" (f1a9ee758de), 2.6.25-rc1 to -rc6,
	 * reverted in -rc7 (4dd4b920218). 0: nap whenever the pass scanned something. */
	int reclaim_nap_needs_io;
	/* kswapd's nice level: -5 from 2.6.22's kthreadd (KTHREAD_NICE_LEVEL, which every
	 * kthread inherited until 2.6.36; pdflush set itself back to 0, kswapd did not) */
	int kswapd_nice;
	/* SLUB's slab layout (kernel-reclaim.md §1.16): boot parameters, not sysctls.
	 * slub_order_rule: which calculate_order (enum slub_order_rule); slub_max_order: -1
	 * the kernel's default; slub_min_objects: 0 the kernel's default */
	int slub_order_rule;
	int slub_max_order;
	int slub_min_objects;
	/* vma_wants_writenotify (2.6.19 on): a shared writable file mapping's clean PTEs are
	 * write-protected, so the first write faults and dirties the page (§1.17: it counts
	 * toward the dirty limits) */
	int mmap_writenotify;
	/* __vm_enough_memory's guess leaves calculate_totalreserve_pages out of the free pages
	 * (Hideo Aoki's "consider reserved pages", 2.6.17 on); before, 2.6.8's
	 * cap_vm_enough_memory counted every free page */
	int overcommit_totalreserve;
	/* the swap token (§4), off in mmsim's vanilla */
	int swap_token;		     /* enum swap_token_variant */
	int swap_token_timeout;	     /* seconds (2004/2005 variants) */
	int swap_token_exec_inherit; /* Andrew Morton's exec/exit inheritance */
	int swap_token_refractory;   /* Con Kolivas' refractory bit */
	int swap_token_aging;	     /* KOSAKI's priority aging (2.6.3x) */
};

/* calculate_order of mm/slub.c: 2.6.23-2.6.25 (slub_max_order 1 with 4 KiB pages, else 2;
 * 4 or 8 objects; waste 1/8 then 1/4; objects halved), 2.6.26-2.6.29 (4 * (fls(CPUs) + 1)
 * objects, slub_max_order 3, waste 1/16 to 1/4, objects halved, a failed slab falls back
 * to the object's own order), 2.6.30 on (objects capped at what order 3 holds, and
 * lowered one at a time) */
enum slub_order_rule { SLUB_ORDER_2625, SLUB_ORDER_2626, SLUB_ORDER_2630 };
enum { RECLAIM_LRU_2628, RECLAIM_LRU_2625, RECLAIM_LRU_268 };
enum { RECLAIM_PROGRESS_AUTO, RECLAIM_PROGRESS_2625, RECLAIM_PROGRESS_2626 };

/* A reclaim rule variant (src/mm/era/era.h): a kernel's own version of the core of global
 * reclaim where it differs from 2.6.28's. */
struct scan_control;
struct reclaim_rules {
	const char *name; /* the value of vm.reclaim_lru */
	const char *summary;
	/* false: every evictable page is on the file lists, which stand for one active and
	 * one inactive list (2.6.25) */
	bool split_lru;
	/* read_swap_cache_async puts a page read from swap on the active list
	 * (lru_cache_add_active, 2.6.9-2.6.27), not the inactive anon list (2.6.28) */
	bool swapin_active;
	/* valid_swaphandles counts the allocated run from the start of the page_cluster
	 * window, stopping at its first free slot (before 8952898b0d2, 2.6.25-rc1), not the
	 * run around the faulting slot */
	bool swapin_window_from_start;
	/* what try_to_free_pages reports when vm.reclaim_progress = auto */
	int progress;
	/* shrink_zone's list work: how much of which list to scan, and scanning it */
	unsigned long (*shrink_zone_lists)(int priority, struct zone *z, struct scan_control *sc);
	/* shrink_zone ends with throttle_vm_writeout (2.6.16 on) */
	bool throttle_vm_writeout;
	/* the least free memory any allocation that may wait leaves, in pages_min: 1 from
	 * 2.6.9 on (the pass after waking kswapd tests pages_min), 2 in 2.6.8 (every pass
	 * tests pages_low, twice pages_min) */
	unsigned alloc_floor_mins;
	/* The rest replace a whole kernel function where the variant's differs from
	 * 2.6.25-2.6.28's, which NULL keeps: the priority loop of try_to_free_pages, kswapd's
	 * balance_pgdat, __alloc_pages, and the watermarks' setup
	 * (init_per_zone_pages_min's min_free_kbytes, then setup_per_zone_pages_min and the
	 * total_memory that reclaim's mapped_ratio divides by). */
	unsigned long (*do_try_to_free_pages)(struct scan_control *sc);
	unsigned long (*balance_pgdat)(int order);
	pfn_t (*alloc_pages)(unsigned gfp, unsigned order);
	long (*min_free_kbytes_for)(unsigned long lowmem_kbytes);
	void (*setup_per_zone_pages_min)(void);
	unsigned long (*total_memory)(void);
};

/* The sysctls of the default kernel era (src/mm/era/). */
void vm_sysctl_defaults(struct vm_sysctl *s);
/* Makes MM->sysctl take effect: the rule variant vm.reclaim_lru names and the hooks of the
 * policies that are on. mm_init calls it; a test that changes MM->sysctl calls it again. */
void mm_sysctl_apply(void);
/* The policies' hooks at the kernel layer's mm events (fork, exec, exit). */
void policy_mm_exit(struct mm_struct *mm, struct mm_struct *parent_mm);
void policy_mm_exec(struct mm_struct *old_mm, struct mm_struct *new_mm);
void policy_mm_fork(struct mm_struct *parent, struct mm_struct *child);

struct mm_config {
	const struct hw_profile *hw;
	uint64_t ram_bytes;
	uint64_t swap_bytes; /* 0 = no swap */
	uint64_t seed;
	struct vm_sysctl sysctl;
	int elevator; /* enum elevator_kind (hw/blockdev.h) */
};

/* Statistics of reclaim the run reports beside vmstat. */
struct reclaim_stats {
	int direct_reclaimers; /* inside try_to_free_pages now */
	int max_direct_reclaimers;
	int reclaimers_incl_kswapd;
	int max_reclaimers_incl_kswapd;
	sim_time_t max_ttfp_ns; /* longest try_to_free_pages call */
	int shrinking;		/* tasks inside shrink_zone now, kswapd included */
	int max_shrinking;
	uint64_t oom_kills;
	uint64_t alloc_failures;
	/* zone->lru_lock over all zones, filled in at the end of a run */
	uint64_t lru_lock_acquisitions, lru_lock_contended;
	sim_time_t lru_lock_spin_ns;
};

struct oom_victim {
	int pid;
	char comm[16];
	sim_time_t time;
	unsigned long badness;
	unsigned long rss;
};
#define MAX_OOM_RECORDS 64

/* The kernel layer's answers the mm core needs (it never includes kernel/). */
struct mm_task_ops {
	/* total_vm of p's children that have their own mm, as badness() adds them (§1.19) */
	unsigned long (*children_vm)(struct task_struct *p, struct task_struct **child_with_own_mm);
	/* send SIGKILL to every task using mm `mm` and mark `victim` TIF_MEMDIE */
	void (*kill)(struct task_struct *victim);
	bool (*is_init)(struct task_struct *p);
	/* has_capability(p, CAP_*) */
	bool (*has_capability)(struct task_struct *p, int cap);
};

#define NR_CPUS 256 /* machine.cpus' upper bound */

/* The filesystem's backing_dev_info: BDI_WRITEBACK and the writeback-completion proportion
 * (BDI_RECLAIMABLE is NR_FILE_DIRTY: only file pages on this one device are accounted). */
struct backing_dev_info {
	long nr_writeback;
	struct prop_local completions;
	bool dirty_exceeded;
};

struct mm_machine {
	const struct hw_profile *hw;
	uint32_t page_size, page_shift;
	uint32_t pte_shift; /* log2 of PTEs per page-table page: log2(page_size / pte_bytes) */
	/* the files' backing_dev_info.ra_pages, which file_ra_state_init gives every open file:
	 * hw_profile.fs_ra_pages, else VM_MAX_READAHEAD in pages */
	uint32_t ra_pages;
	int ncpus;
	struct page *pages;
	pfn_t nr_frames;
	struct zone zones[MAX_NR_ZONES];
	int nr_zones; /* zone_type < nr_zones are populated or empty */
	unsigned long totalram_pages;
	unsigned long vm_total_pages; /* nr_free_pagecache_pages() at build_all_zonelists */
	struct vm_sysctl sysctl;
	const struct reclaim_rules *rules; /* the rule variant vm.reclaim_lru chose */
	struct rng rng;

	struct rmap_item *rmap;
	uint32_t rmap_cap, rmap_free;
	struct vm_area_struct **vmas;
	uint32_t nr_vmas, vma_cap;
	uint32_t nr_locked_vmas; /* VMAs with VM_LOCKED: while 0, rmap walks need no VMA */
	uint64_t vma_seq;	 /* the last mm_struct.vma_gen handed out */
	uint32_t *vma_free_ids, nr_vma_free;
	uint32_t nr_mms;
	struct mm_struct *all_mms;
	struct address_space **files;
	uint32_t nr_files, files_cap;
	struct address_space *dirty_files; /* inodes with dirty pages, oldest first */
	struct address_space *dirty_files_tail;
	uint64_t wb_passes; /* writeback_inodes calls so far */

	struct blockdev disk;	   /* the filesystem's (and swap's, unless swap_disk is used) */
	struct blockdev swap_disk; /* swap on a disk of its own (hw_profile.swap_own_disk) */
	uint64_t fs_next_sector;
	struct swap_info swap;

	struct task_struct *kswapd;
	struct waitqueue kswapd_wait;
	int kswapd_max_order;
	struct task_struct *flusher;
	struct waitqueue flusher_wait;
	long flusher_nr_pages; /* work requested by wakeup_pdflush */
	/* vm_committed_space (mm/mmap.c): pages of VM_ACCOUNT mappings and of shared anonymous
	 * objects, /proc/meminfo's Committed_AS */
	long vm_committed_space;
	/* of which committed by a task still making the object or the page they belong to
	 * (shmem_file_setup; shmem_getpage's shmem_acct_block before the page is alloced) */
	long vm_committed_pending;
	bool flusher_busy;
	long dirty_ratelimits[NR_CPUS]; /* per CPU: pages dirtied since balance_dirty_pages */
	struct backing_dev_info bdi;	/* the filesystem's (every file lives on MM->disk) */
	struct prop_global vm_completions, vm_dirties;
	struct prop_local kthread_dirties; /* dirtying done outside any user mm */
	long ratelimit_pages;		   /* writeback_set_ratelimit */
	struct waitqueue congestion_wqh[2];
	struct waitqueue page_wait[64]; /* hashed: lock_page / wait_on_page_writeback */
	struct waitqueue oom_wait;
	bool zone_oom_locked;
	/* 2.6.8's out_of_memory: its static first, last, count and lastkill, in jiffies */
	uint64_t oom268_first, oom268_last, oom268_count, oom268_lastkill;
	/* KOSAKI's RFC throttle (kosaki_throttle_rfc.c): tasks past its gate, and its queue */
	int rfc_reclaimers;
	struct waitqueue rfc_reclaim_wait;

	unsigned long nr_user_new; /* frames allocated for user pages, not yet on an LRU */
	struct reclaim_stats rstats;
	struct oom_victim oom_records[MAX_OOM_RECORDS];
	unsigned nr_oom_records;
	const struct mm_task_ops *task_ops;
	bool stop_on_oom;
	bool oom_stop_requested;
};

extern struct mm_machine *MM;

/* ---- machine ---- */
int mm_init(const struct mm_config *cfg, const struct mm_task_ops *ops);
void mm_destroy(void);
/* Starts kswapd and the flusher; call after sched_init and mm_init. */
void mm_start_kthreads(void);

static inline struct page *pfn_to_page(pfn_t pfn)
{
	return &MM->pages[pfn];
}
static inline pfn_t page_to_pfn(const struct page *p)
{
	return (pfn_t)(p - MM->pages);
}
static inline struct zone *page_zone(const struct page *p)
{
	return &MM->zones[p->zone];
}
static inline bool page_is_file_cache(const struct page *p)
{
	return !(p->flags & PG_swapbacked);
}
static inline bool PageAnon(const struct page *p)
{
	return p->mapping == 0;
}
static inline bool page_mapped(const struct page *p)
{
	return p->mapcount > 0;
}
static inline struct address_space *page_mapping(const struct page *p)
{
	return p->mapping ? MM->files[p->mapping - 1] : NULL;
}
/* The list a page belongs on. With vm.reclaim_lru = 2.6.25 every evictable page uses the
 * file lists, which then stand for 2.6.25's single active and inactive lists. */
static inline enum lru_list page_lru(const struct page *p)
{
	if (p->flags & PG_unevictable)
		return LRU_UNEVICTABLE;
	return (enum lru_list)(((p->flags & PG_active) ? LRU_ACTIVE : 0) +
			       ((page_is_file_cache(p) || !MM->rules->split_lru) ? LRU_FILE : 0));
}
static inline void zone_stat_add(struct zone *z, enum zone_stat_item item, long delta)
{
	z->stat[item] += delta;
}
static inline long zone_page_state(const struct zone *z, enum zone_stat_item item)
{
	return z->stat[item];
}
static inline void inc_zone_page_state(const struct page *p, enum zone_stat_item item)
{
	page_zone(p)->stat[item]++;
}
static inline void dec_zone_page_state(const struct page *p, enum zone_stat_item item)
{
	page_zone(p)->stat[item]--;
}
static inline void count_zone_event(struct zone *z, enum zone_event_item item, uint64_t n)
{
	z->event[item] += n;
}
static inline struct waitqueue *page_waitqueue(pfn_t pfn)
{
	return &MM->page_wait[pfn & (ARRAY_SIZE(MM->page_wait) - 1)];
}

/* ---- page lists: add at the head, scan from the tail ---- */
#include "mm/pagelist.h"

/* ---- page_alloc.c ---- */
pfn_t __alloc_pages(unsigned gfp, unsigned order);
void __free_page(pfn_t pfn);
/* A block of 2^order pages (order 0 goes through the per-CPU list). */
void __free_pages(pfn_t pfn, unsigned order);
void drain_all_pages(void); /* every per-CPU list back to the buddy lists */
bool zone_watermark_ok(struct zone *z, int order, unsigned long mark, int classzone_idx,
		       int alloc_flags);
void setup_per_zone_pages_min(void);
long compute_min_free_kbytes(void);
long min_free_kbytes_for(unsigned long lowmem_kbytes); /* §1.2 formula alone */
int gfp_zone(unsigned gfp);
/* Kernel allocations that never go on an LRU: freed by their owner. */
pfn_t alloc_kernel_page(enum page_owner owner, unsigned gfp);
void free_kernel_page(pfn_t pfn);
/* 2^order contiguous kernel pages (order-1 stacks, the ARM order-2 pgd). */
pfn_t alloc_kernel_pages(enum page_owner owner, unsigned gfp, unsigned order);
void free_kernel_pages(pfn_t pfn, unsigned order);
#define ALLOC_WMARK_MIN	    0x01
#define ALLOC_WMARK_LOW	    0x02
#define ALLOC_WMARK_HIGH    0x04
#define ALLOC_NO_WATERMARKS 0x08
#define ALLOC_HARDER	    0x10
#define ALLOC_HIGH	    0x20

/* ---- vmscan.c: shrinkers (2.6.28 include/linux/mm.h struct shrinker) ---- */
#define DEFAULT_SEEKS 2
#define SHRINK_BATCH  128
/* shrink(0, gfp) is the freeable estimate; shrink(nr, gfp) scans nr objects and returns the
 * new estimate, or -1 if it cannot work with this gfp. */
typedef int (*shrink_fn)(int nr, unsigned gfp);
void register_shrinker(shrink_fn shrink, int seeks);
void unregister_shrinkers(void); /* the machine is going away */
unsigned long shrink_slab(unsigned long scanned, unsigned gfp, unsigned long lru_pages);
/* 2.6.8's shrink_slab (vm.reclaim_lru = 2.6.8): returns 0, as the kernel's did */
unsigned long shrink_slab_268(unsigned long scanned, unsigned gfp, unsigned long lru_pages);
/* current->reclaim_state: slab pages freed while it is set count for the reclaimer */
struct reclaim_state {
	unsigned long reclaimed_slab;
};

/* ---- swap.c: LRU ---- */
void lru_cache_add_lru(pfn_t pfn, enum lru_list lru);
void add_page_to_lru_list(struct zone *z, pfn_t pfn, enum lru_list lru);
void del_page_from_lru_list(struct zone *z, pfn_t pfn, enum lru_list lru);
void del_page_from_lru(struct zone *z, pfn_t pfn);
void activate_page(pfn_t pfn);
void mark_page_accessed(pfn_t pfn);
void rotate_reclaimable_page(pfn_t pfn);
void putback_lru_page(pfn_t pfn);
/* Frees a user page whose last reference went away (no mapping, no cache). */
void release_user_page(pfn_t pfn);

/* ---- rmap.c ---- */
void page_add_rmap(pfn_t pfn, struct vm_area_struct *vma, uint64_t off);
void page_remove_rmap(pfn_t pfn, struct vm_area_struct *vma, uint64_t off);
int page_referenced(pfn_t pfn, bool is_locked, unsigned long *vm_flags);
enum { SWAP_SUCCESS, SWAP_AGAIN, SWAP_FAIL, SWAP_MLOCK };
int try_to_unmap(pfn_t pfn);
bool page_mapping_inuse(pfn_t pfn);

/* ---- memory.c / mmap.c ---- */
struct mm_struct *mm_alloc(void);
/* fork's copy of old (dup_mmap): each VMA, its anonymous PTEs shared copy-on-write; NULL
 * when the commit of a VM_ACCOUNT mapping's copy is refused (vm_enough_memory) */
struct mm_struct *dup_mm(struct mm_struct *old);
void exit_mmap(struct mm_struct *mm);
uint64_t do_mmap(struct mm_struct *mm, uint64_t npages, unsigned flags, struct address_space *file,
		 uint64_t pgoff);
/* do_mmap into one area of the layout: packed against the area's previous mapping, as
 * get_unmapped_area's free_area_cache places consecutive mappings */
uint64_t do_mmap_area(struct mm_struct *mm, enum map_area area, uint64_t npages, unsigned flags,
		      struct address_space *file, uint64_t pgoff);
int do_munmap(struct mm_struct *mm, uint64_t start);
void vma_set_locked(struct vm_area_struct *vma, bool locked); /* mlock/munlock */
struct vm_area_struct *find_vma(struct mm_struct *mm, uint64_t vpn);

/* The page-table span of a page (the pages one page-table page maps), the index into
 * vma->ptpage of the span holding off, and how many spans a range reaches. */
static inline uint64_t pt_span(uint64_t vpn)
{
	return vpn >> MM->pte_shift;
}

static inline uint64_t vma_pt_index(const struct vm_area_struct *vma, uint64_t off)
{
	return pt_span(vma->start + off) - pt_span(vma->start);
}

static inline uint64_t vma_pt_spans(uint64_t start, uint64_t npages)
{
	return npages ? pt_span(start + npages - 1) - pt_span(start) + 1 : 1;
}

/* The mmap_cache slot a lookup of vpn uses: one per page-table page's span, so the few
 * VMAs a program cycles over (text, libraries, stack: different areas) sit in different
 * slots; packed VMAs of one span share a slot, and a miss costs only the index search.
 * The span number is hashed (Fibonacci hashing, Knuth TAOCP 6.4), not taken modulo the
 * slots: IA64's regions start at multiples of 2^61 bytes, so their spans are all 0 modulo
 * 8 and a worker's text, data and stack would evict each other on every access. */
static inline struct vma_range *mmap_cache_slot(struct mm_struct *mm, uint64_t vpn)
{
	return &mm->mmap_cache[((vpn >> MM->pte_shift) * 0x9E3779B97F4A7C15ull) >>
			       (64 - MMAP_CACHE_BITS)];
}

static inline struct vm_area_struct *mmap_cache_find(struct mm_struct *mm, uint64_t vpn)
{
	const struct vma_range *c = mmap_cache_slot(mm, vpn);
	return vpn - c->start < c->end - c->start ? c->vma : NULL; /* empty: start == end */
}
enum touch_kind { TOUCH_READ = 0, TOUCH_WRITE = 1, TOUCH_EXEC = 2 };
/* Result of an access: 0 done, -1 segfault (no VMA), -2 out of memory, -3 bus error (a
 * shmem object's page past its end or refused its commit: VM_FAULT_SIGBUS). */
int handle_mm_fault(struct mm_struct *mm, struct vm_area_struct *vma, uint64_t vpn, int kind);

/* flush_cache_page (asm-arm/cacheflush.h, 2.6.25): where the cache is virtually indexed,
 * a page of the mm this CPU runs in (cpu_vm_mask) is cleaned and invalidated before its PTE
 * changes: try_to_unmap_one, page_mkclean_one, do_wp_page, and update_mmu_cache's
 * make_coherent for a page with a mapping. Charged to the task doing it. */
static inline void flush_cache_page(const struct mm_struct *mm)
{
	if (MM->hw->flush_cache_page_ns && mm->id == sched_active_context())
		cpu_work_sys(MM->hw->flush_cache_page_ns);
}

/* update_mmu_cache after a PTE maps pfn: on ARM, make_coherent flushes the page when it has
 * a mapping (page cache, or the swap cache's swapper_space) */
static inline void update_mmu_cache(const struct mm_struct *mm, pfn_t pfn)
{
	const struct page *p = pfn_to_page(pfn);
	if (MM->hw->flush_cache_page_ns && (!PageAnon(p) || (p->flags & PG_swapcache)))
		flush_cache_page(mm);
}

/* The hot path of every simulated memory access. O(1), no allocation, no load but the PTE's
 * and the mmap_cache's. True if the access is done (a VMA the mmap_cache holds, a PTE it
 * leaves unchanged); false, with nothing changed, if it needs touch_page_slow: a PTE whose
 * young or dirty bit it sets, or a fault. */
static inline bool touch_page_fast(struct mm_struct *mm, uint64_t vpn, int kind)
{
	const struct vma_range *c = mmap_cache_slot(mm, vpn);
	if (vpn - c->start >= c->end - c->start)
		return false;
	uint32_t *pte = &c->pte[vpn - c->start];
	/* present and young, and for a write dirty and not write-protected: an access that
	 * changes no bit. Anything else goes to touch_page_slow, which sets the bits or, where
	 * the MMU has none (pte_bits_emulated), faults. Constants, so no load per access. */
	const uint32_t need =
	    PTE_PRESENT | PTE_YOUNG | (kind == TOUCH_WRITE ? PTE_DIRTY | PTE_RDONLY : 0);
	if ((*pte ^ (PTE_PRESENT | PTE_YOUNG | PTE_DIRTY)) & need)
		return false;
	cpu_work(MM->hw->touch_ns);
	return true;
}

/* The pages a task touches in the same order over and over (a benchmark's per-message
 * stack, text and library pages), with the PTE of each found once: valid while the mm's
 * VMAs are what they were (mm->vma_gen). A host-side memo, as the mmap_cache is: touching
 * the set does what touching its pages one by one does. */
#define TOUCH_SET_MAX 3
struct touch_set {
	const struct mm_struct *mm; /* NULL: not found yet */
	uint64_t gen;
	uint32_t n;
	sim_time_t ns; /* the CPU time of the n accesses */
	uint8_t kind[TOUCH_SET_MAX];
	uint64_t vpn[TOUCH_SET_MAX];
	/* found: each page's PTE and the bits touch_page_fast tests for the access (present and
	 * young, dirty and not write-protected for a write); entries past n test nothing, so the
	 * loops have a fixed count */
	uint32_t *pte[TOUCH_SET_MAX];
	uint32_t fault_if[TOUCH_SET_MAX];
};

/* Every page of s at once, if each access would be touch_page_fast's hit (one that changes
 * no PTE bit) and the CPU time of all of them stays inside the quantum (so no yield comes
 * between them): the CPU time of the accesses one by one. False, with nothing changed,
 * otherwise. */
static inline bool touch_set_fast(struct mm_struct *mm, const struct touch_set *s)
{
	struct task *t = sim_current;
	/* vma_gen values are unique over the run and never 0, an unfound set's gen: equal
	 * means the same mm, unchanged, and the set found */
	_Static_assert(TOUCH_SET_MAX == 3, "the tests below are written out for three pages");
	if (s->gen != mm->vma_gen || t->in_kernel || t->pending + s->ns >= sim_quantum)
		return false;
	uint32_t *p0 = s->pte[0], *p1 = s->pte[1], *p2 = s->pte[2];
	const uint32_t all = PTE_PRESENT | PTE_YOUNG | PTE_DIRTY; /* as in touch_page_fast */
	if (((*p0 ^ all) & s->fault_if[0]) | ((*p1 ^ all) & s->fault_if[1]) |
	    ((*p2 ^ all) & s->fault_if[2]))
		return false;
	t->pending += s->ns;
	t->utime += s->ns;
	return true;
}
/* Finds the PTEs of s's pages in mm (no side effect: the mmap_cache is left alone); a page
 * outside every VMA leaves s unfound. */
void touch_set_find(struct mm_struct *mm, struct touch_set *s);

/* The rest of an access: find_vma, then the PTE or a fault. */
int touch_page_slow(struct mm_struct *mm, uint64_t vpn, int kind);

static inline int touch_page(struct mm_struct *mm, uint64_t vpn, int kind)
{
	return touch_page_fast(mm, vpn, kind) ? 0 : touch_page_slow(mm, vpn, kind);
}

/* ---- filemap.c ---- */
/* An address_space of size_pages (room for cap_pages), registered with its dentry and inode;
 * file_create gives it a disk extent, shmem_file_setup swap entries. */
struct address_space *mapping_create(const char *name, uint64_t size_pages, uint64_t cap_pages);
struct address_space *file_create(const char *name, uint64_t size_pages, uint64_t cap_pages,
				  bool exec);
/* Buffered read/write of whole pages; return 0, or -2 when memory could not be had. */
int file_read(struct address_space *f, uint64_t pgoff, uint64_t npages);
int file_write(struct address_space *f, uint64_t pgoff, uint64_t npages);
int file_fsync(struct address_space *f);
/* Drops clean, unmapped page cache pages of f (posix_fadvise DONTNEED / truncate helper). */
void file_truncate(struct address_space *f);
void remove_from_page_cache(pfn_t pfn);
/* A new page (OWNER_USER_NEW) joins file f at pgoff and the inactive file list. */
void add_to_page_cache_lru(struct address_space *f, uint64_t pgoff, pfn_t pfn);
uint64_t file_sector(const struct address_space *f, uint64_t pgoff);
/* filemap_fault: the page of vma's file at pgoff, read in (with the era's mmap read-around)
 * if absent; *major when the kernel would count the fault in PGMAJFAULT. */
pfn_t filemap_fault(struct vm_area_struct *vma, uint64_t pgoff, bool *major);

/* ---- page-writeback.c ---- */
void set_page_dirty(pfn_t pfn);
/* set_page_dirty_balance (mm/page-writeback.c, 2.6.19 on): a write fault dirtied a shared
 * file page; a page newly dirty counts toward balance_dirty_pages' ratelimit */
void set_page_dirty_balance(pfn_t pfn);
/* vma_wants_writenotify (mm/mmap.c, 2.6.28) under kernel.mmap_writenotify: shared,
 * writable, and a file that accounts dirty pages (not shmem) */
bool vma_wants_writenotify(const struct vm_area_struct *vma);
bool clear_page_dirty_for_io(pfn_t pfn);
void end_page_writeback(pfn_t pfn);
void balance_dirty_pages_ratelimited(struct address_space *f);
void get_dirty_limits(long *background, long *dirty);
void get_dirty_limits_bdi(long *background, long *dirty, long *bdi_dirty);
unsigned long determine_dirtyable_memory(void);
void page_writeback_init(void);
long writeback_ratelimit_pages(void);
void wakeup_pdflush(long nr_pages);
void throttle_vm_writeout(unsigned gfp);
int write_one_page_async(pfn_t pfn, bool for_reclaim); /* writepage for file pages */
void wait_on_page_writeback(pfn_t pfn);
void lock_page(pfn_t pfn);
bool trylock_page(pfn_t pfn);
void unlock_page(pfn_t pfn);
void flusher_main(void *arg);

/* ---- page_io.c: a single page's bio; may block for a request slot ---- */
void submit_page_bio(struct blockdev *bd, pfn_t pfn, uint64_t sector, int rw,
		     void (*end_io)(struct bio *));

/* ---- swap_state.c / swapfile.c ---- */
static inline bool vm_swap_full(void)
{
	return MM->swap.nr_free * 2 < MM->swap.nr_slots;
}
bool add_to_swap(pfn_t pfn);
/* get_swap_page: a free slot with one reference, or UINT32_MAX when swap is full */
uint32_t get_swap_page(void);
/* add_to_swap_cache: the page holds the slot (its reference is the caller's) */
void add_to_swap_cache(pfn_t pfn, uint32_t slot);
void delete_from_swap_cache(pfn_t pfn);
void swap_duplicate(uint32_t slot);
/* Drops one reference to a swap slot; frees the swap-cache page if it was the last user. */
void free_swap_and_cache(uint32_t slot);
void swap_free(uint32_t slot);
int swap_count(uint32_t slot);
bool can_share_swap_page(pfn_t pfn);
bool remove_exclusive_swap_page_count(pfn_t pfn, int mappers);
bool remove_exclusive_swap_page_ref(pfn_t pfn);
void pagevec_swap_free(const pfn_t *pfns, unsigned n);
pfn_t lookup_swap_cache(uint32_t slot);
pfn_t swapin_readahead(uint32_t slot, bool *major);
void swap_writepage(pfn_t pfn);

/* ---- vmscan.c ---- */
unsigned long try_to_free_pages(unsigned order, unsigned gfp);
void wakeup_kswapd(struct zone *z, unsigned order);
void kswapd_main(void *arg);
unsigned long zone_lru_pages(const struct zone *z);
bool inactive_anon_is_low(const struct zone *z);

/* ---- backing-dev.c ---- */
void congestion_wait(int rw, sim_time_t timeout);
/* congestion_wait without its tracepoint, for callers that trace their own; returns the
 * time slept. */
sim_time_t congestion_wait_untraced(int rw, sim_time_t timeout);
void mm_bdi_uncongested(struct blockdev *bd, int rw);

/* ---- oom_kill.c ---- */
void out_of_memory(unsigned gfp, unsigned order);
unsigned long badness(struct task_struct *p, sim_time_t uptime);
/* The pieces 2.6.8's OOM killer shares (oom_kill_268.c): SHIFT_HZ; has_capability; the
 * kill itself (recorded, TIF_MEMDIE, SIGKILL to every task of the victim's mm) */
unsigned oom_shift_hz(void);
#define CAP_SYS_RAWIO	 17
#define CAP_SYS_ADMIN	 21
#define CAP_SYS_RESOURCE 24
bool oom_capable(struct task_struct *p, int cap);

/* vm.overcommit_memory (include/linux/mman.h) */
#define OVERCOMMIT_GUESS  0
#define OVERCOMMIT_ALWAYS 1
#define OVERCOMMIT_NEVER  2
/* __vm_enough_memory, 2.6.28 (overcommit.c): whether current may commit pages more pages of
 * private writable or shared anonymous memory. On true the pages are committed (added to
 * MM->vm_committed_space) until vm_unacct_memory gives them back: the caller marks the VMA
 * VM_ACCOUNT (vma_free gives them back) or records them in the shmem object. */
bool vm_enough_memory(uint64_t pages);
void vm_unacct_memory(uint64_t pages);
/* The pages a mapping or object of npages commits: a VMA has at least one (vma_new). */
static inline uint64_t vm_commit_pages(uint64_t npages)
{
	return npages ? npages : 1;
}
void oom_kill_task(struct task_struct *victim, unsigned long points);
/* ---- page_alloc_268.c (vm.reclaim_lru = 2.6.8) ---- */
/* page_alloc.c's buffered_rmqueue (no watermark test), and the highest populated zone at
 * or below `high` (the first of the zonelist) */
pfn_t rmqueue(struct zone *z, unsigned order, unsigned gfp);
int first_populated(int high);
pfn_t __alloc_pages_268(unsigned gfp, unsigned order);
long min_free_kbytes_for_268(unsigned long lowmem_kbytes);
void setup_per_zone_pages_min_268(void);
unsigned long total_memory_268(void);
/* z->protection[classzone] of 2.6.8: what an allocation whose zonelist starts at classzone
 * must leave free in z */
unsigned long zone_protection_268(const struct zone *z, int classzone);
/* ---- oom_kill_268.c ---- */
/* out_of_memory as 2.6.8 (try_to_free_pages calls it after priority 0) */
void out_of_memory_268(unsigned gfp);

/* ---- invariants.c ---- */
/* Checks every frame is in exactly one place, gauges equal list lengths, swap counts are
 * consistent. Returns 0, or prints the first violation and returns -1. */
int mm_check_invariants(void);

#endif
