/* Frames, zones and watermarks (kernel-reclaim.md §1.2), and the page allocator with its
 * slow path: kswapd wakeup, direct reclaim, OOM (§1.5). User pages are order 0; kernel
 * stacks, the ARM pgd and slabs may be higher orders (docs/model.md). */
#include "mm/filemap.h"
#include "mm/fs.h"
#include "mm/mm.h"
#include "mm/shmem.h"
#include "mm/slab.h"
#include "mm/vmscan.h"
#include "sim/int_sqrt.h"
#include "sim/xalloc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mm_machine *MM;

static bool is_highmem_idx(int idx)
{
	return idx == ZONE_HIGHMEM;
}

/* init_per_zone_pages_min (§1.2): isqrt(lowmem_kbytes * 16), clamped to [128, 65536]. */
long min_free_kbytes_for(unsigned long lowmem_kbytes)
{
	long v = (long)int_sqrt(lowmem_kbytes * 16);
	if (v < 128)
		v = 128;
	if (v > 65536)
		v = 65536;
	return v;
}

long compute_min_free_kbytes(void)
{
	unsigned long lowmem = 0;
	for (int i = 0; i < MM->nr_zones; i++)
		if (!is_highmem_idx(i))
			lowmem += MM->zones[i].present_pages;
	unsigned long kb = lowmem * (MM->page_size / 1024);
	return MM->rules->min_free_kbytes_for ? MM->rules->min_free_kbytes_for(kb)
					      : min_free_kbytes_for(kb);
}

/* setup_per_zone_pages_min + setup_per_zone_lowmem_reserve + inactive_ratio (§1.2). */
void setup_per_zone_pages_min(void)
{
	if (MM->rules->setup_per_zone_pages_min) {
		MM->rules->setup_per_zone_pages_min();
		return;
	}
	unsigned long pages_min_total =
	    (unsigned long)MM->sysctl.min_free_kbytes >> (MM->page_shift - 10);
	unsigned long lowmem_pages = 0;
	for (int i = 0; i < MM->nr_zones; i++)
		if (!is_highmem_idx(i))
			lowmem_pages += MM->zones[i].present_pages;
	for (int i = 0; i < MM->nr_zones; i++) {
		struct zone *z = &MM->zones[i];
		if (!z->present_pages)
			continue;
		uint64_t tmp = (uint64_t)pages_min_total * z->present_pages /
			       (lowmem_pages ? lowmem_pages : 1);
		if (is_highmem_idx(i)) {
			unsigned long m = z->present_pages / 1024;
			if (m < SWAP_CLUSTER_MAX)
				m = SWAP_CLUSTER_MAX;
			if (m > 128)
				m = 128;
			z->pages_min = m;
		} else {
			z->pages_min = (unsigned long)tmp;
		}
		z->pages_low = z->pages_min + (unsigned long)(tmp >> 2);
		z->pages_high = z->pages_min + (unsigned long)(tmp >> 1);
	}
	for (int j = 0; j < MM->nr_zones; j++) {
		struct zone *z = &MM->zones[j];
		z->lowmem_reserve[j] = 0;
		unsigned long present = z->present_pages;
		for (int idx = j - 1; idx >= 0; idx--) {
			struct zone *lower = &MM->zones[idx];
			int ratio = MM->sysctl.lowmem_reserve_ratio[idx];
			if (ratio < 1)
				ratio = 1;
			lower->lowmem_reserve[j] = present / (unsigned long)ratio;
			present += lower->present_pages;
		}
	}
	for (int i = 0; i < MM->nr_zones; i++) {
		struct zone *z = &MM->zones[i];
		unsigned long gb = z->present_pages >> (30 - MM->page_shift);
		unsigned long ratio = gb ? int_sqrt(10 * gb) : 1;
		z->inactive_ratio = ratio ? (unsigned)ratio : 1;
	}
}

bool zone_watermark_ok(struct zone *z, int order, unsigned long mark, int classzone_idx,
		       int alloc_flags)
{
	/* §1.2: enough free pages above the mark, and enough of them in blocks of at least
	 * the order asked for (each lower order's pages are discounted, the mark halved) */
	long min = (long)mark;
	long free_pages = zone_page_state(z, NR_FREE_PAGES) - (1 << order) + 1;
	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	if (alloc_flags & ALLOC_HARDER)
		min -= min / 4;
	if (free_pages <= min + (long)z->lowmem_reserve[classzone_idx])
		return false;
	for (int o = 0; o < order; o++) {
		free_pages -= (long)(z->free_area[o].nr << o);
		min >>= 1;
		if (free_pages <= min)
			return false;
	}
	return true;
}

int gfp_zone(unsigned gfp)
{
	int top = MM->nr_zones - 1;
	int want = ZONE_NORMAL;
	if (gfp & __GFP_DMA)
		want = ZONE_DMA;
	else if (gfp & __GFP_DMA32)
		want = ZONE_DMA32;
	else if (gfp & __GFP_HIGHMEM)
		want = ZONE_HIGHMEM;
	return want < top ? want : top;
}

int first_populated(int high)
{
	for (int i = high; i >= 0; i--)
		if (MM->zones[i].present_pages)
			return i;
	return 0;
}

static struct per_cpu_pages *this_cpu_pcp(struct zone *z)
{
	return &z->pcp[this_cpu()];
}

/* ---- the buddy allocator ---- */

static void set_buddy(pfn_t pfn, unsigned order)
{
	struct page *p = pfn_to_page(pfn);
	p->flags = PG_buddy;
	p->private = order;
}

/* __free_one_page: the block merges with its buddy as long as the buddy is a free block of
 * the same order in the same zone, then joins the head of its order's list. */
static void __free_one_page(struct zone *z, pfn_t pfn, unsigned order)
{
	while (order < MAX_ORDER - 1) {
		pfn_t buddy = pfn ^ ((pfn_t)1 << order);
		if (buddy < z->start_pfn || buddy >= z->end_pfn)
			break;
		struct page *b = pfn_to_page(buddy);
		if (!(b->flags & PG_buddy) || b->private != order)
			break;
		pagelist_del(&z->free_area[order], buddy);
		b->flags = 0;
		b->private = 0;
		pfn &= ~((pfn_t)1 << order);
		order++;
	}
	set_buddy(pfn, order);
	pagelist_add(&z->free_area[order], pfn);
}

/* __rmqueue: the first block of at least `order` pages, split down (expand), the upper
 * halves going back to the lower orders' lists. */
static pfn_t __rmqueue(struct zone *z, unsigned order)
{
	for (unsigned o = order; o < MAX_ORDER; o++) {
		pfn_t pfn = z->free_area[o].head;
		if (pfn == NO_PFN)
			continue;
		pagelist_del(&z->free_area[o], pfn);
		while (o > order) {
			o--;
			set_buddy(pfn + ((pfn_t)1 << o), o);
			pagelist_add(&z->free_area[o], pfn + ((pfn_t)1 << o));
		}
		pfn_to_page(pfn)->flags = 0;
		pfn_to_page(pfn)->private = 0;
		zone_stat_add(z, NR_FREE_PAGES, -(1L << order));
		return pfn;
	}
	return NO_PFN;
}

static void prep_new_page(pfn_t pfn, unsigned order)
{
	for (pfn_t i = 0; i < ((pfn_t)1 << order); i++) {
		struct page *p = pfn_to_page(pfn + i);
		p->flags = 0;
		p->mapcount = 0;
		p->mapping = 0;
		p->index = 0;
		p->private = 0;
		p->rmap = 0;
		p->pins = 0;
	}
}

/* buffered_rmqueue: order 0 from this CPU's list, refilled from the buddy lists a batch at
 * a time (rmqueue_bulk, in the order taken); a hot page from the list's head, where the
 * last freed page went, a __GFP_COLD one (page cache reads) from its tail; higher orders
 * from the buddy lists under the zone lock. */
pfn_t rmqueue(struct zone *z, unsigned order, unsigned gfp)
{
	pfn_t pfn;
	if (order == 0) {
		struct per_cpu_pages *pcp = this_cpu_pcp(z);
		if (!pcp->list.nr) {
			for (unsigned long n = 0; n < pcp->batch; n++) {
				pfn_t b = __rmqueue(z, 0);
				if (b == NO_PFN)
					break;
				pfn_to_page(b)->flags = PG_pcp;
				pagelist_add_tail(&pcp->list, b);
			}
		}
		pfn = (gfp & __GFP_COLD) ? pcp->list.tail : pcp->list.head;
		if (pfn != NO_PFN)
			pagelist_del(&pcp->list, pfn);
	} else {
		pfn = __rmqueue(z, order);
	}
	if (pfn == NO_PFN)
		return NO_PFN;
	prep_new_page(pfn, order);
	count_zone_event(z, PGALLOC, 1ul << order);
	return pfn;
}

static pfn_t get_page_from_freelist(unsigned gfp, unsigned order, int high_zoneidx, int alloc_flags)
{
	int classzone = first_populated(high_zoneidx);
	for (int i = high_zoneidx; i >= 0; i--) {
		struct zone *z = &MM->zones[i];
		if (!z->present_pages)
			continue;
		if (!(alloc_flags & ALLOC_NO_WATERMARKS)) {
			unsigned long mark = (alloc_flags & ALLOC_WMARK_MIN)   ? z->pages_min
					     : (alloc_flags & ALLOC_WMARK_LOW) ? z->pages_low
									       : z->pages_high;
			if (!zone_watermark_ok(z, (int)order, mark, classzone, alloc_flags))
				continue;
		}
		pfn_t pfn = rmqueue(z, order, gfp);
		if (pfn != NO_PFN)
			return pfn;
	}
	return NO_PFN;
}

static bool try_set_zone_oom(void)
{
	if (MM->zone_oom_locked)
		return false;
	MM->zone_oom_locked = true;
	return true;
}

static void clear_zonelist_oom(void)
{
	MM->zone_oom_locked = false;
}

/* __alloc_pages_internal (§1.5). */
pfn_t __alloc_pages(unsigned gfp, unsigned order)
{
	int high = gfp_zone(gfp);
	unsigned long pages_reclaimed = 0;
	bool wait = gfp & __GFP_WAIT;
	pfn_t pfn;

	if (MM->rules->alloc_pages)
		return MM->rules->alloc_pages(gfp, order);
	if (current)
		cpu_work_sys(MM->hw->page_alloc_ns);
restart:
	pfn = get_page_from_freelist(gfp, order, high, ALLOC_WMARK_LOW);
	if (pfn != NO_PFN)
		return pfn;
	for (int i = high; i >= 0; i--)
		if (MM->zones[i].present_pages)
			wakeup_kswapd(&MM->zones[i], order);
	int alloc_flags = ALLOC_WMARK_MIN;
	if (!wait)
		alloc_flags |= ALLOC_HARDER;
	if (gfp & __GFP_HIGH)
		alloc_flags |= ALLOC_HIGH;
	pfn = get_page_from_freelist(gfp, order, high, alloc_flags);
	if (pfn != NO_PFN)
		return pfn;
rebalance:
	if (current && ((current->flags & PF_MEMALLOC) || (current->tif & TIF_MEMDIE))) {
		if (!(gfp & __GFP_NOMEMALLOC)) {
			for (;;) {
				pfn = get_page_from_freelist(gfp, order, high, ALLOC_NO_WATERMARKS);
				if (pfn != NO_PFN)
					return pfn;
				if (!(gfp & __GFP_NOFAIL))
					break;
				congestion_wait(WRITE, HZ / 50 * JIFFY_NS);
			}
		}
		goto nopage;
	}
	if (!wait || !current)
		goto nopage;
	cond_resched();
	current->flags |= PF_MEMALLOC;
	struct reclaim_state reclaim_state = {0};
	current->reclaim_state = &reclaim_state;
	unsigned long progress = try_to_free_pages(order, gfp);
	current->reclaim_state = NULL;
	current->flags &= ~PF_MEMALLOC;
	if (order) /* §1.5 step 6: pages on per-CPU lists cannot merge into a block */
		drain_all_pages();
	cond_resched();
	if (progress) {
		pfn = get_page_from_freelist(gfp, order, high, alloc_flags);
		if (pfn != NO_PFN)
			return pfn;
	} else if ((gfp & __GFP_FS) && !(gfp & __GFP_NORETRY)) {
		if (!try_set_zone_oom()) {
			schedule_timeout(JIFFY_NS);
			goto restart;
		}
		/* Last try at the high watermark: someone may have freed memory meanwhile. */
		pfn = get_page_from_freelist(gfp, order, high, ALLOC_WMARK_HIGH);
		if (pfn != NO_PFN) {
			clear_zonelist_oom();
			return pfn;
		}
		if (order > PAGE_ALLOC_COSTLY_ORDER) {
			clear_zonelist_oom();
			goto nopage;
		}
		out_of_memory(gfp, order);
		clear_zonelist_oom();
		if (MM->oom_stop_requested)
			goto nopage;
		goto restart;
	}
	pages_reclaimed += progress;
	bool do_retry = false;
	if (!(gfp & __GFP_NORETRY)) {
		if (order <= PAGE_ALLOC_COSTLY_ORDER)
			do_retry = true;
		if ((gfp & __GFP_REPEAT) && pages_reclaimed < (1ul << order))
			do_retry = true;
		if (gfp & __GFP_NOFAIL)
			do_retry = true;
	}
	if (do_retry) {
		congestion_wait(WRITE, HZ / 50 * JIFFY_NS);
		goto rebalance;
	}
nopage:
	MM->rstats.alloc_failures++;
	return NO_PFN;
}

/* free_pages_bulk: `n` pages from the cold end of a per-CPU list back to the buddy lists. */
static void free_pages_bulk(struct zone *z, struct per_cpu_pages *pcp, unsigned long n)
{
	for (; n && pcp->list.nr; n--) {
		pfn_t pfn = pcp->list.tail;
		pagelist_del(&pcp->list, pfn);
		pfn_to_page(pfn)->flags = 0;
		__free_one_page(z, pfn, 0);
		zone_stat_add(z, NR_FREE_PAGES, 1);
	}
	/* §1.16: pages reaching the buddy lists reset the scan count and unreclaimable state */
	z->pages_scanned = 0;
	z->all_unreclaimable = false;
}

/* What a page keeps of its last owner once it is freed: nothing. */
static void reset_freed_page(struct page *p, uint32_t flags)
{
	p->flags = flags;
	p->owner = OWNER_NONE;
	p->mapcount = 0;
	p->mapping = 0;
	p->pins = 0;
}

/* free_hot_cold_page: to this CPU's list; a batch goes back once it holds `high`. */
void __free_page(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	struct zone *z = page_zone(p);
	reset_freed_page(p, PG_pcp);
	struct per_cpu_pages *pcp = this_cpu_pcp(z);
	pagelist_add(&pcp->list, pfn);
	count_vm_event(PGFREE);
	if (pcp->list.nr >= pcp->high)
		free_pages_bulk(z, pcp, pcp->batch);
	if (current)
		cpu_work_sys(MM->hw->page_free_ns);
}

/* __free_pages: order 0 through the per-CPU list, higher orders straight to the buddy lists
 * (free_one_page, which resets the zone's scan state as free_pages_bulk does, §1.16). */
void __free_pages(pfn_t pfn, unsigned order)
{
	if (order == 0) {
		__free_page(pfn);
		return;
	}
	struct zone *z = page_zone(pfn_to_page(pfn));
	for (pfn_t i = 0; i < ((pfn_t)1 << order); i++)
		reset_freed_page(pfn_to_page(pfn + i), 0);
	count_vm_events(PGFREE, 1ul << order);
	z->pages_scanned = 0;
	z->all_unreclaimable = false;
	__free_one_page(z, pfn, order);
	zone_stat_add(z, NR_FREE_PAGES, 1L << order);
	if (current)
		cpu_work_sys(MM->hw->page_free_ns);
}

void drain_all_pages(void)
{
	for (int i = 0; i < MM->nr_zones; i++)
		for (int c = 0; c < MM->ncpus; c++)
			free_pages_bulk(&MM->zones[i], &MM->zones[i].pcp[c], ULONG_MAX);
}

/* zone_batchsize (2.6.25-2.6.28): about a quarter of a 1/1024th of the zone, at most
 * 512 KiB worth, rounded down to 2^n - 1; setup_pageset: high = 6 * batch and the batch
 * at least 1. A zone of fewer than 8192 present pages rounds to batch 0 ("LIFO batch:0"
 * at boot), so its high is 0 and every free goes straight back to the buddy lists. */
static void setup_pageset(struct zone *z)
{
	unsigned long batch = z->present_pages / 1024;
	if (batch * MM->page_size > 512 * 1024)
		batch = (512 * 1024) / MM->page_size;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	unsigned long x = batch + batch / 2, r = 1;
	while (x >>= 1)
		r <<= 1;
	batch = r - 1;
	for (int c = 0; c < MM->ncpus; c++) {
		pagelist_init(&z->pcp[c].list);
		z->pcp[c].batch = batch ? batch : 1;
		z->pcp[c].high = 6 * batch;
	}
}

static enum zone_stat_item owner_stat(enum page_owner o)
{
	switch (o) {
	case OWNER_STACK:
		return NR_KERNEL_STACK;
	case OWNER_PAGETABLE:
		return NR_PAGETABLE;
	case OWNER_SLAB_RECLAIMABLE:
		return NR_SLAB_RECLAIMABLE;
	default:
		return NR_SLAB_UNRECLAIMABLE;
	}
}

pfn_t alloc_kernel_pages(enum page_owner owner, unsigned gfp, unsigned order)
{
	pfn_t pfn = __alloc_pages(gfp, order);
	if (pfn == NO_PFN)
		return NO_PFN;
	for (pfn_t i = 0; i < ((pfn_t)1 << order); i++) {
		struct page *p = pfn_to_page(pfn + i);
		p->flags = PG_slab;
		p->owner = (uint16_t)owner;
		inc_zone_page_state(p, owner_stat(owner));
	}
	return pfn;
}

void free_kernel_pages(pfn_t pfn, unsigned order)
{
	for (pfn_t i = 0; i < ((pfn_t)1 << order); i++) {
		struct page *p = pfn_to_page(pfn + i);
		dec_zone_page_state(p, owner_stat((enum page_owner)p->owner));
	}
	__free_pages(pfn, order);
}

pfn_t alloc_kernel_page(enum page_owner owner, unsigned gfp)
{
	return alloc_kernel_pages(owner, gfp, 0);
}

void free_kernel_page(pfn_t pfn)
{
	free_kernel_pages(pfn, 0);
}

/* ---- machine setup ---- */

/* Takes up to n of z's frames for good, from the top down; returns how many are still
 * wanted. */
static uint64_t reserve_boot_pages(struct zone *z, uint64_t n)
{
	while (n && z->boot_top > z->start_pfn) {
		pfn_t pfn = --z->boot_top;
		struct page *p = pfn_to_page(pfn);
		p->flags = PG_slab;
		p->owner = OWNER_OTHER_KERNEL;
		z->stat[NR_SLAB_UNRECLAIMABLE]++;
		n--;
	}
	return n;
}

/* free_all_bootmem: every frame not reserved goes to the buddy lists, merging as it goes. */
static void free_boot_pages(struct zone *z)
{
	for (pfn_t pfn = z->start_pfn; pfn < z->boot_top; pfn++)
		__free_one_page(z, pfn, 0);
	z->stat[NR_FREE_PAGES] = (long)(z->boot_top - z->start_pfn);
}

static void zone_setup(int idx, const char *name, pfn_t start, pfn_t end)
{
	struct zone *z = &MM->zones[idx];
	z->name = name;
	z->idx = idx;
	z->start_pfn = start;
	z->end_pfn = end;
	z->present_pages = end > start ? end - start : 0;
	/* free_area_init_core: a zone's present pages leave out the mem_map its span needs
	 * (wherever bootmem put it); the watermarks and the per-CPU batch are sized on this */
	unsigned long memmap =
	    (unsigned long)(((uint64_t)z->present_pages * MM->hw->struct_page_bytes) >>
			    MM->page_shift);
	if (z->present_pages >= memmap)
		z->present_pages -= memmap;
	z->prev_priority = DEF_PRIORITY;
	for (int o = 0; o < MAX_ORDER; o++)
		pagelist_init(&z->free_area[o]);
	for (int l = 0; l < NR_LRU_LISTS; l++)
		pagelist_init(&z->lru[l]);
	for (pfn_t pfn = start; pfn < end; pfn++)
		pfn_to_page(pfn)->zone = (uint8_t)idx;
	z->boot_top = end > start ? end : start;
	z->pcp = xcalloc((size_t)MM->ncpus, sizeof(*z->pcp));
	setup_pageset(z);
}

int mm_init(const struct mm_config *cfg, const struct mm_task_ops *ops)
{
	MM = xcalloc(1, sizeof(*MM));
	memset(vm_events, 0, sizeof(vm_events));
	MM->hw = cfg->hw;
	MM->task_ops = ops;
	MM->page_size = cfg->hw->page_size;
	MM->page_shift = (uint32_t)__builtin_ctz(MM->page_size);
	/* PTEs per page-table page: page_size / pte_bytes */
	MM->pte_shift =
	    MM->page_shift - (uint32_t)__builtin_ctz(cfg->hw->pte_bytes ? cfg->hw->pte_bytes : 8);
	/* blk_queue_make_request: (VM_MAX_READAHEAD * 1024) / PAGE_CACHE_SIZE, 2 pages of 64 KiB */
	MM->ra_pages = cfg->hw->fs_ra_pages ? cfg->hw->fs_ra_pages
					    : MAX(1u, (VM_MAX_READAHEAD_KB << 10) / MM->page_size);
	MM->ncpus = sched_ncpus() > 0 ? sched_ncpus() : 1;
	MM->sysctl = cfg->sysctl;
	mm_sysctl_apply();
	rng_seed(&MM->rng, cfg->seed, 1);
	uint64_t nr = cfg->ram_bytes >> MM->page_shift;
	if (nr < 256 || nr >= PTE_PFN_MASK)
		return -1;
	MM->nr_frames = (pfn_t)nr;
	MM->pages = xcalloc(nr, sizeof(struct page));
	for (pfn_t i = 0; i < nr; i++)
		MM->pages[i].next = MM->pages[i].prev = NO_PFN;

	pfn_t mb16 = (pfn_t)((16ULL << 20) >> MM->page_shift);
	switch (cfg->hw->layout) {
	case LAYOUT_FLAT:
		MM->nr_zones = ZONE_NORMAL + 1;
		zone_setup(ZONE_DMA, "DMA", 0, 0);
		zone_setup(ZONE_DMA32, "DMA32", 0, 0);
		zone_setup(ZONE_NORMAL, "Normal", 0, (pfn_t)nr);
		break;
	case LAYOUT_X86_32: {
		pfn_t lowtop = (pfn_t)MIN(nr, X86_32_LOWMEM_BYTES >> MM->page_shift);
		MM->nr_zones = MAX_NR_ZONES;
		zone_setup(ZONE_DMA, "DMA", 0, MIN(mb16, lowtop));
		zone_setup(ZONE_DMA32, "DMA32", 0, 0);
		zone_setup(ZONE_NORMAL, "Normal", MIN(mb16, lowtop), lowtop);
		zone_setup(ZONE_HIGHMEM, "HighMem", lowtop, (pfn_t)nr);
		break;
	}
	case LAYOUT_X86_64: {
		pfn_t g4 = (pfn_t)MIN(nr, (4ULL << 30) >> MM->page_shift);
		MM->nr_zones = ZONE_NORMAL + 1;
		zone_setup(ZONE_DMA, "DMA", 0, MIN(mb16, g4));
		zone_setup(ZONE_DMA32, "DMA32", MIN(mb16, g4), g4);
		zone_setup(ZONE_NORMAL, "Normal", g4, (pfn_t)nr);
		break;
	}
	}
	/* The kernel image, bootmem and mem_map never reach the free lists. The image sits low
	 * in memory (the lowest zone); bootmem allocations such as mem_map aim above the DMA
	 * zone (alloc_bootmem's goal is MAX_DMA_ADDRESS) and fall back below it. */
	uint64_t image = ((uint64_t)cfg->hw->kernel_reserved_kb << 10) >> MM->page_shift;
	uint64_t memmap = (nr * cfg->hw->struct_page_bytes + MM->page_size - 1) >> MM->page_shift;
	for (int i = 0; i < MM->nr_zones && image; i++)
		image = reserve_boot_pages(&MM->zones[i], image);
	for (int i = ZONE_DMA + 1; i < MM->nr_zones && memmap; i++)
		memmap = reserve_boot_pages(&MM->zones[i], memmap);
	for (int i = 0; i < MM->nr_zones && memmap; i++)
		memmap = reserve_boot_pages(&MM->zones[i], memmap);
	for (int i = 0; i < MM->nr_zones; i++)
		free_boot_pages(&MM->zones[i]);
	MM->totalram_pages = 0;
	for (int i = 0; i < MM->nr_zones; i++)
		MM->totalram_pages += (unsigned long)MM->zones[i].stat[NR_FREE_PAGES];
	if (MM->sysctl.min_free_kbytes == 0)
		MM->sysctl.min_free_kbytes = compute_min_free_kbytes();
	vfs_caches_init();
	if (MM->sysctl.page_cluster < 0)
		MM->sysctl.page_cluster = (cfg->ram_bytes < (16ULL << 20)) ? 2 : 3;
	setup_per_zone_pages_min();
	/* nr_free_pagecache_pages() in build_all_zonelists, which runs before
	 * setup_per_zone_pages_min: pages_high is still 0, so every present page counts */
	MM->vm_total_pages = 0;
	for (int i = 0; i < MM->nr_zones; i++)
		MM->vm_total_pages += MM->zones[i].present_pages;
	if (MM->rules->total_memory) /* 2.6.8: kswapd_init's total_memory, after the marks */
		MM->vm_total_pages = MM->rules->total_memory();
	page_writeback_init();

	MM->rmap_cap = 1024;
	MM->rmap = xcalloc(MM->rmap_cap, sizeof(*MM->rmap));
	MM->rmap_free = 0;
	for (uint32_t i = 1; i < MM->rmap_cap; i++)
		MM->rmap[i].next = (i + 1 < MM->rmap_cap) ? i + 1 : 0;
	MM->rmap_free = 1; /* index 0 is the "none" sentinel */

	/* One disk: swap partition first, then the filesystem. Or, as the profile says, the
	 * filesystem on a RAID-0 of several disks and swap on a disk of its own. */
	if (cfg->hw->fs_disks > 1)
		blockdev_init_striped(&MM->disk, "md0", &cfg->hw->disk, cfg->hw->fs_disks,
				      cfg->hw->raid_chunk_bytes, cfg->seed);
	else
		blockdev_init(&MM->disk, "sda", &cfg->hw->disk, cfg->seed);
	blockdev_set_elevator(&MM->disk, cfg->elevator, cfg->hw->hz);
	MM->disk.uncongested = mm_bdi_uncongested;
	uint64_t swap_slots = cfg->swap_bytes >> MM->page_shift;
	MM->swap.nr_slots = swap_slots;
	MM->swap.nr_free = swap_slots ? swap_slots - 1 : 0; /* slot 0 is the swap header */
	MM->swap.bdev = &MM->disk;
	MM->swap.disk_sector = 2048;
	if (swap_slots) {
		MM->swap.swap_map = xcalloc(swap_slots, sizeof(uint16_t));
		MM->swap.cache = xmalloc(swap_slots * sizeof(pfn_t));
		for (uint64_t i = 0; i < swap_slots; i++)
			MM->swap.cache[i] = NO_PFN;
	}
	MM->fs_next_sector = MM->swap.disk_sector + (cfg->swap_bytes >> SECTOR_SHIFT) + 2048;
	if (cfg->hw->swap_own_disk) {
		blockdev_init(&MM->swap_disk, "sdswap",
			      cfg->hw->swap_disk ? cfg->hw->swap_disk : &cfg->hw->disk,
			      cfg->seed + 1);
		blockdev_set_elevator(&MM->swap_disk, cfg->elevator, cfg->hw->hz);
		MM->swap_disk.uncongested = mm_bdi_uncongested;
		MM->swap.bdev = &MM->swap_disk;
		MM->fs_next_sector = 2048;
	}
	return 0;
}

void mm_destroy(void)
{
	if (!MM)
		return;
	vfs_caches_destroy();
	unregister_shrinkers();
	kmem_caches_forget(); /* their slabs die with the machine */
	while (MM->all_mms) { /* mms of tasks still alive when the run stopped */
		struct mm_struct *mm = MM->all_mms;
		MM->all_mms = mm->all_next;
		free(mm->vma_index); /* the VMAs themselves are freed through MM->vmas below */
		free(mm);
	}
	for (uint32_t i = 0; i < MM->nr_vmas; i++) {
		struct vm_area_struct *v = MM->vmas[i];
		if (v) {
			if (v->ra && --v->ra->users == 0) /* the last mapping of its open file */
				free(v->ra);
			free(v->pte);
			free(v->rmap);
			free(v->ptpage);
			free(v);
		}
	}
	free(MM->vmas);
	free(MM->vma_free_ids);
	for (uint32_t i = 0; i < MM->nr_files; i++) {
		page_index_free(MM->files[i]);
		if (MM->files[i]->shmem)
			free(MM->files[i]->shmem->swp);
		free(MM->files[i]->shmem);
		free(MM->files[i]);
	}
	free(MM->files);
	free(MM->rmap);
	free(MM->swap.swap_map);
	free(MM->swap.cache);
	blockdev_destroy(&MM->disk);
	if (MM->swap.bdev == &MM->swap_disk)
		blockdev_destroy(&MM->swap_disk);
	as_free_all();
	for (int i = 0; i < MAX_NR_ZONES; i++)
		free(MM->zones[i].pcp);
	free(MM->pages);
	free(MM);
	MM = NULL;
}
