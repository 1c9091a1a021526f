/* Page number -> dense id, in order of first appearance.
 *
 * Traces name pages in runs (an ARC .lis line is "start n": n consecutive blocks), so the map
 * is keyed by chunk, page >> PAGEMAP_CHUNK_SHIFT, and keeps the ids of a chunk's pages side by
 * side: the pages of a run share one hash probe and one block, and a run that stays in the
 * chunk of the previous lookup needs no hash at all.
 *
 * The hash (u32 slots, open addressing with linear probing, load 1/4..1/2, keyed by chunk)
 * holds for each chunk either
 *  - up to 4 single-page slots, each an id + 1 whose page is checked through pages[id], so a
 *    sparse or semi-sparse trace (random 64-bit object ids, scattered blocks) costs what a
 *    plain page hash does; or, from the chunk's 5th page on,
 *  - one block slot (top bit set): the block holds the chunk number and PAGEMAP_CHUNK ids.
 * Memory (pagemap_bytes()): pages[] 8 bytes per distinct page, slots 8-16 bytes per slot in
 * use, blocks 136 bytes per chunk of 5 or more pages (at most 27 per page), all growing by
 * doubling. Measured: 17 bytes per distinct page on ARC P12 and OLTP, 22 on cloudPhysicsIO. */
#ifndef MMSIM_TRACE_PAGEMAP_H
#define MMSIM_TRACE_PAGEMAP_H

#include <stddef.h>
#include <stdint.h>

#define PAGEMAP_CHUNK_SHIFT 5
#define PAGEMAP_CHUNK	    (1u << PAGEMAP_CHUNK_SHIFT)

struct pagemap_block {
	uint64_t chunk;		     /* beside the ids: one cache miss finds and checks them */
	uint32_t id1[PAGEMAP_CHUNK]; /* id + 1 of page chunk*PAGEMAP_CHUNK + i; 0 = not seen */
};

struct pagemap {
	uint32_t *slots;
	uint64_t *pages; /* id -> page number */
	struct pagemap_block *blocks;
	uint32_t mask; /* slots - 1; 0 before the first insert */
	uint32_t n, pcap;
	uint32_t used; /* slots in use, tombstones included */
	uint32_t nblocks, bcap;
	/* the chunk of the last lookup, when it has a block: sequential runs stay in it */
	uint64_t last_chunk;
	uint32_t last_block; /* PAGEMAP_FAIL when none */
	int hints_pay;	     /* pagemap_hints_pay(), kept as the slots and blocks grow */
};

#define PAGEMAP_FAIL UINT32_MAX
/* Largest id: a slot's top bit tells a block from an id. */
#define PAGEMAP_MAX_IDS (1u << 31)

void pagemap_init(struct pagemap *m);
void pagemap_free(struct pagemap *m);
/* pagemap_get's rest; call it only from there */
uint32_t pagemap_get_slow(struct pagemap *m, uint64_t page, int *is_new);
/* Id of page, assigning the next one if it is new (*is_new set). PAGEMAP_FAIL when the ids
 * run out (PAGEMAP_MAX_IDS). Inline for the case that decides replay speed: another page of the
 * chunk just looked up. */
static inline uint32_t pagemap_get(struct pagemap *m, uint64_t page, int *is_new)
{
	if ((page >> PAGEMAP_CHUNK_SHIFT) == m->last_chunk && m->last_block != PAGEMAP_FAIL) {
		uint32_t v = m->blocks[m->last_block].id1[page & (PAGEMAP_CHUNK - 1)];
		if (v) {
			*is_new = 0;
			return v - 1;
		}
	}
	return pagemap_get_slow(m, page, is_new);
}
/* Ids of the n pages from page on, into ids[], as n calls of pagemap_get would give them;
 * returns how many were mapped, fewer than n only when the ids run out. The pages of a
 * chunk that has a block are mapped in a loop of their own, a page new to the block given
 * its id there too while pages[] has room, with the block, n and pages in locals: through m,
 * every store to ids[] would make the compiler reload the map's fields. */
static inline size_t pagemap_get_run(struct pagemap *m, uint64_t page, size_t n, uint32_t *ids)
{
	size_t j = 0;
	while (j < n) {
		uint64_t pg = page + j;
		if ((pg >> PAGEMAP_CHUNK_SHIFT) == m->last_chunk && m->last_block != PAGEMAP_FAIL) {
			uint32_t *id1 = m->blocks[m->last_block].id1;
			uint64_t *pages = m->pages;
			uint32_t next = m->n, pcap = m->pcap;
			uint32_t off = (uint32_t)pg & (PAGEMAP_CHUNK - 1);
			size_t end = n - j < PAGEMAP_CHUNK - off ? n : j + (PAGEMAP_CHUNK - off);
			for (; j < end; j++, off++) {
				uint32_t v = id1[off];
				if (!v) {
					if (next == pcap)
						break; /* pages[] must grow: pagemap_get_slow's part
							*/
					pages[next] = page + j;
					v = id1[off] = ++next;
				}
				ids[j] = v - 1;
			}
			m->n = next;
			if (j == end)
				continue;
			pg = page + j;
		}
		int is_new;
		uint32_t id = pagemap_get_slow(m, pg, &is_new);
		if (id == PAGEMAP_FAIL)
			break;
		ids[j++] = id;
	}
	return j;
}
static inline uint32_t pagemap_hash(uint64_t chunk, uint32_t mask)
{
	/* Fibonacci hashing: the high bits of the product mix every bit of the key. */
	return (uint32_t)((chunk * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

/* Hints for a lookup of page to come, in two steps a while apart: first the hash slot its
 * lookup reads, then (the slot having arrived) the block or page numbers the slots from there
 * name. They change nothing; a map that changes in between only makes a prefetch useless. */
static inline void pagemap_prefetch_slot(const struct pagemap *m, uint64_t page)
{
	if (m->mask)
		__builtin_prefetch(&m->slots[pagemap_hash(page >> PAGEMAP_CHUNK_SHIFT, m->mask)]);
}
void pagemap_prefetch_entry(const struct pagemap *m, uint64_t page);
/* Below this many bytes of slots and blocks the map stays in the caches, its lookups wait for
 * no memory, and the hints would only cost their instructions: OLTP's map ends at 0.9 MB (its
 * replay about 5% faster unhinted), the other ARC traces' at 4.7 MB or more. */
#define PAGEMAP_HINT_BYTES (2u << 20)
static inline int pagemap_hints_pay(const struct pagemap *m)
{
	/* asked two or three times a line: a flag, not the sum (2.6% of OLTP's instructions) */
	return m->hints_pay;
}

/* Append page under the next id without hashing it (the caller knows it is new, e.g. the
 * binary format says so); pagemap_get/find must not be used on such a map. */
uint32_t pagemap_append(struct pagemap *m, uint64_t page);
/* Id of page or PAGEMAP_FAIL if absent. */
uint32_t pagemap_find(const struct pagemap *m, uint64_t page);
/* Bytes the map holds allocated now. */
size_t pagemap_bytes(const struct pagemap *m);

#endif
