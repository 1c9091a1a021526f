/* The invariant checker: every frame is in exactly one place, every gauge equals what it
 * counts, every swap slot's count equals its references. Tests run it throughout every
 * simulation; it is O(frames + PTEs + slots). */
#include "mm/mm.h"
#include "mm/slab.h"
#include "sim/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "mmsim: invariant violated at t=%llu ns: ", (unsigned long long)sim_clock);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return -1;
}

enum { W_NONE = 0, W_FREE, W_LRU, W_ISOLATED, W_KERNEL, W_USER_NEW };

int mm_check_invariants(void)
{
	pfn_t n = MM->nr_frames;
	uint8_t *where = xcalloc(n, 1);
	int ret = 0;

	/* walk every list: each frame at most once, flags matching the list */
	for (int zi = 0; zi < MM->nr_zones && !ret; zi++) {
		struct zone *z = &MM->zones[zi];
		unsigned long cnt = 0;
		/* the buddy lists: aligned blocks inside the zone, heads marked with their
		 * order, every frame of a block free and on no other list */
		for (unsigned o = 0; o < MAX_ORDER && !ret; o++) {
			unsigned long blocks = 0;
			for (pfn_t pfn = z->free_area[o].head; pfn != NO_PFN && !ret;
			     pfn = pfn_to_page(pfn)->next) {
				struct page *head = pfn_to_page(pfn);
				pfn_t size = (pfn_t)1 << o;
				if (!(head->flags & PG_buddy) || head->private != o ||
				    (pfn & (size - 1)) || pfn < z->start_pfn ||
				    pfn + size > z->end_pfn) {
					ret = fail("order-%u block at pfn %u: flags %#x order %u, "
						   "misaligned or outside zone %s",
						   o, pfn, head->flags, head->private, z->name);
					break;
				}
				pfn_t buddy = pfn ^ size;
				if (o < MAX_ORDER - 1 && buddy >= z->start_pfn &&
				    buddy < z->end_pfn && (pfn_to_page(buddy)->flags & PG_buddy) &&
				    pfn_to_page(buddy)->private == o) {
					ret = fail(
					    "order-%u blocks at pfn %u and %u are free buddies "
					    "left unmerged",
					    o, pfn, buddy);
					break;
				}
				for (pfn_t i = pfn; i < pfn + size; i++) {
					if (where[i] || (i != pfn && pfn_to_page(i)->flags)) {
						ret = fail("pfn %u of the order-%u block at %u is "
							   "elsewhere too (flags %#x)",
							   i, o, pfn, pfn_to_page(i)->flags);
						break;
					}
					where[i] = W_FREE;
				}
				blocks++;
				cnt += size;
			}
			if (!ret && blocks != z->free_area[o].nr)
				ret = fail("zone %s order %u: walked %lu blocks, nr %lu", z->name,
					   o, blocks, z->free_area[o].nr);
		}
		if (!ret && (long)cnt != z->stat[NR_FREE_PAGES])
			ret = fail("zone %s: buddy lists hold %lu pages, nr_free_pages %ld",
				   z->name, cnt, z->stat[NR_FREE_PAGES]);
		for (int c = 0; c < MM->ncpus && !ret; c++) {
			struct per_cpu_pages *pcp = &z->pcp[c];
			unsigned long n = 0;
			for (pfn_t pfn = pcp->list.head; pfn != NO_PFN;
			     pfn = pfn_to_page(pfn)->next) {
				if (where[pfn] || !(pfn_to_page(pfn)->flags & PG_pcp) ||
				    pfn_to_page(pfn)->zone != zi) {
					ret = fail(
					    "pfn %u on cpu %d's page list: twice, misflagged or "
					    "of another zone",
					    pfn, c);
					break;
				}
				where[pfn] = W_FREE;
				n++;
			}
			if (!ret && (n != pcp->list.nr || (n && n >= pcp->high)))
				ret = fail(
				    "zone %s cpu %d: per-CPU list holds %lu (nr %lu, high %lu)",
				    z->name, c, n, pcp->list.nr, pcp->high);
		}
		for (int l = 0; l < NR_LRU_LISTS && !ret; l++) {
			cnt = 0;
			for (pfn_t pfn = z->lru[l].head; pfn != NO_PFN;
			     pfn = pfn_to_page(pfn)->next) {
				struct page *p = pfn_to_page(pfn);
				if (where[pfn]) {
					ret = fail("pfn %u on two lists (lru %d)", pfn, l);
					break;
				}
				where[pfn] = W_LRU;
				if (!(p->flags & PG_lru) || page_lru(p) != (enum lru_list)l) {
					ret = fail("pfn %u on lru %d with flags %#x", pfn, l,
						   p->flags);
					break;
				}
				cnt++;
			}
			if (!ret && cnt != z->lru[l].nr)
				ret = fail("zone %s lru %d: walked %lu, nr %lu", z->name, l, cnt,
					   z->lru[l].nr);
			if (!ret && l < NR_EVICTABLE_LRU && (long)cnt != z->stat[NR_LRU_BASE + l])
				ret = fail(
				    "zone %s: %s = %ld but the list holds %lu", z->name,
				    vmstat_zone_stat_name((enum zone_stat_item)(NR_LRU_BASE + l)),
				    z->stat[NR_LRU_BASE + l], cnt);
		}
	}

	/* every other frame: kernel, isolated, or a new user page */
	long kernel[MAX_NR_ZONES][3] = {{0}};
	long isolated[MAX_NR_ZONES][2] = {{0}};
	long file_pages[MAX_NR_ZONES] = {0}, anon_mapped[MAX_NR_ZONES] = {0},
	     file_mapped[MAX_NR_ZONES] = {0}, dirty[MAX_NR_ZONES] = {0}, wb[MAX_NR_ZONES] = {0};
	unsigned long user_new = 0;
	for (pfn_t pfn = 0; pfn < n && !ret; pfn++) {
		struct page *p = pfn_to_page(pfn);
		int zi = p->zone;
		if (where[pfn] == W_NONE) {
			if (p->flags & PG_slab) {
				where[pfn] = W_KERNEL;
				int k = p->owner == OWNER_STACK	      ? 0
					: p->owner == OWNER_PAGETABLE ? 1
								      : 2;
				kernel[zi][k]++;
				continue;
			} else if (p->flags & PG_isolated) {
				where[pfn] = W_ISOLATED;
				isolated[zi][page_is_file_cache(p)]++;
			} else if (p->owner == OWNER_USER_NEW) {
				where[pfn] = W_USER_NEW;
				user_new++;
			} else {
				ret = fail("pfn %u (flags %#x owner %u) is nowhere", pfn, p->flags,
					   p->owner);
				break;
			}
		} else if (where[pfn] == W_FREE) {
			continue;
		}
		if (p->mapping || (p->flags & PG_swapcache))
			file_pages[zi]++;
		if (p->mapping && (p->flags & PG_dirty))
			dirty[zi]++;
		if (p->flags & PG_writeback)
			wb[zi]++;
		if (p->mapcount > 0) {
			if (p->mapping)
				file_mapped[zi]++;
			else
				anon_mapped[zi]++;
		}
		int chain = 0;
		for (uint32_t i = p->rmap; i; i = MM->rmap[i].next) {
			struct rmap_item *it = &MM->rmap[i];
			struct vm_area_struct *v = MM->vmas[it->vma];
			if (!v || it->pte < v->pte || it->pte >= v->pte + v->npages) {
				ret = fail("pfn %u: rmap entry's PTE is outside its VMA", pfn);
				break;
			}
			uint32_t pte = *it->pte;
			if (!(pte & PTE_PRESENT) || (pte & PTE_PFN_MASK) != pfn) {
				ret = fail(
				    "pfn %u: rmap entry points at a PTE %#x that does not map it",
				    pfn, pte);
				break;
			}
			chain++;
		}
		if (!ret && chain != p->mapcount)
			ret = fail("pfn %u: mapcount %d but %d rmap entries", pfn, p->mapcount,
				   chain);
		if (!ret && (p->flags & PG_swapcache) && MM->swap.cache[p->private] != pfn)
			ret = fail("pfn %u: PG_swapcache slot %u does not point back", pfn,
				   p->private);
		if (!ret && p->mapping && page_mapping(p)->pages[p->index] != pfn)
			ret =
			    fail("pfn %u: page cache index %u does not point back", pfn, p->index);
	}
	for (int zi = 0; zi < MM->nr_zones && !ret; zi++) {
		struct zone *z = &MM->zones[zi];
		if (kernel[zi][0] != z->stat[NR_KERNEL_STACK] ||
		    kernel[zi][1] != z->stat[NR_PAGETABLE] ||
		    kernel[zi][2] != z->stat[NR_SLAB_UNRECLAIMABLE])
			ret = fail(
			    "zone %s: kernel pages %ld/%ld/%ld vs stack %ld pagetable %ld slab %ld",
			    z->name, kernel[zi][0], kernel[zi][1], kernel[zi][2],
			    z->stat[NR_KERNEL_STACK], z->stat[NR_PAGETABLE],
			    z->stat[NR_SLAB_UNRECLAIMABLE]);
		else if (isolated[zi][0] != (long)z->nr_isolated[0] ||
			 isolated[zi][1] != (long)z->nr_isolated[1] ||
			 isolated[zi][0] != z->stat[NR_ISOLATED_ANON] ||
			 isolated[zi][1] != z->stat[NR_ISOLATED_FILE])
			ret = fail("zone %s: isolated %ld/%ld vs counters %lu/%lu", z->name,
				   isolated[zi][0], isolated[zi][1], z->nr_isolated[0],
				   z->nr_isolated[1]);
		else if (file_pages[zi] != z->stat[NR_FILE_PAGES])
			ret = fail("zone %s: nr_file_pages %ld, counted %ld", z->name,
				   z->stat[NR_FILE_PAGES], file_pages[zi]);
		else if (anon_mapped[zi] != z->stat[NR_ANON_PAGES])
			ret = fail("zone %s: nr_anon_pages %ld, counted %ld", z->name,
				   z->stat[NR_ANON_PAGES], anon_mapped[zi]);
		else if (file_mapped[zi] != z->stat[NR_FILE_MAPPED])
			ret = fail("zone %s: nr_mapped %ld, counted %ld", z->name,
				   z->stat[NR_FILE_MAPPED], file_mapped[zi]);
		else if (dirty[zi] != z->stat[NR_FILE_DIRTY])
			ret = fail("zone %s: nr_dirty %ld, counted %ld", z->name,
				   z->stat[NR_FILE_DIRTY], dirty[zi]);
		else if (wb[zi] != z->stat[NR_WRITEBACK])
			ret = fail("zone %s: nr_writeback %ld, counted %ld", z->name,
				   z->stat[NR_WRITEBACK], wb[zi]);
	}
	if (!ret && user_new != MM->nr_user_new)
		ret = fail("%lu new user pages counted, %lu expected", user_new, MM->nr_user_new);

	/* PTEs: present ones point at mapped frames; swap ones are counted per slot */
	struct swap_info *si = &MM->swap;
	uint32_t *refs = si->nr_slots ? xcalloc(si->nr_slots, sizeof(uint32_t)) : NULL;
	uint32_t locked = 0;
	for (uint32_t id = 1; id < MM->nr_vmas && !ret; id++) {
		struct vm_area_struct *v = MM->vmas[id];
		if (!v)
			continue;
		if (v->flags & VM_LOCKED)
			locked++;
		for (uint64_t off = 0; off < v->npages && !ret; off++) {
			uint32_t pte = v->pte[off];
			if (pte & PTE_PRESENT) {
				pfn_t pfn = pte & PTE_PFN_MASK;
				if (pfn >= n || pfn_to_page(pfn)->mapcount <= 0)
					ret = fail("vma %u off %llu maps pfn %u with no mapcount",
						   id, (unsigned long long)off, pfn);
				else if (v->ptpage[off >> MM->pte_shift] == NO_PFN)
					ret = fail("vma %u off %llu: PTE without a page-table page",
						   id, (unsigned long long)off);
			} else if (pte & PTE_SWAP) {
				uint32_t slot = pte & PTE_PFN_MASK;
				if (slot >= si->nr_slots)
					ret = fail("swap PTE for slot %u beyond swap", slot);
				else
					refs[slot]++;
			}
		}
	}
	if (!ret && locked != MM->nr_locked_vmas)
		ret = fail("%u VMAs are VM_LOCKED, %u counted (set it with vma_set_locked)", locked,
			   MM->nr_locked_vmas);
	uint64_t nfree = 0;
	for (uint64_t s = 1; s < si->nr_slots && !ret; s++) {
		uint32_t want = refs[s] + (si->cache[s] != NO_PFN ? 1 : 0);
		if (si->swap_map[s] != want)
			ret = fail("swap slot %llu: count %u, references %u", (unsigned long long)s,
				   si->swap_map[s], want);
		if (!si->swap_map[s])
			nfree++;
	}
	if (!ret && si->nr_slots && nfree != si->nr_free)
		ret = fail("swap: %llu free slots counted, nr_swap_pages %llu",
			   (unsigned long long)nfree, (unsigned long long)si->nr_free);
	free(refs);
	free(where);
	if (!ret && kmem_caches_check())
		ret = -1;
	return ret;
}
