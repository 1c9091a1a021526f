/* Address spaces, VMAs, page tables and page faults: anonymous, file, swap and
 * copy-on-write (mm/memory.c and mm/mmap.c of the kernel, at the level the reclaim model
 * needs). PTEs are a flat array per VMA. Page-table pages are the kernel's: one per aligned
 * span of page_size / pte_bytes PTEs of the address space, allocated at the first fault in
 * the span (__pte_alloc) and shared by every VMA that reaches into it, freed when the last
 * such VMA goes (free_pgtables keeps a page a neighbour still uses). Mappings are placed
 * as the profile's kernel places them (exec's text, brk, the mmap area, the stack), so
 * which of them share a page-table page is the kernel's too. The levels above are a fixed
 * number of pages per address space (hw_profile.pt_upper_pages), allocated with it as
 * pgd_alloc and the first pud/pmd allocations would be. */
#include "mm/filemap.h"
#include "mm/mm.h"
#include "mm/policy/policy.h"
#include "mm/shmem.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void layout_init(struct mm_struct *mm)
{
	const struct hw_profile *hw = MM->hw;
	unsigned sh = MM->page_shift;
	mm->area_next[MAP_AREA_TEXT] = hw->elf_text_base >> sh;
	mm->area_next[MAP_AREA_BRK] = hw->elf_data_base >> sh; /* 0: after the text */
	mm->area_next[MAP_AREA_MMAP] = hw->mmap_base >> sh;
	mm->area_next[MAP_AREA_STACK] = hw->stack_top >> sh;
}

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = xcalloc(1, sizeof(*mm));
	layout_init(mm);
	mm->users = 1;
	mm->id = ++MM->nr_mms;
	mm->vma_gen = ++MM->vma_seq; /* never 0: an unfound touch set (gen 0) matches no mm */
	mm->all_next = MM->all_mms;
	if (MM->all_mms)
		MM->all_mms->all_prev = mm;
	MM->all_mms = mm;
	/* pgd_alloc and the upper levels: GFP_KERNEL, so this may reclaim. A failure (the
	 * caller was OOM-killed meanwhile) leaves the mm with fewer pages, nothing worse. */
	unsigned pgd_order = MM->hw->pgd_order;
	mm->pgd = alloc_kernel_pages(OWNER_PAGETABLE, GFP_KERNEL, pgd_order);
	int n = (int)MM->hw->pt_upper_pages - (1 << pgd_order);
	if (n > (int)(sizeof(mm->upper_pt) / sizeof(mm->upper_pt[0])))
		n = (int)(sizeof(mm->upper_pt) / sizeof(mm->upper_pt[0]));
	for (int i = 0; i < n; i++) {
		pfn_t pt = alloc_kernel_page(OWNER_PAGETABLE, GFP_KERNEL);
		if (pt == NO_PFN)
			break;
		mm->upper_pt[mm->nr_upper_pt++] = pt;
	}
	return mm;
}

static uint32_t vma_id_alloc(struct vm_area_struct *vma)
{
	if (MM->nr_vma_free) {
		uint32_t id = MM->vma_free_ids[--MM->nr_vma_free];
		MM->vmas[id] = vma;
		return id;
	}
	if (MM->nr_vmas == MM->vma_cap) {
		MM->vma_cap = MM->vma_cap ? MM->vma_cap * 2 : 256;
		MM->vmas = xrealloc(MM->vmas, MM->vma_cap * sizeof(*MM->vmas));
		MM->vma_free_ids = xrealloc(MM->vma_free_ids, MM->vma_cap * sizeof(uint32_t));
		if (MM->nr_vmas == 0)
			MM->vmas[MM->nr_vmas++] = NULL; /* id 0 is never used */
	}
	MM->vmas[MM->nr_vmas] = vma;
	return MM->nr_vmas++;
}

static void vma_id_free(uint32_t id)
{
	MM->vmas[id] = NULL;
	MM->vma_free_ids[MM->nr_vma_free++] = id;
}

/* The number of VMAs of mm that start at or before vpn: where a VMA starting just past vpn
 * goes in the index. */
static uint32_t vma_index_upper(const struct mm_struct *mm, uint64_t vpn)
{
	uint32_t lo = 0, hi = mm->map_count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (mm->vma_index[mid].start <= vpn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void vma_index_insert(struct mm_struct *mm, struct vm_area_struct *vma)
{
	if (mm->map_count == mm->vma_index_cap) {
		mm->vma_index_cap = mm->vma_index_cap ? mm->vma_index_cap * 2 : 8;
		mm->vma_index =
		    xreallocarray(mm->vma_index, mm->vma_index_cap, sizeof(*mm->vma_index));
	}
	uint32_t i = vma_index_upper(mm, vma->start);
	memmove(&mm->vma_index[i + 1], &mm->vma_index[i],
		(mm->map_count - i) * sizeof(*mm->vma_index));
	mm->vma_index[i] = (struct vma_range){
	    .start = vma->start, .end = vma->start + vma->npages, .vma = vma, .pte = vma->pte};
	mm->map_count++;
	mm->vma_gen = ++MM->vma_seq;
}

static void vma_index_remove(struct mm_struct *mm, struct vm_area_struct *vma)
{
	for (int c = 0; c < MMAP_CACHE_SIZE; c++)
		if (mm->mmap_cache[c].vma == vma)
			mm->mmap_cache[c] = (struct vma_range){0};
	uint32_t i = vma_index_upper(mm, vma->start) - 1;
	memmove(&mm->vma_index[i], &mm->vma_index[i + 1],
		(mm->map_count - i - 1) * sizeof(*mm->vma_index));
	mm->map_count--;
	mm->vma_gen = ++MM->vma_seq;
}

/* file_ra_state_init for a new open, or the parent's state for a fork's copy */
static struct file_ra_state *file_ra_get(struct file_ra_state *shared)
{
	if (shared) {
		shared->users++;
		return shared;
	}
	struct file_ra_state *ra = xcalloc(1, sizeof(*ra));
	ra->prev_index = UINT64_MAX;
	ra->users = 1;
	return ra;
}

static void file_ra_put(struct file_ra_state *ra)
{
	if (ra && --ra->users == 0)
		free(ra);
}

static struct vm_area_struct *vma_new(struct mm_struct *mm, uint64_t start, uint64_t npages,
				      unsigned flags, struct address_space *file, uint64_t pgoff,
				      struct file_ra_state *shared_ra)
{
	struct vm_area_struct *vma = xcalloc(1, sizeof(*vma));
	uint64_t chunks = vma_pt_spans(start, npages);
	vma->pte = xcalloc(npages ? npages : 1, sizeof(uint32_t));
	vma->rmap = xcalloc(npages ? npages : 1, sizeof(uint32_t));
	vma->ptpage = xmalloc(chunks * sizeof(pfn_t));
	for (uint64_t i = 0; i < chunks; i++)
		vma->ptpage[i] = NO_PFN;
	vma->mm = mm;
	vma->start = start;
	vma->npages = npages;
	vma->flags = flags;
	if (flags & VM_LOCKED)
		MM->nr_locked_vmas++;
	vma->file = file;
	vma->ra = file ? file_ra_get(shared_ra) : NULL;
	vma->pgoff = pgoff;
	vma->id = vma_id_alloc(vma);
	if (file)
		file->nr_mapped_vmas++;
	/* mm->mmap in address order, as the kernel keeps it: fork's copy and exit's unmap walk
	 * it, so pages are copied and freed in the kernel's order. */
	struct vm_area_struct **link = &mm->mmap;
	while (*link && (*link)->start < start)
		link = &(*link)->next;
	vma->next = *link;
	*link = vma;
	vma_index_insert(mm, vma);
	mm->total_vm += npages;
	return vma;
}

int touch_page_slow(struct mm_struct *mm, uint64_t vpn, int kind)
{
	struct vm_area_struct *vma = find_vma(mm, vpn);
	if (!vma)
		return -1;
	uint32_t *pte = &vma->pte[vpn - vma->start];
	uint32_t v = *pte;
	bool write = kind == TOUCH_WRITE;
	/* present, and writable for a write, needs no fault where the MMU sets young and dirty
	 * itself; where it has neither (pte_bits_emulated) an old or clean PTE faults too */
	bool hit =
	    (v & PTE_PRESENT) && !(write && (v & PTE_RDONLY)) &&
	    (!MM->hw->pte_bits_emulated || ((v & PTE_YOUNG) && !(write && !(v & PTE_DIRTY))));
	if (hit) {
		*pte = v | PTE_YOUNG | (write ? PTE_DIRTY : 0);
		cpu_work(MM->hw->touch_ns);
		return 0;
	}
	return handle_mm_fault(mm, vma, vpn, kind);
}

/* 2.6.28 find_vma: the mmap_cache, then the ordered structure, and the answer cached. Here
 * the answer is the VMA that holds vpn, or NULL. */
struct vm_area_struct *find_vma(struct mm_struct *mm, uint64_t vpn)
{
	struct vm_area_struct *v = mmap_cache_find(mm, vpn);
	if (v)
		return v;
	uint32_t i = vma_index_upper(mm, vpn); /* the first VMA that starts past vpn */
	if (i == 0 || vpn >= mm->vma_index[i - 1].end)
		return NULL;
	*mmap_cache_slot(mm, vpn) = mm->vma_index[i - 1];
	return mm->vma_index[i - 1].vma;
}

/* what the unused entries of a touch set point at */
static uint32_t touch_set_unused;

void touch_set_find(struct mm_struct *mm, struct touch_set *s)
{
	s->mm = NULL;
	s->gen = 0;
	for (uint32_t k = 0; k < TOUCH_SET_MAX; k++) {
		s->pte[k] = &touch_set_unused;
		s->fault_if[k] = 0;
	}
	for (uint32_t k = 0; k < s->n; k++) {
		uint32_t i = vma_index_upper(mm, s->vpn[k]);
		if (i == 0 || s->vpn[k] >= mm->vma_index[i - 1].end)
			return;
		s->pte[k] = &mm->vma_index[i - 1].pte[s->vpn[k] - mm->vma_index[i - 1].start];
		bool write = s->kind[k] == TOUCH_WRITE;
		s->fault_if[k] = PTE_PRESENT | PTE_YOUNG | (write ? PTE_DIRTY | PTE_RDONLY : 0);
	}
	s->mm = mm;
	s->gen = mm->vma_gen;
	s->ns = MM->hw->touch_ns * s->n;
}

/* Whether [start, start + npages) is free of VMAs and does not wrap around. */
static bool range_free(const struct mm_struct *mm, uint64_t start, uint64_t npages)
{
	uint64_t end = start + (npages ? npages : 1);
	if (end < start)
		return false;
	uint32_t i = vma_index_upper(mm, end - 1);
	return i == 0 || mm->vma_index[i - 1].end <= start;
}

uint64_t do_mmap_area(struct mm_struct *mm, enum map_area area, uint64_t npages, unsigned flags,
		      struct address_space *file, uint64_t pgoff)
{
	if (area == MAP_AREA_BRK && !mm->area_next[MAP_AREA_BRK])
		area = MAP_AREA_TEXT; /* data and brk follow the text */
	uint64_t n = npages ? npages : 1, start;
	bool down = area == MAP_AREA_STACK || (area == MAP_AREA_MMAP && MM->hw->mmap_topdown);
	start = down ? mm->area_next[area] - n : mm->area_next[area];
	if (!range_free(mm, start, n)) { /* also when start - n wrapped below 0 */
		/* the area ran into another: the kernel would fail the mmap (ENOMEM) or search
		 * the other way; the model's workloads cannot fail here, so the mapping goes
		 * one span above every other, outside the 32-bit layouts' reach */
		uint64_t top = mm->map_count ? mm->vma_index[mm->map_count - 1].end : 0;
		start = (pt_span(top) + 2) << MM->pte_shift;
	} else {
		mm->area_next[area] = down ? start : start + n;
	}
	vma_new(mm, start, npages, flags, file, pgoff, NULL);
	cpu_work_sys(MM->hw->syscall_ns);
	return start;
}

uint64_t do_mmap(struct mm_struct *mm, uint64_t npages, unsigned flags, struct address_space *file,
		 uint64_t pgoff)
{
	return do_mmap_area(mm, MAP_AREA_MMAP, npages, flags, file, pgoff);
}

/* A VMA of mm other than skip that reaches into the page-table span, and in *held the
 * page-table page those VMAs hold for it (NO_PFN if none does). The VMAs reaching a span
 * are neighbours in address order, a few at most. */
static struct vm_area_struct *span_neighbour(const struct mm_struct *mm, uint64_t span,
					     const struct vm_area_struct *skip, pfn_t *held)
{
	uint64_t first = span << MM->pte_shift, last = first + (1ull << MM->pte_shift) - 1;
	struct vm_area_struct *found = NULL;
	*held = NO_PFN;
	for (uint32_t k = vma_index_upper(mm, last); k-- > 0 && mm->vma_index[k].end > first;) {
		struct vm_area_struct *v = mm->vma_index[k].vma;
		if (v == skip)
			continue;
		found = found ? found : v;
		pfn_t pt = v->ptpage[span - pt_span(v->start)];
		if (pt != NO_PFN) {
			*held = pt;
			return v;
		}
	}
	return found;
}

/* Drops every PTE of the VMA and the page-table pages; frees pages nobody else holds. Each
 * PTE costs zap_pte_range's counted work (KPATH_ZAP_PTE_INSNS: a page that stays mapped
 * elsewhere); a swap entry's free_swap_and_cache is not counted and costs the same. */
static void zap_vma(struct vm_area_struct *vma)
{
	for (uint64_t off = 0; off < vma->npages; off++) {
		uint32_t v = vma->pte[off];
		if (!v)
			continue;
		vma->pte[off] = 0;
		cpu_work_sys(MM->hw->zap_pte_ns);
		if (v & PTE_PRESENT) {
			pfn_t pfn = v & PTE_PFN_MASK;
			struct page *p = pfn_to_page(pfn);
			if ((v & PTE_DIRTY) && !PageAnon(p))
				set_page_dirty(pfn);
			/* zap_pte_range: a file page unmapped through a young PTE keeps the
			 * reference as PG_referenced (SetPageReferenced, v2.6.21-v2.6.28), not a
			 * mark_page_accessed, so it is never activated here; up to 2.6.20 and
			 * from 2.6.29 it is marked accessed (zap_mark_accessed.c,
			 * unmap_mark_accessed.c) */
			if ((v & PTE_YOUNG) && !PageAnon(p) && !policy_zap_young_file(pfn))
				p->flags |= PG_referenced;
			page_remove_rmap(pfn, vma, off);
			/* free_pages_and_swap_cache -> free_swap_cache: the gather's reference
			 * and the cache's are the only ones left */
			if (PageAnon(p) && (p->flags & PG_swapcache) && trylock_page(pfn)) {
				remove_exclusive_swap_page_count(pfn, 0);
				unlock_page(pfn);
			}
			release_user_page(pfn);
		} else if (v & PTE_SWAP) {
			free_swap_and_cache(v & PTE_PFN_MASK);
		}
	}
	/* free_pgtables: a page-table page goes with the last VMA that reaches its span; one
	 * a neighbour still reaches stays, held now by that neighbour */
	uint64_t chunks = vma_pt_spans(vma->start, vma->npages);
	for (uint64_t c = 0; c < chunks; c++) {
		pfn_t pt = vma->ptpage[c];
		if (pt == NO_PFN)
			continue;
		vma->ptpage[c] = NO_PFN;
		uint64_t span = pt_span(vma->start) + c;
		pfn_t held;
		struct vm_area_struct *n = span_neighbour(vma->mm, span, vma, &held);
		if (n) {
			if (held == NO_PFN)
				n->ptpage[span - pt_span(n->start)] = pt;
			continue;
		}
		free_kernel_page(pt);
		vma->mm->nr_ptes--;
	}
}

/* Every change of VM_LOCKED goes through here, so the rmap walks know when to look. */
void vma_set_locked(struct vm_area_struct *vma, bool locked)
{
	if (!(vma->flags & VM_LOCKED) == !locked)
		return;
	if (locked) {
		vma->flags |= VM_LOCKED;
		MM->nr_locked_vmas++;
	} else {
		vma->flags &= ~VM_LOCKED;
		MM->nr_locked_vmas--;
	}
}

static void vma_free(struct vm_area_struct *vma)
{
	if (vma->flags & VM_LOCKED)
		MM->nr_locked_vmas--;
	if (vma->flags & VM_ACCOUNT) /* unmap_vmas' nr_accounted, given back by the caller */
		vm_unacct_memory(vm_commit_pages(vma->npages));
	if (vma->file)
		vma->file->nr_mapped_vmas--;
	if (mapping_is_shmem(vma->file))
		shmem_mapping_gone(vma->file);
	file_ra_put(vma->ra);
	vma->mm->total_vm -= vma->npages;
	vma_id_free(vma->id);
	free(vma->pte);
	free(vma->rmap);
	free(vma->ptpage);
	free(vma);
}

int do_munmap(struct mm_struct *mm, uint64_t start)
{
	struct vm_area_struct **link = &mm->mmap;
	while (*link && (*link)->start != start)
		link = &(*link)->next;
	struct vm_area_struct *vma = *link;
	if (!vma)
		return -1;
	*link = vma->next;
	vma_index_remove(mm, vma);
	zap_vma(vma);
	vma_free(vma);
	cpu_work_sys(MM->hw->syscall_ns);
	return 0;
}

void exit_mmap(struct mm_struct *mm)
{
	policy_mm_exit(mm, NULL); /* if the kernel layer has not handed it on already */
	while (mm->mmap) {
		struct vm_area_struct *vma = mm->mmap;
		mm->mmap = vma->next;
		vma_index_remove(mm, vma);
		zap_vma(vma);
		vma_free(vma);
	}
	free(mm->vma_index);
	mm->vma_index = NULL;
	while (mm->nr_upper_pt)
		free_kernel_page(mm->upper_pt[--mm->nr_upper_pt]);
	if (mm->pgd != NO_PFN)
		free_kernel_pages(mm->pgd, MM->hw->pgd_order);
	mm->pgd = NO_PFN;
	if (mm->all_prev)
		mm->all_prev->all_next = mm->all_next;
	else
		MM->all_mms = mm->all_next;
	if (mm->all_next)
		mm->all_next->all_prev = mm->all_prev;
	free(mm);
}

/* __pte_alloc: the page-table page of the span holding off, which a neighbouring VMA may
 * already have. false when memory could not be had. */
static bool pte_alloc(struct vm_area_struct *vma, uint64_t off)
{
	uint64_t c = vma_pt_index(vma, off), span = pt_span(vma->start + off);
	if (vma->ptpage[c] != NO_PFN)
		return true;
	pfn_t held;
	span_neighbour(vma->mm, span, vma, &held);
	if (held == NO_PFN) {
		pfn_t pt = alloc_kernel_page(OWNER_PAGETABLE, GFP_KERNEL);
		if (pt == NO_PFN)
			return false;
		/* another thread, or a neighbour's fault, may have filled it while we reclaimed */
		if (vma->ptpage[c] != NO_PFN) {
			free_kernel_page(pt);
			return true;
		}
		span_neighbour(vma->mm, span, vma, &held);
		if (held != NO_PFN) {
			free_kernel_page(pt);
		} else {
			held = pt;
			vma->mm->nr_ptes++;
		}
	}
	vma->ptpage[c] = held;
	return true;
}

static pfn_t alloc_user_page(unsigned gfp)
{
	pfn_t pfn = __alloc_pages(gfp, 0);
	if (pfn == NO_PFN)
		return NO_PFN;
	struct page *p = pfn_to_page(pfn);
	p->owner = OWNER_USER_NEW;
	MM->nr_user_new++;
	return pfn;
}

static void map_new_anon(struct vm_area_struct *vma, uint64_t off, pfn_t pfn, bool dirty)
{
	struct page *p = pfn_to_page(pfn);
	p->flags |= PG_swapbacked;
	p->mapping = 0;
	vma->anon_vma = true; /* anon_vma_prepare */
	page_add_rmap(pfn, vma, off);
	lru_cache_add_lru(pfn, LRU_ACTIVE_ANON); /* §1.3: anon faults enter the active list */
	vma->pte[off] = pfn | PTE_PRESENT | PTE_YOUNG | (dirty ? PTE_DIRTY : 0);
}

static int do_anonymous_page(struct vm_area_struct *vma, uint64_t off, int kind)
{
	pfn_t pfn = alloc_user_page(GFP_HIGHUSER_MOVABLE);
	if (pfn == NO_PFN)
		return -2;
	cpu_work_sys(MM->hw->page_zero_ns);
	if (vma->pte[off]) { /* another thread of this mm mapped it while we slept */
		release_user_page(pfn);
		return 0;
	}
	map_new_anon(vma, off, pfn, kind == TOUCH_WRITE);
	return 0;
}

bool vma_wants_writenotify(const struct vm_area_struct *vma)
{
	return MM->sysctl.mmap_writenotify &&
	       (vma->flags & (VM_WRITE | VM_SHARED)) == (VM_WRITE | VM_SHARED) && vma->file &&
	       !mapping_is_shmem(vma->file);
}

/* do_wp_page: a write to a write-protected (shared after fork) anonymous or private page.
 * 2.6.28 reuses an anonymous page when can_share_swap_page says the writer is its only user,
 * and keeps its swap slot (2.6.29's reuse_swap_page would free it). A shared writable
 * mapping's page (write-notify) is reused: made writable and dirty, the page dirtied with
 * set_page_dirty_balance once it is unlocked. */
static int do_wp_page(struct vm_area_struct *vma, uint64_t off)
{
	uint32_t v = vma->pte[off];
	pfn_t old = v & PTE_PFN_MASK;
	struct page *op = pfn_to_page(old);
	if ((vma->flags & (VM_WRITE | VM_SHARED)) == (VM_WRITE | VM_SHARED)) {
		/* the reuse: flush_cache_page, then update_mmu_cache's make_coherent */
		flush_cache_page(vma->mm);
		update_mmu_cache(vma->mm, old);
		vma->pte[off] = (v & ~PTE_RDONLY) | PTE_YOUNG | PTE_DIRTY;
		op->pins++;
		wait_on_page_locked(old);
		set_page_dirty_balance(old);
		op->pins--;
		return 0;
	}
	if (PageAnon(op) && can_share_swap_page(old)) {
		flush_cache_page(vma->mm);
		update_mmu_cache(vma->mm, old);
		vma->pte[off] = (v & ~PTE_RDONLY) | PTE_YOUNG | PTE_DIRTY;
		return 0;
	}
	op->pins++;
	pfn_t pfn = alloc_user_page(GFP_HIGHUSER_MOVABLE);
	op->pins--;
	if (pfn == NO_PFN) {
		release_user_page(old);
		return -2;
	}
	cpu_work_sys(MM->hw->page_copy_ns);
	if (vma->pte[off] != v) { /* changed while we slept: retry from the top */
		release_user_page(pfn);
		release_user_page(old);
		return 0;
	}
	flush_cache_page(vma->mm); /* the old page's, before ptep_clear_flush */
	page_remove_rmap(old, vma, off);
	release_user_page(old);
	map_new_anon(vma, off, pfn, true);
	return 0;
}

static int do_swap_page(struct vm_area_struct *vma, uint64_t off, int kind)
{
	uint32_t v = vma->pte[off];
	uint32_t slot = v & PTE_PFN_MASK;
	bool major = false;
	pfn_t pfn = lookup_swap_cache(slot);
	if (pfn == NO_PFN) {
		policy_call_all(before_swapin, vma->mm); /* contend before read-in (2.6.20) */
		pfn = swapin_readahead(slot, &major);
		if (pfn == NO_PFN)
			return vma->pte[off] != v ? 0 : -2;
		/* 2.6.9 and 2.6.28 count the major fault, and 2.6.9 grabs the token, as soon as
		 * the read is started, before waiting for it, whether or not the PTE then still
		 * holds the entry */
		count_vm_event(PGMAJFAULT);
		count_vm_event(MMSIM_MAJFAULT_ANON);
		if (current)
			current->maj_flt++;
		policy_call_all(swapin_major, vma->mm);
	}
	struct page *p = pfn_to_page(pfn);
	p->pins++;
	lock_page(pfn); /* waits for the read */
	p->pins--;
	if (vma->pte[off] != v || !(p->flags & PG_swapcache) || p->private != slot) {
		unlock_page(pfn);
		release_user_page(pfn);
		return 0;
	}
	mark_page_accessed(pfn);
	/* 2.6.28: a write fault the faulter alone can take maps the page dirty and writable and
	 * keeps the swap slot; otherwise the page is mapped with the private mapping's
	 * read-only protection, and a write goes on to do_wp_page */
	bool write = kind == TOUCH_WRITE && can_share_swap_page(pfn);
	vma->anon_vma = true;
	page_add_rmap(pfn, vma, off);
	vma->pte[off] = pfn | PTE_PRESENT | PTE_YOUNG | (write ? PTE_DIRTY : PTE_RDONLY);
	swap_free(slot);
	if (vm_swap_full() || (vma->flags & VM_LOCKED) || (p->flags & PG_mlocked))
		remove_exclusive_swap_page_count(pfn, 1);
	unlock_page(pfn);
	update_mmu_cache(vma->mm, pfn); /* still in the swap cache: swapper_space's */
	if (kind == TOUCH_WRITE && !write)
		return do_wp_page(vma, off);
	return 0;
}

static int map_file_page(struct vm_area_struct *vma, uint64_t off, int kind, pfn_t pfn);

/* A fault on a shmem object's mapping (shmem_fault): shmem_getpage has counted PGMAJFAULT
 * for a page it read from swap; the model counts that swap-in as an anonymous one. */
static int do_shmem_fault(struct vm_area_struct *vma, uint64_t off, pfn_t *pfn)
{
	bool major = false;
	int ret = shmem_fault(vma, vma->pgoff + off, pfn, &major);
	if (major) {
		count_vm_event(MMSIM_MAJFAULT_ANON);
		if (current)
			current->maj_flt++;
		/* no grab_swap_token: 2.6.28's shmem_getpage has none */
	}
	return ret;
}

static int do_file_fault(struct vm_area_struct *vma, uint64_t off, int kind)
{
	if (mapping_is_shmem(vma->file)) {
		pfn_t pfn = NO_PFN;
		int ret = do_shmem_fault(vma, off, &pfn);
		if (ret)
			return ret;
		return map_file_page(vma, off, kind, pfn);
	}
	bool major = false;
	uint8_t *shadow = page_index_shadow_slot(vma->file, vma->pgoff + off);
	bool evicted = *shadow & FILE_SHADOW_EVICTED;
	pfn_t pfn = filemap_fault(vma, vma->pgoff + off, &major);
	if (pfn == NO_PFN)
		return -2;
	*shadow |= FILE_SHADOW_FAULTED;
	if (major) {
		bool exec = vma->flags & VM_EXEC;
		count_vm_event(PGMAJFAULT);
		count_vm_event(exec ? MMSIM_MAJFAULT_EXEC : MMSIM_MAJFAULT_FILE);
		if (current)
			current->maj_flt++;
		if (evicted)
			count_vm_event(exec ? MMSIM_MAJFAULT_EXEC_REFAULT
					    : MMSIM_MAJFAULT_FILE_REFAULT);
	}
	return map_file_page(vma, off, kind, pfn);
}

/* __do_fault's end: a private mapping's write copies the page to an anonymous one; else the
 * page is mapped (read-only in a private mapping until written). */
static int map_file_page(struct vm_area_struct *vma, uint64_t off, int kind, pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (kind == TOUCH_WRITE && !(vma->flags & VM_SHARED)) {
		/* private file mapping written: copy to an anonymous page */
		p->pins++;
		pfn_t np = alloc_user_page(GFP_HIGHUSER_MOVABLE);
		p->pins--;
		if (np == NO_PFN)
			return -2;
		cpu_work_sys(MM->hw->page_copy_ns);
		if (vma->pte[off]) {
			release_user_page(np);
			return 0;
		}
		map_new_anon(vma, off, np, true);
		return 0;
	}
	if (vma->pte[off])
		return 0;
	page_add_rmap(pfn, vma, off);
	uint32_t pte = pfn | PTE_PRESENT | PTE_YOUNG;
	bool notify = vma_wants_writenotify(vma);
	if (kind == TOUCH_WRITE)
		pte |= PTE_DIRTY;
	else if (!(vma->flags & VM_SHARED) || notify)
		pte |= PTE_RDONLY;
	vma->pte[off] = pte;
	update_mmu_cache(vma->mm, pfn);
	/* __do_fault's dirty_page: a write fault on a shared mapping dirties the page */
	if (kind == TOUCH_WRITE && notify) {
		p->pins++;
		set_page_dirty_balance(pfn);
		p->pins--;
	}
	return 0;
}

int handle_mm_fault(struct mm_struct *mm, struct vm_area_struct *vma, uint64_t vpn, int kind)
{
	uint64_t off = vpn - vma->start;
	if ((kind == TOUCH_WRITE && !(vma->flags & VM_WRITE)) ||
	    (kind == TOUCH_EXEC && !(vma->flags & VM_EXEC)))
		return -1;
	count_vm_event(PGFAULT);
	/* a missing file page is looked up (filemap_fault: fault_ns, the counted file fault), a
	 * swap entry in the swap cache (do_swap_page: swap_fault_ns); an anonymous or COW fault
	 * is the fault without a lookup (anon_fault_ns, KPATH) */
	uint32_t v0 = vma->pte[off];
	bool swap = !(v0 & PTE_PRESENT) && (v0 & PTE_SWAP);
	bool lookup = !(v0 & PTE_PRESENT) && vma->file;
	/* a present PTE the access may use needs only its young or dirty bit: the MMU's
	 * emulation of them (pte_bits_emulated) took the fault, the KPATH old-PTE fault */
	bool mark = (v0 & PTE_PRESENT) && !(kind == TOUCH_WRITE && (v0 & PTE_RDONLY));
	cpu_work_sys(mark     ? MM->hw->pte_fault_ns
		     : swap   ? MM->hw->swap_fault_ns
		     : lookup ? MM->hw->fault_ns
			      : MM->hw->anon_fault_ns);
	mm->in_fault = true;
	struct task_struct *tsk = current;
	unsigned long majors = tsk ? tsk->maj_flt : 0;
	int ret = 0;
	if (!pte_alloc(vma, off)) {
		ret = -2;
		goto out;
	}
	uint32_t v = vma->pte[off];
	if (v & PTE_PRESENT) {
		if (kind == TOUCH_WRITE && (v & PTE_RDONLY))
			ret = do_wp_page(vma, off);
		else {
			vma->pte[off] = v | PTE_YOUNG | (kind == TOUCH_WRITE ? PTE_DIRTY : 0);
			update_mmu_cache(mm,
					 v & PTE_PFN_MASK); /* ptep_set_access_flags changed it */
		}
	} else if (v & PTE_SWAP) {
		ret = do_swap_page(vma, off, kind);
	} else if (vma->file) {
		ret = do_file_fault(vma, off, kind);
	} else {
		ret = do_anonymous_page(vma, off, kind);
	}
out:
	mm->in_fault = false;
	if (tsk && tsk->maj_flt == majors)
		tsk->min_flt++;
	cond_resched();
	return ret;
}

/* fork: the child gets copies of every VMA; in those with anonymous pages (anon_vma) private
 * writable pages become copy-on-write in both, swap entries gain a reference, page-table
 * pages are allocated for the child. */
struct mm_struct *dup_mm(struct mm_struct *old)
{
	struct mm_struct *mm = mm_alloc();
	memcpy(mm->area_next, old->area_next, sizeof(mm->area_next));
	mm->oomkilladj = old->oomkilladj;
	policy_mm_fork(old, mm);
	cpu_work_sys(MM->hw->fork_ns);
	for (struct vm_area_struct *ov = old->mmap; ov; ov = ov->next) {
		/* dup_mmap's security_vm_enough_memory: each VM_ACCOUNT mapping's copy is
		 * committed before it is made; a refusal undoes the copy so far (mmput) */
		if ((ov->flags & VM_ACCOUNT) && !vm_enough_memory(vm_commit_pages(ov->npages))) {
			exit_mmap(mm);
			return NULL;
		}
		struct vm_area_struct *nv =
		    vma_new(mm, ov->start, ov->npages, ov->flags, ov->file, ov->pgoff, ov->ra);
		nv->anon_vma = ov->anon_vma; /* anon_vma_link */
		/* copy_page_range: a VMA without anon_vma holds only file pages, which the
		 * child's faults map again (no VM_HUGETLB, VM_NONLINEAR, VM_PFNMAP or
		 * VM_INSERTPAGE VMAs exist in the model) */
		if (!ov->anon_vma)
			continue;
		bool cow = (ov->flags & VM_WRITE) && !(ov->flags & VM_SHARED);
		for (uint64_t off = 0; off < ov->npages; off++) {
			uint32_t v = ov->pte[off];
			if (!v)
				continue;
			if (nv->ptpage[vma_pt_index(nv, off)] == NO_PFN) {
				if (!pte_alloc(nv, off))
					continue; /* leave it unmapped: the child faults it later */
				v = ov->pte[off]; /* may have changed while we reclaimed */
				if (!v)
					continue;
			}
			cpu_work_sys(MM->hw->copy_pte_ns); /* copy_one_pte (KPATH) */
			if (v & PTE_PRESENT) {
				pfn_t pfn = v & PTE_PFN_MASK;
				if (cow && PageAnon(pfn_to_page(pfn))) {
					v |= PTE_RDONLY;
					ov->pte[off] |= PTE_RDONLY;
				}
				page_add_rmap(pfn, nv, off);
				nv->pte[off] = v & ~PTE_YOUNG;
			} else if (v & PTE_SWAP) {
				swap_duplicate(v & PTE_PFN_MASK);
				nv->pte[off] = v;
			}
		}
	}
	return mm;
}
