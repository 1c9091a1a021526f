/* Page number -> dense id, in order of first appearance. Open addressing with linear probing;
 * a slot holds id+1 (0 = empty) and the key is found through pages[id], so the map costs
 * 8 bytes per distinct page for pages[] plus 4-8 bytes of slots. */
#ifndef MMSIM_TRACE_PAGEMAP_H
#define MMSIM_TRACE_PAGEMAP_H

#include <stdint.h>

struct pagemap {
	uint32_t *slots;
	uint64_t *pages;
	uint32_t mask; /* slots - 1; 0 before the first insert */
	uint32_t n, pcap;
	/* the last page looked up: instruction fetches and sequential data hit the same page
	 * many times in a row, and this saves the hash for them */
	uint64_t last_page;
	uint32_t last_id;
};

#define PAGEMAP_FAIL UINT32_MAX

void pagemap_init(struct pagemap *m);
void pagemap_free(struct pagemap *m);
/* Id of page, assigning the next one if it is new (*is_new set). PAGEMAP_FAIL when out of
 * memory or ids. */
uint32_t pagemap_get(struct pagemap *m, uint64_t page, int *is_new);
/* Append page under the next id without hashing it (the caller knows it is new, e.g. the
 * binary format says so); pagemap_get/find must not be used on such a map. */
uint32_t pagemap_append(struct pagemap *m, uint64_t page);
/* Id of page or PAGEMAP_FAIL if absent. */
uint32_t pagemap_find(const struct pagemap *m, uint64_t page);

#endif
