/* One-page block I/O for the page cache and swap: the bio a single page's read or write
 * becomes (the kernel's submit_bh / swap_readpage / swap_writepage end in the same place). */
#include "mm/mm.h"

void submit_page_bio(struct blockdev *bd, pfn_t pfn, uint64_t sector, int rw,
		     void (*end_io)(struct bio *))
{
	struct bio *b = bio_alloc(bd);
	b->sector = sector;
	b->nr_sectors = MM->page_size >> SECTOR_SHIFT;
	b->rw = (uint8_t)rw;
	b->pfn = pfn;
	b->end_io = end_io;
	b->prefetch[0] = pfn_to_page(pfn);
	b->prefetch[1] = (const char *)pfn_to_page(pfn) + sizeof(struct page) - 1;
	cpu_work_sys(MM->hw->io_submit_ns);
	submit_bio(bd, b);
}
