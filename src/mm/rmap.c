/* Reverse mapping: every PTE that maps a page is on the page's chain, so page_referenced
 * and try_to_unmap visit exactly the mappings (kernel-reclaim.md §1.4). The kernel walks
 * anon_vma / i_mmap VMAs instead; the PTEs visited, and their cost, are the same when every
 * VMA on the walk maps the page (docs/model.md). */
#include "mm/mm.h"
#include "sim/xalloc.h"

#include "mm/policy/policy.h"

#include <stdio.h>
#include <stdlib.h>

static uint32_t rmap_item_alloc(void)
{
	if (!MM->rmap_free) {
		uint32_t old = MM->rmap_cap;
		MM->rmap_cap *= 2;
		MM->rmap = xrealloc(MM->rmap, MM->rmap_cap * sizeof(*MM->rmap));
		for (uint32_t i = old; i < MM->rmap_cap; i++)
			MM->rmap[i].next = (i + 1 < MM->rmap_cap) ? i + 1 : 0;
		MM->rmap_free = old;
	}
	uint32_t i = MM->rmap_free;
	MM->rmap_free = MM->rmap[i].next;
	return i;
}

/* The new entry goes at the chain's head (the kernel's anon_vma and i_mmap order aside, the
 * newest mapping is visited first). */
void page_add_rmap(pfn_t pfn, struct vm_area_struct *vma, uint64_t off)
{
	struct page *p = pfn_to_page(pfn);
	uint32_t i = rmap_item_alloc();
	MM->rmap[i].vma = vma->id;
	MM->rmap[i].pte = &vma->pte[off];
	MM->rmap[i].next = p->rmap;
	MM->rmap[i].prev = 0;
	if (p->rmap)
		MM->rmap[p->rmap].prev = i;
	p->rmap = i;
	vma->rmap[off] = i;
	if (p->mapcount++ == 0)
		inc_zone_page_state(p, PageAnon(p) ? NR_ANON_PAGES : NR_FILE_MAPPED);
	if (PageAnon(p))
		vma->mm->rss_anon++;
	else
		vma->mm->rss_file++;
}

void page_remove_rmap(pfn_t pfn, struct vm_area_struct *vma, uint64_t off)
{
	struct page *p = pfn_to_page(pfn);
	uint32_t i = vma->rmap[off];
	struct rmap_item *it = &MM->rmap[i];
	if (!i || it->pte != &vma->pte[off] ||
	    (it->prev ? MM->rmap[it->prev].next : p->rmap) != i) {
		fprintf(stderr, "mmsim: BUG: rmap entry missing for pfn %u\n", pfn);
		abort();
	}
	if (it->prev)
		MM->rmap[it->prev].next = it->next;
	else
		p->rmap = it->next;
	if (it->next)
		MM->rmap[it->next].prev = it->prev;
	vma->rmap[off] = 0;
	it->next = MM->rmap_free;
	it->pte = NULL;
	MM->rmap_free = i;
	if (--p->mapcount == 0)
		dec_zone_page_state(p, PageAnon(p) ? NR_ANON_PAGES : NR_FILE_MAPPED);
	if (PageAnon(p))
		vma->mm->rss_anon--;
	else
		vma->mm->rss_file--;
}

bool page_mapping_inuse(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (page_mapped(p))
		return true;
	if (p->flags & PG_swapcache)
		return true;
	struct address_space *m = page_mapping(p);
	return m && m->nr_mapped_vmas > 0;
}

/* §1.4: +1 for PG_referenced, +1 per young PTE (cleared on the way); a VM_LOCKED mapping
 * ends the walk (2.6.28: without counting); the swap token adds +1 per busy holder. */
int page_referenced(pfn_t pfn, bool is_locked, unsigned long *vm_flags)
{
	(void)is_locked;
	struct page *p = pfn_to_page(pfn);
	int referenced = 0;
	if (vm_flags)
		*vm_flags = 0;
	if (p->flags & PG_referenced) {
		p->flags &= ~PG_referenced;
		referenced++;
	}
	if (!page_mapped(p))
		return referenced;
	/* Reclaim past a memory cliff calls this for every page it scans, nearly all mapped
	 * once: the walk touches a VMA only when it must (a young PTE, a locked VMA somewhere,
	 * the swap token), which saves a cache miss per page. */
	bool token = policy_hooked(page_referenced) && current;
	bool need_vma = MM->nr_locked_vmas || token;
	unsigned visited = 0;
	for (uint32_t i = p->rmap; i; i = MM->rmap[i].next) {
		struct rmap_item *it = &MM->rmap[i];
		visited++;
		if (need_vma) {
			struct vm_area_struct *vma = MM->vmas[it->vma];
			if (vma->flags & VM_LOCKED)
				break;
			if (token && vma->mm != current->mm && policy_page_referenced(vma->mm))
				referenced++;
		}
		if (*it->pte & PTE_YOUNG) {
			*it->pte &= ~PTE_YOUNG;
			referenced++;
			if (vm_flags)
				*vm_flags |= MM->vmas[it->vma]->flags;
		}
	}
	cpu_work_sys(visited * MM->hw->rmap_pte_ns);
	return referenced;
}

/* try_to_unmap (§1.4): each PTE becomes a swap entry (anon) or none (file); the dirty bit
 * moves to the page. A young PTE makes the unmap fail and the page is activated. */
int try_to_unmap(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	while (p->rmap) {
		struct rmap_item *it = &MM->rmap[p->rmap];
		struct vm_area_struct *vma = MM->vmas[it->vma];
		uint32_t *pte = it->pte;
		uint64_t off = (uint64_t)(pte - vma->pte);
		cpu_work_sys(MM->hw->rmap_pte_ns);
		if (vma->flags & VM_LOCKED)
			return SWAP_MLOCK;
		if (*pte & PTE_YOUNG) {
			*pte &= ~PTE_YOUNG;
			return SWAP_FAIL;
		}
		flush_cache_page(vma->mm); /* "Nuke the page table entry" */
		if (*pte & PTE_DIRTY)
			set_page_dirty(pfn);
		if (PageAnon(p)) {
			swap_duplicate(p->private);
			*pte = PTE_SWAP | p->private;
		} else {
			*pte = 0;
		}
		page_remove_rmap(pfn, vma, off);
	}
	return SWAP_SUCCESS;
}
