/* page_index: an address_space's page cache index, offset -> frame, with the simulator's
 * shadow bits per page (FILE_SHADOW_*), standing in for the kernel's radix tree.
 *
 * Sparse, as the radix tree is: the index is cut into chunks of PAGE_INDEX_CHUNK pages, and a
 * chunk is allocated when a page of its range first enters the cache or its shadow is first
 * written. A file therefore costs host memory in proportion to the part of it ever cached
 * (a pointer per chunk for the rest), not to its size. Lookups are O(1) and never allocate;
 * a store allocates at most once per chunk, and chunks live as long as the file (their
 * shadow bits outlive the pages). Every offset passed must be below the file's cap_pages. */
#ifndef MMSIM_MM_PAGE_INDEX_H
#define MMSIM_MM_PAGE_INDEX_H

#include "mm/mm_types.h"

#define PAGE_INDEX_SHIFT 9
#define PAGE_INDEX_CHUNK (1u << PAGE_INDEX_SHIFT)
#define PAGE_INDEX_MASK	 (PAGE_INDEX_CHUNK - 1)

struct page_index_chunk {
	pfn_t page[PAGE_INDEX_CHUNK];
	uint8_t shadow[PAGE_INDEX_CHUNK];
};

/* Sets up an empty index for cap_pages pages; page_index_free releases it. */
void page_index_init(struct address_space *f, uint64_t cap_pages);
void page_index_free(struct address_space *f);
/* The chunk holding offset i, allocated (empty) if it was not there. */
struct page_index_chunk *page_index_chunk_get(struct address_space *f, uint64_t i);

/* The frame caching offset i, or NO_PFN. */
static inline pfn_t page_index_lookup(const struct address_space *f, uint64_t i)
{
	const struct page_index_chunk *c = f->index[i >> PAGE_INDEX_SHIFT];
	return c ? c->page[i & PAGE_INDEX_MASK] : NO_PFN;
}

static inline void page_index_store(struct address_space *f, uint64_t i, pfn_t pfn)
{
	struct page_index_chunk *c = f->index[i >> PAGE_INDEX_SHIFT];
	if (!c) {
		if (pfn == NO_PFN)
			return;
		c = page_index_chunk_get(f, i);
	}
	c->page[i & PAGE_INDEX_MASK] = pfn;
}

/* Offset i's shadow bits (0 where nothing was ever cached). */
static inline uint8_t page_index_shadow(const struct address_space *f, uint64_t i)
{
	const struct page_index_chunk *c = f->index[i >> PAGE_INDEX_SHIFT];
	return c ? c->shadow[i & PAGE_INDEX_MASK] : 0;
}

/* Offset i's shadow bits, to be written: stable for the file's life. */
static inline uint8_t *page_index_shadow_slot(struct address_space *f, uint64_t i)
{
	struct page_index_chunk *c = f->index[i >> PAGE_INDEX_SHIFT];
	if (!c)
		c = page_index_chunk_get(f, i);
	return &c->shadow[i & PAGE_INDEX_MASK];
}

/* The first offset at or after i that may hold a page (i itself if its chunk exists, else
 * the start of the next chunk that does); cap_pages if none. For walks over the index that
 * look only at cached pages. */
static inline uint64_t page_index_next(const struct address_space *f, uint64_t i)
{
	while (i < f->cap_pages && !f->index[i >> PAGE_INDEX_SHIFT])
		i = ((i >> PAGE_INDEX_SHIFT) + 1) << PAGE_INDEX_SHIFT;
	return i < f->cap_pages ? i : f->cap_pages;
}

#endif
