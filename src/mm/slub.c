/* SLUB's slab lifecycle (2.6.25 mm/slub.c: slab_alloc/__slab_alloc, deactivate_slab,
 * unfreeze_slab, get_partial_node, __slab_free) over the page allocator, with each era's
 * calculate_order and 2.6.26's allocate_slab fallback (kernel-reclaim.md §1.16). The slab's state
 * lives in its first frame: `index` counts the objects in use, `private` says where the
 * slab is (frozen as a CPU's slab, on the partial list, or full and on no list), and
 * next/prev link the partial list. */
#include <stdio.h>
#include <stdlib.h>

#include "mm/slab.h"
#include "sim/xalloc.h"

#define MAX_CACHES 16

/* the live caches, for the invariant checker */
static struct kmem_cache *caches[MAX_CACHES];

static int fls_u(unsigned long x)
{
	int r = 0;
	while (x) {
		x >>= 1;
		r++;
	}
	return r;
}

/* slab_order: the first order from the one min_objects need up to max_order whose slab
 * wastes at most 1/fract_leftover; max_order + 1 if none. 2.6.26 on: a page holding more
 * than MAX_OBJS_PER_PAGE (65535, page->objects is 16 bits) takes the order just below. */
static int slab_order(unsigned long size, int min_objects, int max_order, int fract_leftover,
		      unsigned page_shift, bool objs_cap)
{
	if (objs_cap && (((unsigned long)1 << page_shift) / size) > 65535)
		return (int)get_order(size * 65535, page_shift) - 1;
	int order = fls_u((unsigned long)min_objects * size - 1) - (int)page_shift;
	if (order < 0)
		order = 0; /* slub_min_order */
	for (; order <= max_order; order++) {
		unsigned long slab_size = (unsigned long)1 << (page_shift + order);
		if (slab_size < (unsigned long)min_objects * size)
			continue;
		if (slab_size % size <= slab_size / (unsigned long)fract_leftover)
			break;
	}
	return order;
}

unsigned slub_calculate_order(uint32_t size, unsigned page_shift, int nr_cpus, int rule,
			      int max_order, int min_objects)
{
	bool r2625 = rule == SLUB_ORDER_2625;
	if (max_order < 0) /* DEFAULT_MAX_ORDER (2.6.25), PAGE_ALLOC_COSTLY_ORDER after */
		max_order = !r2625 ? PAGE_ALLOC_COSTLY_ORDER : page_shift <= 12 ? 1 : 2;
	if (!min_objects) /* DEFAULT_MIN_OBJECTS (2.6.25); from the CPUs after */
		min_objects =
		    r2625 ? (page_shift <= 12 ? 4 : 8) : 4 * (fls_u((unsigned)nr_cpus) + 1);
	if (rule == SLUB_ORDER_2630) {
		int max_objects =
		    (int)(((unsigned long)1 << (page_shift + (unsigned)max_order)) / size);
		if (min_objects > max_objects)
			min_objects = max_objects;
	}
	while (min_objects > 1) {
		for (int fraction = r2625 ? 8 : 16; fraction >= 4; fraction /= 2) {
			int order =
			    slab_order(size, min_objects, max_order, fraction, page_shift, !r2625);
			if (order <= max_order)
				return (unsigned)order;
		}
		if (rule == SLUB_ORDER_2630)
			min_objects--;
		else
			min_objects /= 2;
	}
	int order = slab_order(size, 1, max_order, 1, page_shift, !r2625);
	if (order <= max_order)
		return (unsigned)order;
	return (unsigned)slab_order(size, 1, MAX_ORDER - 1, 1, page_shift, !r2625);
}

void kmem_cache_init(struct kmem_cache *s, const char *name, uint32_t size, enum page_owner owner)
{
	/* calculate_sizes: size = ALIGN(size, sizeof(void *)), so a slab of the biggest pages
	 * never holds more than MAX_OBJS_PER_PAGE objects (slab_order's cap) */
	uint32_t word = hw_word_bytes(MM->hw);
	size = size ? (size + word - 1) / word * word : word;
	*s = (struct kmem_cache){.name = name, .size = size, .owner = owner};
	const struct vm_sysctl *v = &MM->sysctl;
	s->order = slub_calculate_order(s->size, MM->page_shift, sched_ncpus(), v->slub_order_rule,
					v->slub_max_order, v->slub_min_objects);
	s->objects = (uint32_t)((MM->page_size << s->order) / s->size);
	if (!s->objects)
		s->objects = 1;
	/* s->min: the object's own order, which a failed slab allocation falls back to
	 * (allocate_slab, 2.6.26 on) */
	s->min_order =
	    v->slub_order_rule == SLUB_ORDER_2625 ? s->order : get_order(s->size, MM->page_shift);
	s->min_objects = (uint32_t)((MM->page_size << s->min_order) / s->size);
	if (!s->min_objects)
		s->min_objects = 1;
	if (s->min_objects == s->objects) /* a slab's object count tells its order */
		s->min_order = s->order;
	pagelist_init(&s->partial);
	s->cpu_slab = xmalloc((size_t)sched_ncpus() * sizeof(*s->cpu_slab));
	for (int c = 0; c < sched_ncpus(); c++)
		s->cpu_slab[c] = NO_PFN;
	int free_slot = -1;
	for (int i = 0; i < MAX_CACHES; i++) {
		if (caches[i] == s)
			return;
		if (!caches[i] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0) {
		fprintf(stderr, "mmsim: more than %d slab caches\n", MAX_CACHES);
		abort();
	}
	caches[free_slot] = s;
}

/* __free_slab: a reclaimer freeing slab pages counts them as reclaimed. */
static void discard_slab(struct kmem_cache *s, pfn_t slab)
{
	struct page *p = pfn_to_page(slab);
	bool fallback = slab_objects(p) != s->objects;
	unsigned order = fallback ? s->min_order : s->order;
	if (current && current->reclaim_state)
		current->reclaim_state->reclaimed_slab += 1ul << order;
	s->fallback_slabs -= fallback;
	p->rmap = 0;
	s->nr_slabs--;
	free_kernel_pages(slab, order);
}

/* The kernel's add_partial(n, page, tail): tail for a slab that just had an object freed,
 * head for a CPU slab given back with objects free. get_partial takes from the head. */
static void add_partial(struct kmem_cache *s, pfn_t slab, bool tail)
{
	pfn_to_page(slab)->private = SLAB_PARTIAL;
	if (tail)
		pagelist_add(&s->partial, slab);
	else
		pagelist_add_tail(&s->partial, slab);
}

/* deactivate_slab + unfreeze_slab: the CPU lets its slab go. A full one joins no list; one
 * with objects still on the CPU's freelist goes to the head of the partial list (tail = 0);
 * an empty one stays on the partial list while that holds fewer than MIN_PARTIAL slabs. */
static void deactivate_slab(struct kmem_cache *s, pfn_t slab)
{
	struct page *p = pfn_to_page(slab);
	if (p->index == slab_objects(p)) {
		p->private = SLAB_FULL;
	} else if (p->index) {
		add_partial(s, slab, false);
	} else if (s->partial.nr < SLUB_MIN_PARTIAL) {
		add_partial(s, slab, true);
	} else {
		discard_slab(s, slab);
	}
}

/* allocate_slab: 2.6.26 on, a slab of s->order is asked for without retrying
 * (__GFP_NORETRY: one pass of direct reclaim at most) and, failing that, one of the
 * object's own order as the caller asked; the slab records how many objects it holds. */
static pfn_t allocate_slab(struct kmem_cache *s, unsigned gfp)
{
	bool fallback = s->min_order != s->order;
	pfn_t slab = alloc_kernel_pages(s->owner, fallback ? gfp | __GFP_NORETRY : gfp, s->order);
	uint32_t objects = s->objects;
	if (slab == NO_PFN && fallback) {
		slab = alloc_kernel_pages(s->owner, gfp, s->min_order);
		objects = s->min_objects;
		if (slab != NO_PFN)
			s->fallback_slabs++;
	}
	if (slab == NO_PFN)
		return NO_PFN;
	pfn_to_page(slab)->rmap = objects;
	return slab;
}

pfn_t kmem_cache_alloc_slow(struct kmem_cache *s, unsigned gfp)
{
	int cpu = this_cpu();
	pfn_t slab = s->cpu_slab[cpu];
	if (slab != NO_PFN && pfn_to_page(slab)->index < slab_objects(pfn_to_page(slab)))
		goto got;
	/* another_slab: the CPU's slab is full; take the first partial slab, else a new one */
	if (slab != NO_PFN) {
		deactivate_slab(s, slab);
		s->cpu_slab[cpu] = NO_PFN;
	}
	slab = pagelist_pop_tail(&s->partial);
	if (slab == NO_PFN) {
		slab = allocate_slab(s, gfp);
		if (slab == NO_PFN)
			return NO_PFN;
		struct page *p = pfn_to_page(slab);
		p->index = 0;
		p->next = p->prev = NO_PFN;
		s->nr_slabs++;
		if (s->nr_slabs > s->peak_slabs)
			s->peak_slabs = s->nr_slabs;
		/* the allocation may have slept: whatever slab this CPU took meanwhile is
		 * flushed and the new one installed (new_slab's flush_slab) */
		cpu = this_cpu();
		if (s->cpu_slab[cpu] != NO_PFN)
			deactivate_slab(s, s->cpu_slab[cpu]);
	}
	pfn_to_page(slab)->private = SLAB_FROZEN;
	s->cpu_slab[cpu] = slab;
got:
	pfn_to_page(slab)->index++;
	s->nr_objects++;
	return slab;
}

void kmem_cache_free_slow(struct kmem_cache *s, pfn_t slab)
{
	struct page *p = pfn_to_page(slab);
	if (!p->index || !(p->flags & PG_slab)) {
		fprintf(stderr, "mmsim: kmem_cache %s: free into slab %u holding no object\n",
			s->name, slab);
		abort();
	}
	bool was_full = p->private == SLAB_FULL;
	p->index--;
	s->nr_objects--;
	if (p->private == SLAB_FROZEN)
		return;
	if (!p->index) { /* slab_empty: off the partial list and back to the page allocator */
		if (!was_full)
			pagelist_del(&s->partial, slab);
		discard_slab(s, slab);
		return;
	}
	if (was_full)
		add_partial(s, slab, true);
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	free(s->cpu_slab);
	s->cpu_slab = NULL;
	for (int i = 0; i < MAX_CACHES; i++)
		if (caches[i] == s)
			caches[i] = NULL;
}

void kmem_caches_forget(void)
{
	for (int i = 0; i < MAX_CACHES; i++)
		caches[i] = NULL;
}

int kmem_caches_check(void)
{
	for (int i = 0; i < MAX_CACHES; i++)
		if (caches[i] && kmem_cache_check(caches[i]))
			return -1;
	return 0;
}

/* A slab's own count is one of the two its cache makes. */
static bool slab_holds(const struct kmem_cache *s, const struct page *p)
{
	return slab_objects(p) == s->objects || slab_objects(p) == s->min_objects;
}

int kmem_cache_check(const struct kmem_cache *s)
{
	unsigned long objects = 0, frozen = 0, walked = 0, listed_capacity = 0;
	for (pfn_t pfn = s->partial.head; pfn != NO_PFN; pfn = pfn_to_page(pfn)->next) {
		if (++walked > s->partial.nr) {
			fprintf(stderr, "kmem_cache %s: partial list longer than its count %lu\n",
				s->name, s->partial.nr);
			return -1;
		}
		const struct page *p = pfn_to_page(pfn);
		if (p->private != SLAB_PARTIAL || p->index >= slab_objects(p) ||
		    !(p->flags & PG_slab) || !slab_holds(s, p)) {
			fprintf(stderr,
				"kmem_cache %s: partial slab %u: state %u, %u of %u in use\n",
				s->name, pfn, p->private, p->index, slab_objects(p));
			return -1;
		}
		objects += p->index;
		listed_capacity += slab_objects(p);
	}
	for (int c = 0; c < sched_ncpus(); c++) {
		pfn_t pfn = s->cpu_slab[c];
		if (pfn == NO_PFN)
			continue;
		const struct page *p = pfn_to_page(pfn);
		if (p->private != SLAB_FROZEN || p->index > slab_objects(p) || !slab_holds(s, p)) {
			fprintf(stderr, "kmem_cache %s: cpu %d slab %u: state %u, %u in use\n",
				s->name, c, pfn, p->private, p->index);
			return -1;
		}
		objects += p->index;
		listed_capacity += slab_objects(p);
		frozen++;
	}
	/* the full slabs are on no list: they account for what is left, whole */
	if (s->nr_slabs < s->partial.nr + frozen) {
		fprintf(stderr, "kmem_cache %s: %lu slabs, %lu partial and %lu frozen\n", s->name,
			s->nr_slabs, s->partial.nr, frozen);
		return -1;
	}
	/* every slab holds s->objects, or s->min_objects if it is a fallback */
	unsigned long capacity =
	    (s->nr_slabs - s->fallback_slabs) * s->objects + s->fallback_slabs * s->min_objects;
	if (s->fallback_slabs > s->nr_slabs || listed_capacity > capacity) {
		fprintf(stderr,
			"kmem_cache %s: %lu slabs (%lu fallback) of %u and %u objects, capacity "
			"%lu (%lu on lists)\n",
			s->name, s->nr_slabs, s->fallback_slabs, s->objects, s->min_objects,
			capacity, listed_capacity);
		return -1;
	}
	unsigned long full = capacity - listed_capacity;
	if (objects + full != s->nr_objects) {
		fprintf(stderr,
			"kmem_cache %s: %lu slabs (%lu partial, %lu frozen) hold %lu + %lu full "
			"objects, cache counts %lu\n",
			s->name, s->nr_slabs, s->partial.nr, frozen, objects, full, s->nr_objects);
		return -1;
	}
	return 0;
}
