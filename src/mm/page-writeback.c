/* Dirty pages: accounting, dirty limits and balance_dirty_pages (kernel-reclaim.md §1.17),
 * writepage for file pages, end of writeback with PG_reclaim rotation (§1.4), page locks,
 * and the flusher thread (pdflush's background and kupdate writeout). */
#include "mm/mm.h"

#include <limits.h>
#include <stdlib.h>

#define MAX_WRITEBACK_PAGES 1024

void lock_page(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	/* __wait_on_bit_lock: an exclusive waiter, at the tail. unlock_page still wakes every
	 * waiter of the hashed queue (no keyed wakeups here), so only the order changes. */
	while (p->flags & PG_locked)
		sleep_on_exclusive(page_waitqueue(pfn), 0, false);
	p->flags |= PG_locked;
}

bool trylock_page(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (p->flags & PG_locked)
		return false;
	p->flags |= PG_locked;
	return true;
}

void unlock_page(pfn_t pfn)
{
	pfn_to_page(pfn)->flags &= ~PG_locked;
	struct waitqueue *wq = page_waitqueue(pfn);
	if (waitqueue_active(wq))
		wake_up_all(wq);
}

void wait_on_page_writeback(pfn_t pfn)
{
	while (pfn_to_page(pfn)->flags & PG_writeback)
		sleep_on(page_waitqueue(pfn), 0, false);
}

static void file_mark_dirty(struct address_space *f)
{
	if (f->on_dirty_list)
		return;
	f->on_dirty_list = true;
	f->dirtied_when = local_now();
	f->dirty_next = NULL;
	if (MM->dirty_files_tail)
		MM->dirty_files_tail->dirty_next = f;
	else
		MM->dirty_files = f;
	MM->dirty_files_tail = f;
}

void set_page_dirty(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (p->flags & PG_dirty)
		return;
	p->flags |= PG_dirty;
	struct address_space *f = page_mapping(p);
	if (f) { /* swap cache pages are not accounted as dirty (BDI_CAP_NO_ACCT_DIRTY) */
		inc_zone_page_state(p, NR_FILE_DIRTY);
		f->nr_dirty++;
		file_mark_dirty(f);
	}
}

/* Moves PTE dirty bits to the page and cleans it for I/O (page_mkclean + the flag). */
bool clear_page_dirty_for_io(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	for (uint32_t i = p->rmap; i; i = MM->rmap[i].next) {
		struct rmap_item *it = &MM->rmap[i];
		uint32_t *pte = it->pte;
		if (*pte & PTE_DIRTY) {
			*pte &= ~PTE_DIRTY;
			set_page_dirty(pfn);
		}
	}
	if (!(p->flags & PG_dirty))
		return false;
	p->flags &= ~PG_dirty;
	struct address_space *f = page_mapping(p);
	if (f) {
		dec_zone_page_state(p, NR_FILE_DIRTY);
		f->nr_dirty--;
	}
	return true;
}

void end_page_writeback(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (p->flags & PG_reclaim) {
		p->flags &= ~PG_reclaim;
		rotate_reclaimable_page(pfn);
	}
	p->flags &= ~PG_writeback;
	dec_zone_page_state(p, NR_WRITEBACK);
	struct waitqueue *wq = page_waitqueue(pfn);
	if (waitqueue_active(wq))
		wake_up_all(wq);
}

static void file_write_end(struct bio *bio)
{
	pfn_t pfn = bio->pfn;
	bio_free(&MM->disk, bio);
	end_page_writeback(pfn);
}

/* writepage of a file page: the caller holds the page lock and has cleaned the page. */
int write_one_page_async(pfn_t pfn, bool for_reclaim)
{
	(void)for_reclaim;
	struct page *p = pfn_to_page(pfn);
	struct address_space *f = page_mapping(p);
	p->flags |= PG_writeback;
	inc_zone_page_state(p, NR_WRITEBACK);
	count_vm_events(PGPGOUT, MM->page_size / 1024);
	unlock_page(pfn);
	submit_page_bio(&MM->disk, pfn, file_sector(f, p->index), WRITE, file_write_end);
	return 0;
}

/* determine_dirtyable_memory + get_dirty_limits (§1.17). */
void get_dirty_limits(long *background, long *dirty)
{
	long avail = global_page_state(NR_FREE_PAGES) + global_page_state(NR_INACTIVE_ANON) +
		     global_page_state(NR_ACTIVE_ANON) + global_page_state(NR_INACTIVE_FILE) +
		     global_page_state(NR_ACTIVE_FILE);
	if (MM->nr_zones > ZONE_HIGHMEM) /* highmem is not dirtyable (vm_highmem_is_dirtyable=0) */
		avail -= MM->zones[ZONE_HIGHMEM].stat[NR_FREE_PAGES] +
			 MM->zones[ZONE_HIGHMEM].stat[NR_INACTIVE_FILE] +
			 MM->zones[ZONE_HIGHMEM].stat[NR_ACTIVE_FILE] +
			 MM->zones[ZONE_HIGHMEM].stat[NR_INACTIVE_ANON] +
			 MM->zones[ZONE_HIGHMEM].stat[NR_ACTIVE_ANON];
	if (avail < 1)
		avail = 1;
	int dirty_ratio = MM->sysctl.dirty_ratio;
	if (dirty_ratio < 5)
		dirty_ratio = 5;
	int bg_ratio = MM->sysctl.dirty_background_ratio;
	if (bg_ratio >= dirty_ratio)
		bg_ratio = dirty_ratio / 2;
	long bg = bg_ratio * avail / 100;
	long d = dirty_ratio * avail / 100;
	/* realtime and PF_LESS_THROTTLE tasks would get +25%; no modelled task is either */
	*background = bg;
	*dirty = d;
}

/* Writes up to nr dirty file pages, oldest-dirtied files first, each file in page order.
 * older_than != 0 limits it to files dirtied before that time (kupdate). Returns pages
 * written. The flusher stops early when the disk is congested and `nonblocking`. */
static long writeback_inodes(long nr, sim_time_t older_than, bool nonblocking, bool *congested)
{
	long written = 0;
	struct address_space *f = MM->dirty_files;
	while (f && written < nr) {
		if (older_than && f->dirtied_when > older_than)
			break;
		if (nonblocking && bdi_write_congested(&MM->disk)) {
			if (congested)
				*congested = true;
			break;
		}
		uint64_t scanned = 0;
		while (f->nr_dirty && written < nr && scanned < f->cap_pages) {
			uint64_t i = f->wb_cursor;
			if (++f->wb_cursor >= f->cap_pages)
				f->wb_cursor = 0;
			scanned++;
			pfn_t pfn = f->pages[i];
			if (pfn == NO_PFN)
				continue;
			struct page *p = pfn_to_page(pfn);
			if (!(p->flags & PG_dirty) || (p->flags & (PG_writeback | PG_locked)))
				continue;
			p->flags |= PG_locked;
			clear_page_dirty_for_io(pfn);
			write_one_page_async(pfn, false);
			written++;
			if (nonblocking && bdi_write_congested(&MM->disk)) {
				if (congested)
					*congested = true;
				return written;
			}
		}
		struct address_space *next = f->dirty_next;
		if (!f->nr_dirty) { /* clean: off the dirty list */
			MM->dirty_files = next;
			if (!next)
				MM->dirty_files_tail = NULL;
			f->on_dirty_list = false;
			f->dirty_next = NULL;
		} else if (next) { /* requeue at the tail, as redirty_tail does */
			MM->dirty_files = next;
			f->dirty_next = NULL;
			f->dirtied_when = local_now();
			MM->dirty_files_tail->dirty_next = f;
			MM->dirty_files_tail = f;
		} else {
			break;
		}
		f = MM->dirty_files;
	}
	return written;
}

static long ratelimit_pages(void)
{
	long r = (long)MM->totalram_pages / (sched_ncpus() * 32);
	if (r < 16)
		r = 16;
	if (r > 1024)
		r = 1024;
	return r;
}

/* balance_dirty_pages (2.6.28): the dirtier writes back itself while over the limit. */
static void balance_dirty_pages(void)
{
	long pages_written = 0;
	long write_chunk = ratelimit_pages() + ratelimit_pages() / 2;
	long bg, dirty;
	for (;;) {
		get_dirty_limits(&bg, &dirty);
		long reclaimable =
		    global_page_state(NR_FILE_DIRTY) + global_page_state(NR_UNSTABLE_NFS);
		if (reclaimable + global_page_state(NR_WRITEBACK) <= dirty)
			break;
		if (reclaimable) {
			pages_written += writeback_inodes(write_chunk, 0, false, NULL);
			get_dirty_limits(&bg, &dirty);
			reclaimable = global_page_state(NR_FILE_DIRTY);
			if (reclaimable + global_page_state(NR_WRITEBACK) <= dirty)
				break;
			if (pages_written >= write_chunk)
				break;
		}
		congestion_wait(WRITE, HZ / 10 * JIFFY_NS);
	}
	get_dirty_limits(&bg, &dirty);
	if (global_page_state(NR_FILE_DIRTY) > bg && !MM->flusher_busy)
		wakeup_pdflush(0);
}

void balance_dirty_pages_ratelimited(struct address_space *f)
{
	(void)f;
	/* per-CPU in the kernel; one machine-wide counter here */
	if (++MM->dirty_ratelimit_count >= ratelimit_pages()) {
		MM->dirty_ratelimit_count = 0;
		balance_dirty_pages();
	}
}

void wakeup_pdflush(long nr_pages)
{
	if (!MM->flusher)
		return;
	if (nr_pages == 0)
		nr_pages = global_page_state(NR_FILE_DIRTY);
	if (nr_pages > MM->flusher_nr_pages)
		MM->flusher_nr_pages = nr_pages;
	trace_event(writeback_wake_background, "bdi 8:0");
	wake_up_one(&MM->flusher_wait);
}

/* throttle_vm_writeout (§1.17). */
void throttle_vm_writeout(unsigned gfp)
{
	for (;;) {
		long bg, dirty;
		get_dirty_limits(&bg, &dirty);
		dirty += dirty / 10;
		if (global_page_state(NR_UNSTABLE_NFS) + global_page_state(NR_WRITEBACK) <= dirty)
			break;
		congestion_wait(WRITE, HZ / 10 * JIFFY_NS);
		if (!(gfp & __GFP_FS) || !(gfp & __GFP_IO))
			break;
	}
}

/* The flusher: background writeout while over the background threshold or asked for pages,
 * and every dirty_writeback_centisecs the kupdate pass for inodes dirtied long ago. */
void flusher_main(void *arg)
{
	(void)arg;
	sim_time_t next_kupdate =
	    (sim_time_t)MM->sysctl.dirty_writeback_centisecs * 10 * NSEC_PER_MSEC;
	for (;;) {
		sim_time_t now = local_now();
		sim_time_t timeout = next_kupdate > now ? next_kupdate - now : 1;
		if (MM->sysctl.dirty_writeback_centisecs == 0)
			timeout = 0;
		if (!MM->flusher_nr_pages)
			sleep_on(&MM->flusher_wait, timeout, false);
		MM->flusher_busy = true;
		long wrote = 0; /* wb_do_writeback's count for writeback_pages_written */
		/* background_writeout */
		for (;;) {
			long bg, dirty;
			get_dirty_limits(&bg, &dirty);
			long nr_dirty = global_page_state(NR_FILE_DIRTY);
			if (nr_dirty <= 0)
				break;
			if (nr_dirty <= bg && MM->flusher_nr_pages <= 0)
				break;
			bool congested = false;
			long w = writeback_inodes(MAX_WRITEBACK_PAGES, 0, true, &congested);
			MM->flusher_nr_pages -= w;
			wrote += w;
			cond_resched();
			if (w < MAX_WRITEBACK_PAGES) {
				if (congested || w > 0)
					congestion_wait(WRITE, HZ / 10 * JIFFY_NS);
				else
					break;
			}
		}
		MM->flusher_nr_pages = 0;
		now = local_now();
		if (MM->sysctl.dirty_writeback_centisecs && now >= next_kupdate) {
			sim_time_t expire =
			    (sim_time_t)MM->sysctl.dirty_expire_centisecs * 10 * NSEC_PER_MSEC;
			if (now > expire)
				wrote += writeback_inodes(LONG_MAX, now - expire, false, NULL);
			next_kupdate = now + (sim_time_t)MM->sysctl.dirty_writeback_centisecs * 10 *
						 NSEC_PER_MSEC;
		}
		if (wrote)
			trace_event(writeback_pages_written, "%ld", wrote);
		MM->flusher_busy = false;
	}
}

/* fsync: write every dirty page of the file in page order, then wait for all of them. */
int file_fsync(struct address_space *f)
{
	cpu_work_sys(MM->hw->syscall_ns);
	for (uint64_t i = 0; i < f->cap_pages; i++) {
		pfn_t pfn = f->pages[i];
		if (pfn == NO_PFN)
			continue;
		struct page *p = pfn_to_page(pfn);
		if (!(p->flags & PG_dirty))
			continue;
		p->pins++;
		lock_page(pfn);
		p->pins--;
		if (f->pages[i] != pfn || !clear_page_dirty_for_io(pfn)) {
			unlock_page(pfn);
			continue;
		}
		if (p->flags & PG_writeback) {
			/* rewritten while an older write is in flight: wait, then write again */
			unlock_page(pfn);
			wait_on_page_writeback(pfn);
			lock_page(pfn);
		}
		write_one_page_async(pfn, false);
	}
	for (uint64_t i = 0; i < f->cap_pages; i++) {
		pfn_t pfn = f->pages[i];
		if (pfn != NO_PFN && (pfn_to_page(pfn)->flags & PG_writeback))
			wait_on_page_writeback(pfn);
	}
	return 0;
}
