/* Doubly linked lists of frames through page->next/prev: LRU lists, free lists and a
 * reclaimer's private list all use the same two links, as the kernel's page->lru does.
 * Inline: reclaim past a memory cliff spends a fifth of the host's time here. Included by
 * mm.h after pfn_to_page. */
#ifndef MMSIM_MM_PAGELIST_H
#define MMSIM_MM_PAGELIST_H

static inline void pagelist_init(struct pagelist *l)
{
	l->head = l->tail = NO_PFN;
	l->nr = 0;
}

static inline void pagelist_add(struct pagelist *l, pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	p->prev = NO_PFN;
	p->next = l->head;
	if (l->head != NO_PFN)
		pfn_to_page(l->head)->prev = pfn;
	else
		l->tail = pfn;
	l->head = pfn;
	l->nr++;
}

static inline void pagelist_add_tail(struct pagelist *l, pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	p->next = NO_PFN;
	p->prev = l->tail;
	if (l->tail != NO_PFN)
		pfn_to_page(l->tail)->next = pfn;
	else
		l->head = pfn;
	l->tail = pfn;
	l->nr++;
}

static inline void pagelist_del(struct pagelist *l, pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (p->prev != NO_PFN)
		pfn_to_page(p->prev)->next = p->next;
	else
		l->head = p->next;
	if (p->next != NO_PFN)
		pfn_to_page(p->next)->prev = p->prev;
	else
		l->tail = p->prev;
	p->next = p->prev = NO_PFN;
	l->nr--;
}

static inline pfn_t pagelist_pop_tail(struct pagelist *l)
{
	pfn_t pfn = l->tail;
	if (pfn != NO_PFN)
		pagelist_del(l, pfn);
	return pfn;
}

static inline void pagelist_move_to_head(struct pagelist *l, pfn_t pfn)
{
	pagelist_del(l, pfn);
	pagelist_add(l, pfn);
}

#endif
