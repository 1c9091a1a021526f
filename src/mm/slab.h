/* Slab caches as SLUB keeps them (2.6.25, the default allocator since 2.6.23;
 * kernel-reclaim.md §1.16 for why the page frees matter): objects of one size packed into
 * slabs of 2^order pages. Each CPU allocates from its own slab (frozen: never on a list);
 * slabs with some objects free wait on the partial list; full slabs are on no list. A slab
 * whose last object is freed goes back to the page allocator at once, unless it is a CPU's
 * slab. So a page comes back only when every object in it is freed: objects of different
 * lifetimes sharing a slab keep it (fragmentation), which a byte count would not show.
 *
 * Objects have no identity here, only the slab they sit in: kmem_cache_alloc returns the
 * slab's first frame and kmem_cache_free takes it back. Both are O(1) and allocate no host
 * memory (the per-CPU slots are allocated by kmem_cache_init). */
#ifndef MMSIM_MM_SLAB_H
#define MMSIM_MM_SLAB_H

#include "mm/mm.h"

#define SLUB_MIN_PARTIAL 5 /* MIN_PARTIAL: empty slabs kept on the partial list */

struct kmem_cache {
	const char *name;
	uint32_t size;	  /* object size, aligned */
	uint32_t objects; /* per slab of s->order */
	unsigned order;	  /* slab = 2^order pages (s->oo) */
	/* s->min: a slab of the object's own order, when one of s->order cannot be had */
	unsigned min_order;
	uint32_t min_objects;
	enum page_owner owner;
	pfn_t *cpu_slab;	 /* per CPU: the frozen slab allocated from, or NO_PFN */
	struct pagelist partial; /* the kernel's list head is this list's tail */
	unsigned long nr_slabs, peak_slabs;
	unsigned long nr_objects;     /* allocated */
	unsigned long fallback_slabs; /* slabs of s->min_order (ORDER_FALLBACK) */
};

/* A slab's own object count (page->objects: a fallback slab holds fewer) is kept in its
 * first frame's rmap field, which a kernel page, mapped by no PTE, does not use. */
static inline uint32_t slab_objects(const struct page *first)
{
	return first->rmap;
}

/* calculate_order of mm/slub.c under `rule` (enum slub_order_rule), for objects of `size`
 * bytes on pages of 1 << page_shift bytes and nr_cpus CPUs (nr_cpu_ids); max_order -1 and
 * min_objects 0 are the kernel's defaults (boot parameters slub_max_order=,
 * slub_min_objects=). */
unsigned slub_calculate_order(uint32_t size, unsigned page_shift, int nr_cpus, int rule,
			      int max_order, int min_objects);
/* The cache's order by MM->sysctl's rule and the machine's CPUs. */
void kmem_cache_init(struct kmem_cache *s, const char *name, uint32_t size, enum page_owner owner);
/* Where a slab is (page->private of its first frame): frozen as a CPU's slab, on the
 * partial list, or full and on no list. */
enum slab_state { SLAB_FULL = 0, SLAB_PARTIAL = 1, SLAB_FROZEN = 2 };

/* The paths past the CPU's own slab: another slab to allocate from, a slab to unfreeze,
 * list or give back. */
pfn_t kmem_cache_alloc_slow(struct kmem_cache *s, unsigned gfp);
void kmem_cache_free_slow(struct kmem_cache *s, pfn_t slab);

/* The first frame of the slab the new object sits in, or NO_PFN if no page could be had
 * (gfp says whether the page allocator may reclaim: the caller may sleep here). Inline:
 * an object from the CPU's slab (slab_alloc's fast path) is one count, and every skb takes
 * two of them. */
static inline pfn_t kmem_cache_alloc(struct kmem_cache *s, unsigned gfp)
{
	pfn_t slab = s->cpu_slab[this_cpu()];
	if (slab != NO_PFN) {
		struct page *p = pfn_to_page(slab);
		if (p->index < slab_objects(p)) {
			p->index++;
			s->nr_objects++;
			return slab;
		}
	}
	return kmem_cache_alloc_slow(s, gfp);
}

/* An object back into a CPU's slab, or into a partial slab it does not empty, is one
 * count (slab_free's fast path, and __slab_free's common case), inline; a slab that fills
 * the partial list or goes back to the page allocator is out of line. */
static inline void kmem_cache_free(struct kmem_cache *s, pfn_t slab)
{
	struct page *p = pfn_to_page(slab);
	if ((p->flags & PG_slab) &&
	    (p->private == SLAB_FROZEN ? p->index > 0
				       : p->private == SLAB_PARTIAL && p->index > 1)) {
		p->index--;
		s->nr_objects--;
		return;
	}
	kmem_cache_free_slow(s, slab);
}
/* The pages the cache's slabs take. */
static inline unsigned long kmem_cache_pages(const struct kmem_cache *s)
{
	return ((s->nr_slabs - s->fallback_slabs) << s->order) +
	       (s->fallback_slabs << s->min_order);
}
/* Host memory only: the cache must hold no objects, or the machine is going away. */
void kmem_cache_destroy(struct kmem_cache *s);
/* 0 if the cache's counts agree with its slabs (for the invariant tests), else -1 and a
 * message on stderr. */
int kmem_cache_check(const struct kmem_cache *s);
/* kmem_cache_check over every cache initialised and not yet destroyed (the invariant
 * checker's hook). */
int kmem_caches_check(void);
/* The machine is going away: no cache is checked again until initialised anew (a cache
 * not destroyed keeps its host memory until kmem_cache_destroy). */
void kmem_caches_forget(void);

#endif
