/* The page-number-to-dense-id map of pagemap.h: open addressing, Fibonacci hashing, slots
 * and the id array grown by doubling. */
#include "trace/pagemap.h"
#include "sim/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_BIT (1u << 31)
#define TOMB	  UINT32_MAX /* a slot given up when its chunk got a block */
/* A chunk's pages live in single-page slots until the ONE_MAX + 1st appears: a block (136
 * bytes) for two pages would triple the bytes per page of a semi-sparse trace. */
#define ONE_MAX	  4
#define OFF(page) ((uint32_t)(page) & (PAGEMAP_CHUNK - 1))

#define hash pagemap_hash

void pagemap_init(struct pagemap *m)
{
	memset(m, 0, sizeof(*m));
	m->last_block = PAGEMAP_FAIL;
}

void pagemap_free(struct pagemap *m)
{
	xbig_free(m->slots);
	xbig_free(m->pages);
	xbig_free(m->blocks);
	pagemap_init(m);
}

size_t pagemap_bytes(const struct pagemap *m)
{
	size_t slots = m->mask ? ((size_t)m->mask + 1) * sizeof(*m->slots) : 0;
	return slots + (size_t)m->pcap * sizeof(*m->pages) + (size_t)m->bcap * sizeof(*m->blocks);
}

/* The slots grew or a block was taken: do the hints pay now (pagemap_hints_pay)? */
static void update_hints(struct pagemap *m)
{
	size_t bytes = (size_t)m->nblocks * sizeof(*m->blocks) +
		       (m->mask ? ((size_t)m->mask + 1) * sizeof(*m->slots) : 0);
	m->hints_pay = bytes >= PAGEMAP_HINT_BYTES;
}

static int grow_slots(struct pagemap *m)
{
	uint64_t nslots = m->mask ? ((uint64_t)m->mask + 1) * 2 : 1024;
	if (nslots > (1ull << 32))
		return -1;
	uint32_t *s = xbig_alloc(nslots * sizeof(*s));
	uint32_t mask = (uint32_t)(nslots - 1), used = 0;
	for (uint64_t i = 0; m->mask && i <= m->mask; i++) {
		uint32_t v = m->slots[i];
		if (!v || v == TOMB)
			continue;
		uint64_t c = v & BLOCK_BIT ? m->blocks[v & ~BLOCK_BIT].chunk
					   : m->pages[v - 1] >> PAGEMAP_CHUNK_SHIFT;
		uint32_t h = hash(c, mask);
		while (s[h])
			h = (h + 1) & mask;
		s[h] = v;
		used++;
	}
	xbig_free(m->slots);
	m->slots = s;
	m->mask = mask;
	m->used = used;
	update_hints(m);
	return 0;
}

static int grow_pages(struct pagemap *m)
{
	if (m->n >= PAGEMAP_MAX_IDS - 1)
		return -1;
	uint32_t nc = m->pcap ? m->pcap * 2 : 1024;
	if (nc > PAGEMAP_MAX_IDS - 1)
		nc = PAGEMAP_MAX_IDS - 1;
	m->pages = xbig_realloc(m->pages, (size_t)nc * sizeof(*m->pages));
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
	m->blocks = xbig_realloc(m->blocks, (size_t)nc * sizeof(*m->blocks));
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
		if (v == TOMB)
			continue;
		if (v & BLOCK_BIT) {
			uint32_t b = v & ~BLOCK_BIT;
			if (m->blocks[b].chunk == c) {
				uint32_t x = m->blocks[b].id1[OFF(page)];
				return x ? x - 1 : PAGEMAP_FAIL;
			}
		} else if (m->pages[v - 1] == page) {
			return v - 1;
		}
	}
}

static uint32_t new_id(struct pagemap *m, uint64_t page, int *is_new)
{
	uint32_t id = m->n++;
	m->pages[id] = page;
	*is_new = 1;
	return id;
}

/* The next id for page, in a block that has room for it. */
static uint32_t new_in_block(struct pagemap *m, uint32_t b, uint64_t page, int *is_new)
{
	uint32_t id = new_id(m, page, is_new);
	m->blocks[b].id1[OFF(page)] = id + 1;
	return id;
}

/* Chunk c has ONE_MAX single-page slots, the first at slot first, and a new page: the chunk
 * gets a block holding all their ids in that slot; the others become tombstones. */
static uint32_t promote(struct pagemap *m, uint64_t c, uint32_t first, uint64_t page, int *is_new)
{
	if (m->nblocks == m->bcap && grow_blocks(m))
		return PAGEMAP_FAIL;
	uint32_t b = m->nblocks++;
	update_hints(m);
	struct pagemap_block *blk = &m->blocks[b];
	memset(blk, 0, sizeof(*blk));
	blk->chunk = c;
	for (uint32_t h = first, k = 0; k < ONE_MAX; h = (h + 1) & m->mask) {
		uint32_t v = m->slots[h];
		if (v & BLOCK_BIT || (m->pages[v - 1] >> PAGEMAP_CHUNK_SHIFT) != c)
			continue; /* another chunk's, or a tombstone (v is never 0 here) */
		blk->id1[OFF(m->pages[v - 1])] = v;
		m->slots[h] = k++ ? TOMB : BLOCK_BIT | b;
	}
	m->last_chunk = c;
	m->last_block = b;
	return new_in_block(m, b, page, is_new);
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
	uint32_t h = 0, first = 0, singles = 0;
	if (m->mask) {
		for (h = hash(c, m->mask);; h = (h + 1) & m->mask) {
			uint32_t v = m->slots[h];
			if (!v)
				break;
			if (v == TOMB)
				continue;
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
			if ((p >> PAGEMAP_CHUNK_SHIFT) == c && !singles++)
				first = h;
		}
		if (singles == ONE_MAX)
			return promote(m, c, first, page, is_new);
	}
	/* a single-page slot; keep the load factor at or below 1/2 */
	if ((uint64_t)(m->used + 1) * 2 > (uint64_t)m->mask + 1) {
		if (grow_slots(m))
			return PAGEMAP_FAIL;
		h = hash(c, m->mask);
		while (m->slots[h])
			h = (h + 1) & m->mask;
	}
	uint32_t id = new_id(m, page, is_new);
	m->slots[h] = id + 1;
	m->used++;
	return id;
}

void pagemap_prefetch_entry(const struct pagemap *m, uint64_t page)
{
	if (!m->mask)
		return;
	uint32_t h = hash(page >> PAGEMAP_CHUNK_SHIFT, m->mask);
	/* the chunk's block is almost always first in its probe sequence, else within a few */
	for (int k = 0; k < 4; k++, h = (h + 1) & m->mask) {
		uint32_t v = m->slots[h];
		if (!v)
			return;
		if (v == TOMB)
			continue;
		if (v & BLOCK_BIT) {
			const char *b = (const char *)&m->blocks[v & ~BLOCK_BIT];
			__builtin_prefetch(b);
			__builtin_prefetch(b + 64);
			__builtin_prefetch(b + sizeof(struct pagemap_block) - 1);
			return;
		}
		__builtin_prefetch(&m->pages[v - 1]);
	}
}
