#include "trace/pagemap.h"
#include "sim/xalloc.h"

#include <stdlib.h>
#include <string.h>

static inline uint32_t hash(uint64_t page, uint32_t mask)
{
	/* Fibonacci hashing: the high bits of the product mix every bit of the key. */
	return (uint32_t)((page * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

void pagemap_init(struct pagemap *m)
{
	memset(m, 0, sizeof(*m));
	m->last_id = PAGEMAP_FAIL;
}

void pagemap_free(struct pagemap *m)
{
	free(m->slots);
	free(m->pages);
	pagemap_init(m);
}

static int grow_slots(struct pagemap *m)
{
	uint64_t nslots = m->mask ? ((uint64_t)m->mask + 1) * 2 : 1024;
	if (nslots > (1ull << 32))
		return -1;
	uint32_t *s = xcalloc(nslots, sizeof(*s));
	uint32_t mask = (uint32_t)(nslots - 1);
	for (uint32_t id = 0; id < m->n; id++) {
		uint32_t h = hash(m->pages[id], mask);
		while (s[h])
			h = (h + 1) & mask;
		s[h] = id + 1;
	}
	free(m->slots);
	m->slots = s;
	m->mask = mask;
	return 0;
}

uint32_t pagemap_find(const struct pagemap *m, uint64_t page)
{
	if (!m->mask)
		return PAGEMAP_FAIL;
	for (uint32_t h = hash(page, m->mask);; h = (h + 1) & m->mask) {
		uint32_t v = m->slots[h];
		if (!v)
			return PAGEMAP_FAIL;
		if (m->pages[v - 1] == page)
			return v - 1;
	}
}

static uint32_t lookup_insert(struct pagemap *m, uint64_t page, int *is_new);

static int grow_pages(struct pagemap *m)
{
	uint32_t nc = m->pcap ? m->pcap * 2 : 1024;
	if (m->n >= PAGEMAP_FAIL - 1)
		return -1;
	if (nc < m->pcap || nc >= PAGEMAP_FAIL)
		nc = PAGEMAP_FAIL - 1;
	uint64_t *p = xrealloc(m->pages, (size_t)nc * sizeof(*p));
	m->pages = p;
	m->pcap = nc;
	return 0;
}

uint32_t pagemap_append(struct pagemap *m, uint64_t page)
{
	if (m->n == m->pcap && grow_pages(m))
		return PAGEMAP_FAIL;
	m->pages[m->n] = page;
	return m->n++;
}

uint32_t pagemap_get(struct pagemap *m, uint64_t page, int *is_new)
{
	*is_new = 0;
	if (page == m->last_page && m->last_id != PAGEMAP_FAIL)
		return m->last_id;
	uint32_t id = lookup_insert(m, page, is_new);
	if (id != PAGEMAP_FAIL) {
		m->last_page = page;
		m->last_id = id;
	}
	return id;
}

static uint32_t lookup_insert(struct pagemap *m, uint64_t page, int *is_new)
{
	if (m->mask) {
		uint32_t h = hash(page, m->mask);
		for (;; h = (h + 1) & m->mask) {
			uint32_t v = m->slots[h];
			if (!v)
				break;
			if (m->pages[v - 1] == page)
				return v - 1;
		}
	}
	/* keep the load factor at or below 1/2 */
	if ((uint64_t)(m->n + 1) * 2 > (uint64_t)m->mask + 1) {
		if (grow_slots(m))
			return PAGEMAP_FAIL;
	}
	if (m->n == m->pcap && grow_pages(m))
		return PAGEMAP_FAIL;
	uint32_t h = hash(page, m->mask);
	while (m->slots[h])
		h = (h + 1) & m->mask;
	uint32_t id = m->n++;
	m->pages[id] = page;
	m->slots[h] = id + 1;
	*is_new = 1;
	return id;
}
