#include "trace/pagemap.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_BIT (1u << 31)
#define OFF(page) ((uint32_t)(page) & (PAGEMAP_CHUNK - 1))

static inline uint32_t hash(uint64_t chunk, uint32_t mask)
{
	/* Fibonacci hashing: the high bits of the product mix every bit of the key. */
	return (uint32_t)((chunk * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

void pagemap_init(struct pagemap *m)
{
	memset(m, 0, sizeof(*m));
	m->last_block = PAGEMAP_FAIL;
}

void pagemap_free(struct pagemap *m)
{
	free(m->slots);
	free(m->pages);
	free(m->blocks);
	pagemap_init(m);
}

size_t pagemap_bytes(const struct pagemap *m)
{
	size_t slots = m->mask ? ((size_t)m->mask + 1) * sizeof(*m->slots) : 0;
	return slots + (size_t)m->pcap * sizeof(*m->pages) + (size_t)m->bcap * sizeof(*m->blocks);
}

static uint64_t slot_chunk(const struct pagemap *m, uint32_t v)
{
	if (v & BLOCK_BIT)
		return m->blocks[v & ~BLOCK_BIT].chunk;
	return m->pages[v - 1] >> PAGEMAP_CHUNK_SHIFT;
}

static int grow_slots(struct pagemap *m)
{
	uint64_t nslots = m->mask ? ((uint64_t)m->mask + 1) * 2 : 1024;
	if (nslots > (1ull << 32))
		return -1;
	uint32_t *s = calloc(nslots, sizeof(*s));
	if (!s)
		return -1;
	uint32_t mask = (uint32_t)(nslots - 1);
	for (uint64_t i = 0; m->mask && i <= m->mask; i++) {
		uint32_t v = m->slots[i];
		if (!v)
			continue;
		uint32_t h = hash(slot_chunk(m, v), mask);
		while (s[h])
			h = (h + 1) & mask;
		s[h] = v;
	}
	free(m->slots);
	m->slots = s;
	m->mask = mask;
	return 0;
}

static int grow_pages(struct pagemap *m)
{
	if (m->n >= PAGEMAP_MAX_IDS - 1)
		return -1;
	uint32_t nc = m->pcap ? m->pcap * 2 : 1024;
	if (nc > PAGEMAP_MAX_IDS - 1)
		nc = PAGEMAP_MAX_IDS - 1;
	uint64_t *p = malloc((size_t)nc * sizeof(*p));
	if (!p)
		return -1;
	if (m->n)
		memcpy(p, m->pages, (size_t)m->n * sizeof(*p));
	free(m->pages);
	m->pages = p;
	m->pcap = nc;
	return 0;
}

static int grow_blocks(struct pagemap *m)
{
	if (m->nblocks >= BLOCK_BIT - 1)
		return -1;
	uint32_t nc = m->bcap ? m->bcap * 2 : 256;
	if (nc > BLOCK_BIT - 1)
		nc = BLOCK_BIT - 1;
	struct pagemap_block *b = malloc((size_t)nc * sizeof(*b));
	if (!b)
		return -1;
	if (m->nblocks)
		memcpy(b, m->blocks, (size_t)m->nblocks * sizeof(*b));
	free(m->blocks);
	m->blocks = b;
	m->bcap = nc;
	return 0;
}

uint32_t pagemap_append(struct pagemap *m, uint64_t page)
{
	if (m->n == m->pcap && grow_pages(m))
		return PAGEMAP_FAIL;
	m->pages[m->n] = page;
	return m->n++;
}

uint32_t pagemap_find(const struct pagemap *m, uint64_t page)
{
	if (!m->mask)
		return PAGEMAP_FAIL;
	uint64_t c = page >> PAGEMAP_CHUNK_SHIFT;
	for (uint32_t h = hash(c, m->mask);; h = (h + 1) & m->mask) {
		uint32_t v = m->slots[h];
		if (!v)
			return PAGEMAP_FAIL;
		if (v & BLOCK_BIT) {
			uint32_t b = v & ~BLOCK_BIT;
			if (m->blocks[b].chunk == c) {
				uint32_t x = m->blocks[b].id1[OFF(page)];
				return x ? x - 1 : PAGEMAP_FAIL;
			}
		} else if (m->pages[v - 1] == page) {
			return v - 1;
		} else if ((m->pages[v - 1] >> PAGEMAP_CHUNK_SHIFT) == c) {
			return PAGEMAP_FAIL;
		}
	}
}

/* The next id for page, in a block that has room for it. */
static uint32_t new_in_block(struct pagemap *m, uint32_t b, uint64_t page, int *is_new)
{
	uint32_t id = m->n++;
	m->pages[id] = page;
	m->blocks[b].id1[OFF(page)] = id + 1;
	*is_new = 1;
	return id;
}

uint32_t pagemap_get_slow(struct pagemap *m, uint64_t page, int *is_new)
{
	*is_new = 0;
	/* every path below may add one page: make room first, so a failure changes nothing */
	if (m->n == m->pcap && grow_pages(m))
		return PAGEMAP_FAIL;
	uint64_t c = page >> PAGEMAP_CHUNK_SHIFT;
	if (c == m->last_chunk && m->last_block != PAGEMAP_FAIL)
		return new_in_block(m, m->last_block, page, is_new); /* pagemap_get saw it absent */
	uint32_t h = 0;
	if (m->mask) {
		for (h = hash(c, m->mask);; h = (h + 1) & m->mask) {
			uint32_t v = m->slots[h];
			if (!v)
				break;
			if (v & BLOCK_BIT) {
				uint32_t b = v & ~BLOCK_BIT;
				if (m->blocks[b].chunk != c)
					continue;
				m->last_chunk = c;
				m->last_block = b;
				uint32_t x = m->blocks[b].id1[OFF(page)];
				return x ? x - 1 : new_in_block(m, b, page, is_new);
			}
			uint64_t p = m->pages[v - 1];
			if (p == page)
				return v - 1;
			if ((p >> PAGEMAP_CHUNK_SHIFT) != c)
				continue;
			/* the chunk's second page: it gets a block */
			if (m->nblocks == m->bcap && grow_blocks(m))
				return PAGEMAP_FAIL;
			uint32_t b = m->nblocks++;
			memset(&m->blocks[b], 0, sizeof(m->blocks[b]));
			m->blocks[b].chunk = c;
			m->blocks[b].id1[OFF(p)] = v;
			m->slots[h] = BLOCK_BIT | b;
			m->last_chunk = c;
			m->last_block = b;
			return new_in_block(m, b, page, is_new);
		}
	}
	/* a new chunk; keep the load factor at or below 1/2 */
	if ((uint64_t)(m->nchunks + 1) * 2 > (uint64_t)m->mask + 1) {
		if (grow_slots(m))
			return PAGEMAP_FAIL;
		h = hash(c, m->mask);
		while (m->slots[h])
			h = (h + 1) & m->mask;
	}
	uint32_t id = m->n++;
	m->pages[id] = page;
	m->slots[h] = id + 1;
	m->nchunks++;
	*is_new = 1;
	return id;
}
