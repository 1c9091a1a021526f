/* SLUB's slab lifecycle (2.6.25 mm/slub.c: slab_alloc/__slab_alloc, deactivate_slab,
 * unfreeze_slab, get_partial_node, __slab_free) over the page allocator. The slab's state
 * lives in its first frame: `index` counts the objects in use, `private` says where the
 * slab is (frozen as a CPU's slab, on the partial list, or full and on no list), and
 * next/prev link the partial list. */
#include <stdio.h>
#include <stdlib.h>

#include "mm/slab.h"
#include "sim/xalloc.h"

#define SLUB_MIN_OBJECTS 4
#define MAX_CACHES	 16

/* the live caches, for the invariant checker */
static struct kmem_cache *caches[MAX_CACHES];

void kmem_cache_init(struct kmem_cache *s, const char *name, uint32_t size, enum page_owner owner)
{
	*s = (struct kmem_cache){.name = name, .size = size ? size : 1, .owner = owner};
	unsigned order = 0;
	while (order < PAGE_ALLOC_COSTLY_ORDER &&
	       ((MM->page_size << order) / s->size) < SLUB_MIN_OBJECTS)
		order++;
	s->order = order;
	s->objects = (uint32_t)((MM->page_size << order) / s->size);
	if (!s->objects)
		s->objects = 1;
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
	if (current && current->reclaim_state)
		current->reclaim_state->reclaimed_slab += 1ul << s->order;
	s->nr_slabs--;
	free_kernel_pages(slab, s->order);
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
	if (p->index == s->objects) {
		p->private = SLAB_FULL;
	} else if (p->index) {
		add_partial(s, slab, false);
	} else if (s->partial.nr < SLUB_MIN_PARTIAL) {
		add_partial(s, slab, true);
	} else {
		discard_slab(s, slab);
	}
}

pfn_t kmem_cache_alloc_slow(struct kmem_cache *s, unsigned gfp)
{
	int cpu = this_cpu();
	pfn_t slab = s->cpu_slab[cpu];
	if (slab != NO_PFN && pfn_to_page(slab)->index < s->objects)
		goto got;
	/* another_slab: the CPU's slab is full; take the first partial slab, else a new one */
	if (slab != NO_PFN) {
		deactivate_slab(s, slab);
		s->cpu_slab[cpu] = NO_PFN;
	}
	slab = pagelist_pop_tail(&s->partial);
	if (slab == NO_PFN) {
		slab = alloc_kernel_pages(s->owner, gfp, s->order);
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

int kmem_cache_check(const struct kmem_cache *s)
{
	unsigned long objects = 0, frozen = 0, walked = 0;
	for (pfn_t pfn = s->partial.head; pfn != NO_PFN; pfn = pfn_to_page(pfn)->next) {
		if (++walked > s->partial.nr) {
			fprintf(stderr, "kmem_cache %s: partial list longer than its count %lu\n",
				s->name, s->partial.nr);
			return -1;
		}
		const struct page *p = pfn_to_page(pfn);
		if (p->private != SLAB_PARTIAL || p->index >= s->objects || !(p->flags & PG_slab)) {
			fprintf(stderr,
				"kmem_cache %s: partial slab %u: state %u, %u of %u in use\n",
				s->name, pfn, p->private, p->index, s->objects);
			return -1;
		}
		objects += p->index;
	}
	for (int c = 0; c < sched_ncpus(); c++) {
		pfn_t pfn = s->cpu_slab[c];
		if (pfn == NO_PFN)
			continue;
		const struct page *p = pfn_to_page(pfn);
		if (p->private != SLAB_FROZEN || p->index > s->objects) {
			fprintf(stderr, "kmem_cache %s: cpu %d slab %u: state %u, %u in use\n",
				s->name, c, pfn, p->private, p->index);
			return -1;
		}
		objects += p->index;
		frozen++;
	}
	/* the full slabs are on no list: they account for what is left, whole */
	if (s->nr_slabs < s->partial.nr + frozen) {
		fprintf(stderr, "kmem_cache %s: %lu slabs, %lu partial and %lu frozen\n", s->name,
			s->nr_slabs, s->partial.nr, frozen);
		return -1;
	}
	unsigned long full = s->nr_slabs - s->partial.nr - frozen;
	if (objects + full * s->objects != s->nr_objects) {
		fprintf(stderr,
			"kmem_cache %s: %lu slabs (%lu partial, %lu frozen) hold %lu + %lu full "
			"objects, cache counts %lu\n",
			s->name, s->nr_slabs, s->partial.nr, frozen, objects, full * s->objects,
			s->nr_objects);
		return -1;
	}
	return 0;
}
