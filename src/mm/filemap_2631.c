/* filemap_fault as 2.6.31 rewrote it (Wu Fengguang's readahead series: ef00e08e26d, 70ac23cfa31,
 * d30a11004e3, 2fad6f5deee, 7ffc59b4d0b; mm/filemap.c and mm/readahead.c at v2.6.31), the
 * rule vm.mmap_sync_readahead turns on. A miss (do_sync_mmap_readahead) after a fault on the
 * page before runs the on-demand readahead; otherwise it counts in mmap_miss and reads
 * ra_pages centred on the fault with no PG_readahead mark, unless the file has missed
 * MMAP_LOTSAMISS times more than it hit. Every miss counts in PGMAJFAULT. A hit
 * (do_async_mmap_readahead) lowers mmap_miss, floored at 0, and a PG_readahead page starts
 * the next window. No madvise hints exist in the model, so VM_RandomReadHint and
 * VM_SequentialReadHint are never set. */
#include "mm/filemap.h"

#include <limits.h>

static unsigned long roundup_pow_of_two(unsigned long n)
{
	unsigned long r = 1;
	while (r < n)
		r <<= 1;
	return r;
}

static unsigned long get_init_ra_size(unsigned long size, unsigned long max)
{
	unsigned long newsize = roundup_pow_of_two(size);
	if (newsize <= max / 32)
		return newsize * 4;
	if (newsize <= max / 4)
		return newsize * 2;
	return max;
}

static unsigned long get_next_ra_size(const struct file_ra_state *ra, unsigned long max)
{
	unsigned long cur = ra->size;
	unsigned long newsize = cur < max / 16 ? 4 * cur : 2 * cur;
	return MIN(newsize, max);
}

/* radix_tree_next_hole: the first absent index from index on, scanning max_scan slots */
static uint64_t next_hole(const struct address_space *f, uint64_t index, unsigned long max_scan)
{
	for (unsigned long i = 0; i < max_scan; i++) {
		if (index >= f->size_pages || page_index_lookup(f, index) == NO_PFN)
			break;
		index++;
	}
	return index;
}

static void ra_submit(struct file_ra_state *ra, struct address_space *f)
{
	__do_page_cache_readahead(f, ra->start, ra->size, ra->async_size);
}

/* ondemand_readahead at v2.6.31, as the fault paths reach it: a sync call comes only after a
 * fault on the page before (so its "sequential cache miss" test always holds) and an async
 * one only at a PG_readahead page, so try_context_readahead, which only follows both, is
 * never reached from a fault. */
static void ondemand_readahead(struct address_space *f, struct file_ra_state *ra, bool hit_marker,
			       uint64_t offset, unsigned long req_size)
{
	unsigned long max = max_sane_readahead(MM->ra_pages);
	if (!offset)
		goto initial;
	if (offset == ra->start + ra->size - ra->async_size || offset == ra->start + ra->size) {
		/* the expected next window: push it forward and ramp it up */
		ra->start += ra->size;
		ra->size = (unsigned)get_next_ra_size(ra, max);
		ra->async_size = ra->size;
		goto readit;
	}
	if (hit_marker) {
		uint64_t start = next_hole(f, offset + 1, max);
		if (!start || start - offset > max)
			return;
		ra->start = start;
		ra->size = (unsigned)(start - offset + req_size);
		ra->size = (unsigned)get_next_ra_size(ra, max);
		ra->async_size = ra->size;
		goto readit;
	}
	if (req_size > max || offset - ra->prev_index <= 1)
		goto initial;
	__do_page_cache_readahead(f, offset, req_size, 0);
	return;
initial:
	ra->start = offset;
	ra->size = (unsigned)get_init_ra_size(req_size, max);
	ra->async_size = ra->size > req_size ? ra->size - (unsigned)req_size : ra->size;
readit:
	/* a window that would hit its own mark at once takes the next one in with it */
	if (offset == ra->start && ra->size == ra->async_size) {
		ra->async_size = (unsigned)get_next_ra_size(ra, max);
		ra->size += ra->async_size;
	}
	ra_submit(ra, f);
}

static void do_sync_mmap_readahead(struct address_space *f, struct file_ra_state *ra,
				   uint64_t offset)
{
	/* offset - 1 wraps for page 0, which the initial prev_index (-1) matches, as in the
	 * kernel: a file's first fault at page 0 is taken for a sequential one */
	if (offset - 1 == ra->prev_index) {
		ondemand_readahead(f, ra, false, offset, MM->ra_pages);
		return;
	}
	if (ra->mmap_miss < INT_MAX)
		ra->mmap_miss++;
	if (ra->mmap_miss > MMAP_LOTSAMISS)
		return;
	unsigned long ra_pages = max_sane_readahead(MM->ra_pages);
	if (ra_pages) {
		ra->start = offset > ra_pages / 2 ? offset - ra_pages / 2 : 0;
		ra->size = (unsigned)ra_pages;
		ra->async_size = 0;
		ra_submit(ra, f);
	}
}

static void do_async_mmap_readahead(struct address_space *f, struct file_ra_state *ra, pfn_t pfn,
				    uint64_t offset)
{
	if (ra->mmap_miss > 0)
		ra->mmap_miss--;
	struct page *p = pfn_to_page(pfn);
	/* page_cache_async_readahead: PG_readahead shares its bit with PG_reclaim, so a page
	 * under writeback is left alone; a congested read queue defers the read */
	if (!(p->flags & PG_readahead) || (p->flags & PG_writeback))
		return;
	p->flags &= ~PG_readahead;
	if (bdi_read_congested(&MM->disk))
		return;
	ondemand_readahead(f, ra, true, offset, MM->ra_pages);
}

pfn_t filemap_fault_2631(struct vm_area_struct *vma, uint64_t pgoff, bool *major)
{
	struct address_space *f = vma->file;
	struct file_ra_state *ra = vma->ra;
	pfn_t pfn = page_index_lookup(f, pgoff);
	if (pfn != NO_PFN) {
		/* the async readahead starts before the fault waits for the page's lock */
		struct page *p = pfn_to_page(pfn);
		p->pins++;
		do_async_mmap_readahead(f, ra, pfn, pgoff);
		wait_on_page_locked(pfn);
		p->pins--;
		if (page_index_lookup(f, pgoff) != pfn) { /* gone meanwhile: no_cached_page */
			release_user_page(pfn);
			pfn = NO_PFN;
		}
	} else {
		do_sync_mmap_readahead(f, ra, pgoff);
		*major = true;
		pfn = find_lock_page(f, pgoff); /* retry_find */
	}
	while (pfn == NO_PFN) { /* no_cached_page */
		if (page_cache_read(f, pgoff) < 0)
			return NO_PFN;
		pfn = find_lock_page(f, pgoff);
	}
	ra->prev_index = pgoff;
	return pfn;
}
