/* The invariant checker: every frame is in exactly one place, every gauge equals what it
 * counts, every swap slot's count equals its references. Tests run it throughout every
 * simulation; it is O(frames + PTEs + slots). Each check is named for the rule it guards,
 * as the kernel's VM_BUG_ON sites are, and a violation prints that name first. */
#include "mm/fs.h"
#include "mm/mm.h"
#include "mm/shmem.h"
#include "mm/slab.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MM_BUG_ON(cond, rule, fmt, ...): when cond holds, report the broken rule and fail. */
#define MM_BUG_ON(cond, rule, ...)                                                                 \
	do {                                                                                       \
		if (cond)                                                                          \
			return sched_invariant_failed(rule, __VA_ARGS__);                          \
	} while (0)

enum { W_NONE = 0, W_FREE, W_LRU, W_ISOLATED, W_KERNEL, W_USER_NEW };

/* What the frame walk counts per zone, to compare with the zone's gauges. */
struct zone_tally {
	long kernel[4]; /* stacks, page tables, other slab, reclaimable slab */
	long isolated[2];
	long file_pages, anon_mapped, file_mapped, dirty, writeback;
};

struct check_state {
	uint8_t *where; /* per frame: the one place it was found */
	struct zone_tally tally[MAX_NR_ZONES];
	unsigned long user_new;
	uint64_t mapcounts; /* summed over the mapped frames: the present PTEs there must be */
};

/* ---- page_alloc: the buddy lists and the per-CPU lists ---- */

/* One free block of the buddy allocator: aligned, inside its zone, head marked with its
 * order, not left unmerged with a free buddy, every frame on no other list. */
static int check_buddy_block(struct check_state *cs, const struct zone *z, unsigned o, pfn_t pfn)
{
	const struct page *head = pfn_to_page(pfn);
	pfn_t size = (pfn_t)1 << o;
	MM_BUG_ON(!(head->flags & PG_buddy) || head->private != o || (pfn & (size - 1)) ||
		      pfn < z->start_pfn || pfn + size > z->end_pfn,
		  "buddy_block_aligned",
		  "order-%u block at pfn %u: flags %#x order %u, misaligned or outside zone %s", o,
		  pfn, head->flags, head->private, z->name);
	pfn_t buddy = pfn ^ size;
	MM_BUG_ON(o < MAX_ORDER - 1 && buddy >= z->start_pfn && buddy < z->end_pfn &&
		      (pfn_to_page(buddy)->flags & PG_buddy) && pfn_to_page(buddy)->private == o,
		  "buddies_merged",
		  "order-%u blocks at pfn %u and %u are free buddies left unmerged", o, pfn, buddy);
	for (pfn_t i = pfn; i < pfn + size; i++) {
		MM_BUG_ON(cs->where[i] || (i != pfn && pfn_to_page(i)->flags), "frame_in_one_place",
			  "pfn %u of the order-%u block at %u is elsewhere too (flags %#x)", i, o,
			  pfn, pfn_to_page(i)->flags);
		cs->where[i] = W_FREE;
	}
	return 0;
}

static int check_buddy_lists(struct check_state *cs, const struct zone *z)
{
	unsigned long cnt = 0;
	for (unsigned o = 0; o < MAX_ORDER; o++) {
		unsigned long blocks = 0;
		for (pfn_t pfn = z->free_area[o].head; pfn != NO_PFN;
		     pfn = pfn_to_page(pfn)->next) {
			if (check_buddy_block(cs, z, o, pfn))
				return -1;
			blocks++;
			cnt += (pfn_t)1 << o;
		}
		MM_BUG_ON(blocks != z->free_area[o].nr, "free_area_nr",
			  "zone %s order %u: walked %lu blocks, nr %lu", z->name, o, blocks,
			  z->free_area[o].nr);
	}
	MM_BUG_ON((long)cnt != z->stat[NR_FREE_PAGES], "nr_free_pages",
		  "zone %s: buddy lists hold %lu pages, nr_free_pages %ld", z->name, cnt,
		  z->stat[NR_FREE_PAGES]);
	return 0;
}

static int check_pcp_lists(struct check_state *cs, const struct zone *z, int zi)
{
	for (int c = 0; c < MM->ncpus; c++) {
		const struct per_cpu_pages *pcp = &z->pcp[c];
		unsigned long n = 0;
		for (pfn_t pfn = pcp->list.head; pfn != NO_PFN; pfn = pfn_to_page(pfn)->next) {
			MM_BUG_ON(
			    cs->where[pfn] || !(pfn_to_page(pfn)->flags & PG_pcp) ||
				pfn_to_page(pfn)->zone != zi,
			    "pcp_list_pages",
			    "pfn %u on cpu %d's page list: twice, misflagged or of another zone",
			    pfn, c);
			cs->where[pfn] = W_FREE;
			n++;
		}
		MM_BUG_ON(n != pcp->list.nr || (n && n >= pcp->high), "pcp_count_below_high",
			  "zone %s cpu %d: per-CPU list holds %lu (nr %lu, high %lu)", z->name, c,
			  n, pcp->list.nr, pcp->high);
	}
	return 0;
}

/* ---- vmscan: the LRU lists ---- */

static int check_lru_lists(struct check_state *cs, const struct zone *z)
{
	for (int l = 0; l < NR_LRU_LISTS; l++) {
		unsigned long cnt = 0;
		for (pfn_t pfn = z->lru[l].head; pfn != NO_PFN; pfn = pfn_to_page(pfn)->next) {
			const struct page *p = pfn_to_page(pfn);
			MM_BUG_ON(cs->where[pfn], "frame_in_one_place",
				  "pfn %u on two lists (lru %d)", pfn, l);
			cs->where[pfn] = W_LRU;
			MM_BUG_ON(!(p->flags & PG_lru) || page_lru(p) != (enum lru_list)l,
				  "page_lru_matches_list", "pfn %u on lru %d with flags %#x", pfn,
				  l, p->flags);
			cnt++;
		}
		MM_BUG_ON(cnt != z->lru[l].nr, "lru_nr", "zone %s lru %d: walked %lu, nr %lu",
			  z->name, l, cnt, z->lru[l].nr);
		MM_BUG_ON(l < NR_EVICTABLE_LRU && (long)cnt != z->stat[NR_LRU_BASE + l],
			  "nr_lru_pages", "zone %s: %s = %ld but the list holds %lu", z->name,
			  vmstat_zone_stat_name((enum zone_stat_item)(NR_LRU_BASE + l)),
			  z->stat[NR_LRU_BASE + l], cnt);
	}
	return 0;
}

/* ---- rmap: a mapped frame's chain ---- */

static int check_rmap_chain(pfn_t pfn, const struct page *p)
{
	int chain = 0;
	uint32_t prev = 0;
	for (uint32_t i = p->rmap; i; prev = i, i = MM->rmap[i].next) {
		const struct rmap_item *it = &MM->rmap[i];
		const struct vm_area_struct *v = MM->vmas[it->vma];
		MM_BUG_ON(!v || it->pte < v->pte || it->pte >= v->pte + v->npages,
			  "rmap_pte_in_vma", "pfn %u: rmap entry's PTE is outside its VMA", pfn);
		MM_BUG_ON(it->prev != prev || v->rmap[it->pte - v->pte] != i, "rmap_links_back",
			  "pfn %u: rmap entry %u: prev %u (walk %u), its PTE's entry %u", pfn, i,
			  it->prev, prev, v->rmap[it->pte - v->pte]);
		uint32_t pte = *it->pte;
		MM_BUG_ON(!(pte & PTE_PRESENT) || (pte & PTE_PFN_MASK) != pfn, "rmap_pte_maps_page",
			  "pfn %u: rmap entry points at a PTE %#x that does not map it", pfn, pte);
		MM_BUG_ON(v->ptpage[vma_pt_index(v, (uint64_t)(it->pte - v->pte))] == NO_PFN,
			  "pte_has_pagetable_page",
			  "pfn %u: mapped by a PTE without a page-table page", pfn);
		chain++;
	}
	MM_BUG_ON(chain != p->mapcount, "mapcount_is_rmap_chain",
		  "pfn %u: mapcount %d but %d rmap entries", pfn, p->mapcount, chain);
	MM_BUG_ON((p->flags & PG_swapcache) && MM->swap.cache[p->private] != pfn,
		  "swapcache_points_back", "pfn %u: PG_swapcache slot %u does not point back", pfn,
		  p->private);
	MM_BUG_ON(p->mapping && page_index_lookup(page_mapping(p), p->index) != pfn,
		  "pagecache_points_back", "pfn %u: page cache index %u does not point back", pfn,
		  p->index);
	/* page_is_file_cache: a page cache page is swap-backed exactly when its mapping is a
	 * shmem object's; a shmem page is never in the swap cache and its object's cache */
	MM_BUG_ON(p->mapping && !(p->flags & PG_swapbacked) != !page_mapping(p)->shmem,
		  "swapbacked_iff_shmem", "pfn %u: flags %#x in %s mapping %u", pfn, p->flags,
		  page_mapping(p)->shmem ? "shmem" : "file", p->mapping);
	MM_BUG_ON(p->mapping && (p->flags & PG_swapcache), "shmem_cache_or_swap_cache",
		  "pfn %u: in page cache %u and in the swap cache (slot %u)", pfn, p->mapping,
		  p->private);
	return 0;
}

/* ---- every frame: where it is, and what it counts towards ---- */

/* A frame on no list: a kernel page, an isolated page, or a new user page. */
static int classify_unlisted(struct check_state *cs, pfn_t pfn, const struct page *p)
{
	struct zone_tally *t = &cs->tally[p->zone];
	if (p->flags & PG_slab) {
		cs->where[pfn] = W_KERNEL;
		int k = p->owner == OWNER_STACK		     ? 0
			: p->owner == OWNER_PAGETABLE	     ? 1
			: p->owner == OWNER_SLAB_RECLAIMABLE ? 3
							     : 2;
		t->kernel[k]++;
		return W_KERNEL;
	}
	if (p->flags & PG_isolated) {
		cs->where[pfn] = W_ISOLATED;
		t->isolated[page_is_file_cache(p)]++;
		return W_ISOLATED;
	}
	MM_BUG_ON(p->owner != OWNER_USER_NEW, "frame_somewhere",
		  "pfn %u (flags %#x owner %u) is nowhere", pfn, p->flags, p->owner);
	cs->where[pfn] = W_USER_NEW;
	cs->user_new++;
	return W_USER_NEW;
}

static int check_frames(struct check_state *cs)
{
	for (pfn_t pfn = 0; pfn < MM->nr_frames; pfn++) {
		const struct page *p = pfn_to_page(pfn);
		if (cs->where[pfn] == W_FREE)
			continue;
		if (cs->where[pfn] == W_NONE) {
			int w = classify_unlisted(cs, pfn, p);
			if (w < 0)
				return -1;
			if (w == W_KERNEL)
				continue;
		}
		struct zone_tally *t = &cs->tally[p->zone];
		if (p->mapping || (p->flags & PG_swapcache))
			t->file_pages++;
		if (p->mapping && (p->flags & PG_dirty) && !page_is_shmem(p))
			t->dirty++;
		if (p->flags & PG_writeback)
			t->writeback++;
		if (p->mapcount > 0) {
			if (p->mapping)
				t->file_mapped++;
			else
				t->anon_mapped++;
			cs->mapcounts += (uint64_t)p->mapcount;
		}
		if (check_rmap_chain(pfn, p))
			return -1;
	}
	MM_BUG_ON(cs->user_new != MM->nr_user_new, "nr_user_new",
		  "%lu new user pages counted, %lu expected", cs->user_new, MM->nr_user_new);
	return 0;
}

/* ---- vmstat: every zone gauge equals the frames it counts ---- */

static int check_zone_counters(const struct check_state *cs, const struct zone *z, int zi)
{
	const struct zone_tally *t = &cs->tally[zi];
	MM_BUG_ON(t->kernel[0] != z->stat[NR_KERNEL_STACK] ||
		      t->kernel[1] != z->stat[NR_PAGETABLE] ||
		      t->kernel[2] != z->stat[NR_SLAB_UNRECLAIMABLE] ||
		      t->kernel[3] != z->stat[NR_SLAB_RECLAIMABLE],
		  "kernel_page_counters",
		  "zone %s: kernel pages %ld/%ld/%ld/%ld vs stack %ld pagetable %ld slab %ld "
		  "reclaimable slab %ld",
		  z->name, t->kernel[0], t->kernel[1], t->kernel[2], t->kernel[3],
		  z->stat[NR_KERNEL_STACK], z->stat[NR_PAGETABLE], z->stat[NR_SLAB_UNRECLAIMABLE],
		  z->stat[NR_SLAB_RECLAIMABLE]);
	MM_BUG_ON(t->isolated[0] != (long)z->nr_isolated[0] ||
		      t->isolated[1] != (long)z->nr_isolated[1] ||
		      t->isolated[0] != z->stat[NR_ISOLATED_ANON] ||
		      t->isolated[1] != z->stat[NR_ISOLATED_FILE],
		  "nr_isolated", "zone %s: isolated %ld/%ld vs counters %lu/%lu", z->name,
		  t->isolated[0], t->isolated[1], z->nr_isolated[0], z->nr_isolated[1]);
	MM_BUG_ON(t->file_pages != z->stat[NR_FILE_PAGES], "nr_file_pages",
		  "zone %s: nr_file_pages %ld, counted %ld", z->name, z->stat[NR_FILE_PAGES],
		  t->file_pages);
	MM_BUG_ON(t->anon_mapped != z->stat[NR_ANON_PAGES], "nr_anon_pages",
		  "zone %s: nr_anon_pages %ld, counted %ld", z->name, z->stat[NR_ANON_PAGES],
		  t->anon_mapped);
	MM_BUG_ON(t->file_mapped != z->stat[NR_FILE_MAPPED], "nr_mapped",
		  "zone %s: nr_mapped %ld, counted %ld", z->name, z->stat[NR_FILE_MAPPED],
		  t->file_mapped);
	MM_BUG_ON(t->dirty != z->stat[NR_FILE_DIRTY], "nr_dirty",
		  "zone %s: nr_dirty %ld, counted %ld", z->name, z->stat[NR_FILE_DIRTY], t->dirty);
	MM_BUG_ON(t->writeback != z->stat[NR_WRITEBACK], "nr_writeback",
		  "zone %s: nr_writeback %ld, counted %ld", z->name, z->stat[NR_WRITEBACK],
		  t->writeback);
	return 0;
}

/* ---- memory, swapfile: PTEs and swap slots ---- */

/* One PTE of VMA id at off: a present one maps a frame with a mapcount, a swap one is a
 * reference to its slot. */
static int check_pte(const struct vm_area_struct *v, uint32_t id, uint64_t off, uint32_t *refs,
		     uint64_t *present)
{
	uint32_t pte = v->pte[off];
	if (pte & PTE_PRESENT) {
		pfn_t pfn = pte & PTE_PFN_MASK;
		MM_BUG_ON(pfn >= MM->nr_frames || pfn_to_page(pfn)->mapcount <= 0,
			  "pte_maps_mapped_page", "vma %u off %llu maps pfn %u with no mapcount",
			  id, (unsigned long long)off, pfn);
		(*present)++;
	} else if (pte & PTE_SWAP) {
		uint32_t slot = pte & PTE_PFN_MASK;
		MM_BUG_ON(slot >= MM->swap.nr_slots, "swap_pte_in_swap",
			  "swap PTE for slot %u beyond swap", slot);
		refs[slot]++;
	}
	return 0;
}

/* Present PTEs map frames with a mapcount; swap PTEs are counted per slot into refs. Only
 * the spans with a page-table page are read, so the check costs what is populated, not a
 * VMA's whole size (a thread stack of a GiB is 262,144 PTE slots): a present PTE with no
 * rmap entry raises the count of present PTEs above the mapcounts' sum (every present PTE
 * is one rmap entry; check_frames sums them), a swap PTE in a span without one is missing
 * from refs, which check_swap_map holds to swap_map. check_rmap_chain checks each mapped
 * PTE's span. What no longer shows is a present PTE with neither an rmap entry nor a
 * page-table page. */
static int check_ptes(uint32_t *refs, uint64_t mapcounts)
{
	uint32_t locked = 0;
	uint64_t present = 0, span_pages = (uint64_t)1 << MM->pte_shift;
	for (uint32_t id = 1; id < MM->nr_vmas; id++) {
		const struct vm_area_struct *v = MM->vmas[id];
		if (!v)
			continue;
		if (v->flags & VM_LOCKED)
			locked++;
		uint64_t chunks = vma_pt_spans(v->start, v->npages);
		for (uint64_t c = 0; c < chunks; c++) {
			if (v->ptpage[c] == NO_PFN)
				continue;
			uint64_t lo = (pt_span(v->start) + c) * span_pages;
			uint64_t from = lo > v->start ? lo - v->start : 0;
			uint64_t to = MIN(lo + span_pages - v->start, v->npages);
			for (uint64_t off = from; off < to; off++)
				if (check_pte(v, id, off, refs, &present))
					return -1;
		}
	}
	MM_BUG_ON(present != mapcounts, "present_ptes_are_mapcounts",
		  "%llu present PTEs under page-table pages, mapcounts sum to %llu",
		  (unsigned long long)present, (unsigned long long)mapcounts);
	MM_BUG_ON(locked != MM->nr_locked_vmas, "nr_locked_vmas",
		  "%u VMAs are VM_LOCKED, %u counted (set it with vma_set_locked)", locked,
		  MM->nr_locked_vmas);
	return 0;
}

/* swap_map[slot] is the swap PTEs and shmem entries plus the swap cache's reference;
 * nr_swap_pages the slots at zero. */
static int check_swap_map(const uint32_t *refs)
{
	const struct swap_info *si = &MM->swap;
	uint64_t nfree = 0;
	for (uint64_t s = 1; s < si->nr_slots; s++) {
		uint32_t want = refs[s] + (si->cache[s] != NO_PFN ? 1 : 0);
		MM_BUG_ON(si->swap_map[s] != want, "swap_count_is_references",
			  "swap slot %llu: count %u, references %u", (unsigned long long)s,
			  si->swap_map[s], want);
		if (!si->swap_map[s])
			nfree++;
	}
	MM_BUG_ON(si->nr_slots && nfree != si->nr_free, "nr_swap_pages",
		  "swap: %llu free slots counted, nr_swap_pages %llu", (unsigned long long)nfree,
		  (unsigned long long)si->nr_free);
	return 0;
}

/* ---- shmem: each page index is in the object's cache, or on swap under its entry ---- */

/* Every shmem object: an index holds a page or a swap entry, never both; each entry is a
 * reference to its slot (counted into refs); `swapped` counts the entries. */
/* vm_committed_space: the VM_ACCOUNT VMAs' pages, the shmem objects' (their size, or their
 * alloced pages when committed page by page) and those of an object or page still being
 * made. */
static int check_committed(void)
{
	long committed = MM->vm_committed_pending;
	for (uint32_t id = 0; id < MM->nr_files; id++)
		if (MM->files[id]->shmem) {
			const struct shmem_inode_info *info = MM->files[id]->shmem;
			committed += (long)info->acct_pages;
			if (info->acct_blocks)
				committed += (long)info->alloced;
		}
	for (uint32_t id = 1; id < MM->nr_vmas; id++) {
		const struct vm_area_struct *v = MM->vmas[id];
		if (v && (v->flags & VM_ACCOUNT))
			committed += (long)vm_commit_pages(v->npages);
	}
	MM_BUG_ON(committed != MM->vm_committed_space, "vm_committed_space",
		  "VM_ACCOUNT VMAs, shmem objects and objects in the making hold %ld pages, %ld "
		  "committed",
		  committed, MM->vm_committed_space);
	return 0;
}

static int check_shmem_objects(uint32_t *refs)
{
	const struct swap_info *si = &MM->swap;
	for (uint32_t id = 0; id < MM->nr_files; id++) {
		const struct address_space *f = MM->files[id];
		if (!f->shmem)
			continue;
		unsigned long swapped = 0, nrpages = 0;
		for (uint64_t i = 0; i < f->cap_pages; i++) {
			uint32_t slot = f->shmem->swp[i];
			if (page_index_lookup(f, i) != NO_PFN) {
				const struct page *p = pfn_to_page(page_index_lookup(f, i));
				nrpages++;
				MM_BUG_ON(p->mapping != id + 1 || p->index != i,
					  "shmem_page_points_back",
					  "%s index %llu: pfn %u has mapping %u index %u", f->name,
					  (unsigned long long)i, page_index_lookup(f, i),
					  p->mapping, p->index);
			}
			if (!slot)
				continue;
			swapped++;
			MM_BUG_ON(page_index_lookup(f, i) != NO_PFN || slot >= si->nr_slots,
				  "shmem_swp_entry",
				  "%s index %llu: swap entry %u with pfn %u in its cache", f->name,
				  (unsigned long long)i, slot, page_index_lookup(f, i));
			refs[slot]++;
		}
		/* pages reclaim freed clean are given back at the object's next recalc; a gone
		 * object has given back all (shmem_mapping_gone) */
		bool gone = f->shmem->unlinked && !f->nr_mapped_vmas;
		MM_BUG_ON(!gone && f->shmem->alloced < swapped + nrpages, "shmem_alloced",
			  "%s: alloced %lu, %lu swap entries and %lu pages", f->name,
			  f->shmem->alloced, swapped, nrpages);
		MM_BUG_ON(gone && f->shmem->alloced, "shmem_alloced",
			  "%s: gone with %lu pages alloced", f->name, f->shmem->alloced);
		MM_BUG_ON(swapped != f->shmem->swapped || nrpages != f->nrpages, "shmem_swapped",
			  "%s: %lu swap entries, %lu pages; swapped %lu nrpages %lu", f->name,
			  swapped, nrpages, f->shmem->swapped, f->nrpages);
	}
	return 0;
}

static int check_page_tables_and_swap(const struct check_state *cs)
{
	const struct swap_info *si = &MM->swap;
	uint32_t *refs = si->nr_slots ? xcalloc(si->nr_slots, sizeof(uint32_t)) : NULL;
	int ret = check_ptes(refs, cs->mapcounts);
	if (!ret)
		ret = check_shmem_objects(refs);
	if (!ret)
		ret = check_swap_map(refs);
	if (!ret)
		ret = check_committed();
	free(refs);
	return ret;
}

int mm_check_invariants(void)
{
	struct check_state cs;
	memset(&cs, 0, sizeof(cs));
	cs.where = xcalloc(MM->nr_frames, 1);
	int ret = 0;
	for (int zi = 0; zi < MM->nr_zones && !ret; zi++) {
		const struct zone *z = &MM->zones[zi];
		ret = check_buddy_lists(&cs, z);
		if (!ret)
			ret = check_pcp_lists(&cs, z, zi);
		if (!ret)
			ret = check_lru_lists(&cs, z);
	}
	if (!ret)
		ret = check_frames(&cs);
	for (int zi = 0; zi < MM->nr_zones && !ret; zi++)
		ret = check_zone_counters(&cs, &MM->zones[zi], zi);
	if (!ret)
		ret = check_page_tables_and_swap(&cs);
	free(cs.where);
	if (!ret && vfs_caches_check())
		ret = -1;
	if (!ret && kmem_caches_check())
		ret = -1;
	if (!ret && sched_check_invariants())
		ret = -1;
	return ret;
}
