#include "mm/page_index.h"

#include "sim/xalloc.h"

#include <stdlib.h>
#include <string.h>

void page_index_init(struct address_space *f, uint64_t cap_pages)
{
	uint64_t n = (cap_pages + PAGE_INDEX_CHUNK - 1) >> PAGE_INDEX_SHIFT;
	f->index = xcalloc(n ? n : 1, sizeof(*f->index));
}

void page_index_free(struct address_space *f)
{
	uint64_t n = (f->cap_pages + PAGE_INDEX_CHUNK - 1) >> PAGE_INDEX_SHIFT;
	for (uint64_t k = 0; f->index && k < n; k++)
		free(f->index[k]);
	free(f->index);
	f->index = NULL;
}

struct page_index_chunk *page_index_chunk_get(struct address_space *f, uint64_t i)
{
	struct page_index_chunk **slot = &f->index[i >> PAGE_INDEX_SHIFT];
	if (!*slot) {
		struct page_index_chunk *c = xmalloc(sizeof(*c));
		for (uint32_t k = 0; k < PAGE_INDEX_CHUNK; k++)
			c->page[k] = NO_PFN;
		memset(c->shadow, 0, sizeof(c->shadow));
		*slot = c;
	}
	return *slot;
}
