/* Dirty pages: accounting, dirty limits and balance_dirty_pages (kernel-reclaim.md §1.17),
 * writepage for file pages, end of writeback with PG_reclaim rotation (§1.4), page locks,
 * and the flusher thread (pdflush's background and kupdate writeout). */
#include "mm/fs.h"
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

static void dirty_list_add_head(struct address_space *f)
{
	f->dirty_next = MM->dirty_files;
	MM->dirty_files = f;
	if (!MM->dirty_files_tail)
		MM->dirty_files_tail = f;
}

static void dirty_list_add_tail(struct address_space *f)
{
	f->dirty_next = NULL;
	if (MM->dirty_files_tail)
		MM->dirty_files_tail->dirty_next = f;
	else
		MM->dirty_files = f;
	MM->dirty_files_tail = f;
}

static void file_mark_dirty(struct address_space *f)
{
	if (f->on_dirty_list)
		return;
	f->on_dirty_list = true;
	f->dirtied_when = local_now();
	dirty_list_add_tail(f);
}

void set_page_dirty(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	if (p->flags & PG_dirty)
		return;
	p->flags |= PG_dirty;
	struct address_space *f = page_mapping(p);
	/* swap cache pages are not accounted as dirty (BDI_CAP_NO_ACCT_DIRTY), nor are shmem
	 * pages (shmem_aops' __set_page_dirty_no_writeback) */
	if (f && !f->shmem) {
		/* account_page_dirtied: NR_FILE_DIRTY (= BDI_RECLAIMABLE), task_dirty_inc */
		inc_zone_page_state(p, NR_FILE_DIRTY);
		prop_inc(&MM->vm_dirties,
			 current && current->mm ? &current->mm->dirties : &MM->kthread_dirties);
		f->nr_dirty++;
		file_mark_dirty(f);
	}
}

void set_page_dirty_balance(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	bool newly = !(p->flags & PG_dirty);
	set_page_dirty(pfn);
	struct address_space *f = page_mapping(p);
	if (newly && f)
		balance_dirty_pages_ratelimited(f);
}

/* Moves PTE dirty bits to the page and cleans it for I/O: page_mkclean, then the flag. With
 * write-notify, page_mkclean_one write-protects a shared mapping's PTE that is dirty or
 * writable, so the next write faults again (mm/rmap.c, 2.6.28). */
bool clear_page_dirty_for_io(pfn_t pfn)
{
	struct page *p = pfn_to_page(pfn);
	for (uint32_t i = p->rmap; i; i = MM->rmap[i].next) {
		struct rmap_item *it = &MM->rmap[i];
		uint32_t *pte = it->pte;
		if (vma_wants_writenotify(MM->vmas[it->vma])) {
			if (*pte & PTE_DIRTY || !(*pte & PTE_RDONLY)) {
				flush_cache_page(MM->vmas[it->vma]->mm); /* page_mkclean_one */
				*pte = (*pte & ~PTE_DIRTY) | PTE_RDONLY;
				set_page_dirty(pfn);
			}
		} else if (*pte & PTE_DIRTY) {
			*pte &= ~PTE_DIRTY;
			set_page_dirty(pfn);
		}
	}
	if (!(p->flags & PG_dirty))
		return false;
	p->flags &= ~PG_dirty;
	struct address_space *f = page_mapping(p);
	if (f && !f->shmem) {
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
	/* test_clear_page_writeback: BDI_WRITEBACK down, __bdi_writeout_inc */
	MM->bdi.nr_writeback--;
	prop_inc(&MM->vm_completions, &MM->bdi.completions);
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
	MM->bdi.nr_writeback++;
	if (!MM->hw->fs_nfs) /* submit_bio counts it; an NFS WRITE is an RPC */
		count_vm_events(PGPGOUT, MM->page_size / 1024);
	unlock_page(pfn);
	submit_page_bio(&MM->disk, pfn, file_sector(f, p->index), WRITE, file_write_end);
	return 0;
}

/* determine_dirtyable_memory (2.6.28): free pages and the LRU pages, without highmem's
 * (vm_highmem_is_dirtyable = 0), never 0. */
unsigned long determine_dirtyable_memory(void)
{
	long x = global_page_state(NR_FREE_PAGES) + global_page_state(NR_INACTIVE_ANON) +
		 global_page_state(NR_ACTIVE_ANON) + global_page_state(NR_INACTIVE_FILE) +
		 global_page_state(NR_ACTIVE_FILE);
	if (MM->nr_zones > ZONE_HIGHMEM) { /* highmem_dirtyable_memory, at most x */
		const long *hs = MM->zones[ZONE_HIGHMEM].stat;
		long h = hs[NR_FREE_PAGES] + hs[NR_INACTIVE_FILE] + hs[NR_ACTIVE_FILE] +
			 hs[NR_INACTIVE_ANON] + hs[NR_ACTIVE_ANON];
		x -= h < x ? h : x;
	}
	return (unsigned long)x + 1;
}

/* get_dirty_limits without a bdi (§1.17): the global background and dirty thresholds.
 * Realtime and PF_LESS_THROTTLE tasks would get +25%; no modelled task is either. */
void get_dirty_limits(long *background, long *dirty)
{
	long avail = (long)determine_dirtyable_memory();
	int dirty_ratio = MM->sysctl.dirty_ratio;
	if (dirty_ratio < 5)
		dirty_ratio = 5;
	int bg_ratio = MM->sysctl.dirty_background_ratio;
	if (bg_ratio >= dirty_ratio)
		bg_ratio = dirty_ratio / 2;
	*background = bg_ratio * avail / 100;
	*dirty = dirty_ratio * avail / 100;
}

/* get_dirty_limits with the bdi: its share of the dirty threshold by its share of recent
 * writeback completions (bdi min_ratio 0, max_ratio 100: the defaults), clipped to what
 * is left of the global limit (clip_bdi_dirty_limit), less up to 1/8 for a task doing most
 * of the dirtying (task_dirty_limit). */
void get_dirty_limits_bdi(long *background, long *dirty, long *bdi_dirty)
{
	get_dirty_limits(background, dirty);
	long num, den;
	prop_fraction(&MM->vm_completions, &MM->bdi.completions, &num, &den);
	long d = (long)((uint64_t)*dirty * (uint64_t)num / (uint64_t)den);
	long avail = *dirty - (global_page_state(NR_FILE_DIRTY) + global_page_state(NR_WRITEBACK) +
			       global_page_state(NR_UNSTABLE_NFS));
	if (avail < 0)
		avail = 0;
	avail += global_page_state(NR_FILE_DIRTY) + MM->bdi.nr_writeback;
	if (d > avail)
		d = avail;
	prop_fraction(&MM->vm_dirties,
		      current && current->mm ? &current->mm->dirties : &MM->kthread_dirties, &num,
		      &den);
	long t = d - (long)((uint64_t)(d >> 3) * (uint64_t)num / (uint64_t)den);
	*bdi_dirty = t < d / 2 ? d / 2 : t;
}

/* calc_period_shift: a proportion period is about the dirty limit's worth of events. */
static int calc_period_shift(void)
{
	unsigned long dirty_total =
	    (unsigned long)MM->sysctl.dirty_ratio * determine_dirtyable_memory() / 100;
	int lg = 0;
	for (unsigned long v = dirty_total > 1 ? dirty_total - 1 : 1; v > 1; v >>= 1)
		lg++;
	return 2 + lg;
}

/* writeback_set_ratelimit: vm_total_pages / (32 per CPU), at least 16, at most 4 MiB. */
static long writeback_ratelimit(void)
{
	long r = (long)MM->vm_total_pages / (sched_ncpus() * 32);
	if (r < 16)
		r = 16;
	if (r * (long)MM->page_size > 4096 * 1024)
		r = 4096 * 1024 / (long)MM->page_size;
	return r;
}

/* page_writeback_init, at boot: the ratelimit and the proportions' period, from the
 * dirtyable memory and the dirty ratio the scenario sets (as dirty_ratio_handler would
 * recompute it when the sysctl is written). */
void page_writeback_init(void)
{
	MM->ratelimit_pages = writeback_ratelimit();
	int shift = calc_period_shift();
	prop_init(&MM->vm_completions, shift);
	prop_init(&MM->vm_dirties, shift);
}

long writeback_ratelimit_pages(void)
{
	return MM->ratelimit_pages;
}

/* Writes up to nr dirty file pages, oldest-dirtied files first, each file in page order.
 * older_than != 0 limits it to files dirtied before that time (kupdate). Returns pages
 * written. The flusher stops early when the disk is congested and `nonblocking`.
 * A file being written is off the list (the kernel's I_SYNC inode on s_io): a concurrent
 * pass, which may run while this one sleeps for a request slot, skips it as
 * __writeback_single_inode's requeue_io does for WB_SYNC_NONE. */
static long writeback_inodes(long nr, sim_time_t older_than, bool nonblocking, bool *congested)
{
	long written = 0;
	struct address_space *f;
	/* generic_sync_sb_inodes takes each inode once a call: it works through s_io, and an
	 * inode it puts back goes to s_dirty or s_more_io, not s_io; a file requeued here
	 * comes round again only in a later call */
	uint64_t pass = ++MM->wb_passes;
	while ((f = MM->dirty_files) && written < nr && f->wb_pass != pass) {
		if (older_than && f->dirtied_when > older_than)
			break;
		f->wb_pass = pass;
		if (nonblocking && bdi_write_congested(&MM->disk)) {
			if (congested)
				*congested = true;
			break;
		}
		MM->dirty_files = f->dirty_next;
		if (!MM->dirty_files)
			MM->dirty_files_tail = NULL;
		f->dirty_next = NULL;
		uint64_t scanned = 0;
		bool stop = false;
		while (f->nr_dirty && written < nr && scanned < f->cap_pages) {
			uint64_t i = f->wb_cursor;
			/* a chunk of the index never used holds no page: step over it at once */
			uint64_t next = page_index_next(f, i);
			if (next != i) {
				uint64_t skip = MIN(next - i, f->cap_pages - scanned);
				scanned += skip;
				f->wb_cursor = i + skip >= f->cap_pages ? 0 : i + skip;
				continue;
			}
			if (++f->wb_cursor >= f->cap_pages)
				f->wb_cursor = 0;
			scanned++;
			pfn_t pfn = page_index_lookup(f, i);
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
				stop = true;
				break;
			}
		}
		if (!f->nr_dirty) { /* clean: off the dirty list */
			f->on_dirty_list = false;
			inode_sync_complete(f);
		} else if (stop || !MM->dirty_files) {
			dirty_list_add_head(f); /* still the oldest */
			break;
		} else { /* requeue at the tail, as redirty_tail does */
			f->dirtied_when = local_now();
			dirty_list_add_tail(f);
		}
	}
	return written;
}

/* balance_dirty_pages (2.6.28): while the device's dirty and writeback pages exceed its
 * threshold, and the global ones are past the midpoint of the background and dirty
 * thresholds, the dirtier writes back up to a chunk itself and waits for congestion to
 * ease. */
static void balance_dirty_pages(void)
{
	long pages_written = 0;
	long write_chunk = MM->ratelimit_pages + MM->ratelimit_pages / 2; /* sync_writeback_pages */
	long bg, dirty, bdi_thresh;
	long bdi_nr_reclaimable = 0, bdi_nr_writeback = 0;
	for (;;) {
		get_dirty_limits_bdi(&bg, &dirty, &bdi_thresh);
		long nr_reclaimable =
		    global_page_state(NR_FILE_DIRTY) + global_page_state(NR_UNSTABLE_NFS);
		long nr_writeback = global_page_state(NR_WRITEBACK);
		bdi_nr_reclaimable = global_page_state(NR_FILE_DIRTY);
		bdi_nr_writeback = MM->bdi.nr_writeback;
		if (bdi_nr_reclaimable + bdi_nr_writeback <= bdi_thresh)
			break;
		/* throttle only when background writeback cannot catch up */
		if (nr_reclaimable + nr_writeback < (bg + dirty) / 2)
			break;
		MM->bdi.dirty_exceeded = true;
		if (bdi_nr_reclaimable) {
			pages_written += writeback_inodes(write_chunk, 0, false, NULL);
			get_dirty_limits_bdi(&bg, &dirty, &bdi_thresh);
			bdi_nr_reclaimable = global_page_state(NR_FILE_DIRTY);
			bdi_nr_writeback = MM->bdi.nr_writeback;
		}
		if (bdi_nr_reclaimable + bdi_nr_writeback <= bdi_thresh)
			break;
		if (pages_written >= write_chunk)
			break;
		congestion_wait(WRITE, HZ / 10 * JIFFY_NS);
	}
	if (bdi_nr_reclaimable + bdi_nr_writeback < bdi_thresh && MM->bdi.dirty_exceeded)
		MM->bdi.dirty_exceeded = false;
	if (MM->flusher_busy) /* writeback_in_progress: pdflush works this queue */
		return;
	if (global_page_state(NR_FILE_DIRTY) + global_page_state(NR_UNSTABLE_NFS) > bg &&
	    MM->flusher)
		wake_up_one(&MM->flusher_wait); /* pdflush_operation(background_writeout, 0) */
}

/* balance_dirty_pages_ratelimited_nr(mapping, 1): a per-CPU count of pages dirtied, every
 * ratelimit_pages (8 while the device's limit is exceeded) a balance_dirty_pages. */
void balance_dirty_pages_ratelimited(struct address_space *f)
{
	(void)f;
	long ratelimit = MM->bdi.dirty_exceeded ? 8 : MM->ratelimit_pages;
	long *p = &MM->dirty_ratelimits[this_cpu()];
	if (++*p >= ratelimit) {
		*p = 0;
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
			if (nr_dirty < bg && MM->flusher_nr_pages <= 0)
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
	for (uint64_t i = page_index_next(f, 0); i < f->cap_pages; i = page_index_next(f, i + 1)) {
		pfn_t pfn = page_index_lookup(f, i);
		if (pfn == NO_PFN)
			continue;
		struct page *p = pfn_to_page(pfn);
		if (!(p->flags & PG_dirty))
			continue;
		p->pins++;
		lock_page(pfn);
		p->pins--;
		if (page_index_lookup(f, i) != pfn || !clear_page_dirty_for_io(pfn)) {
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
	for (uint64_t i = page_index_next(f, 0); i < f->cap_pages; i = page_index_next(f, i + 1)) {
		pfn_t pfn = page_index_lookup(f, i);
		if (pfn != NO_PFN && (pfn_to_page(pfn)->flags & PG_writeback))
			wait_on_page_writeback(pfn);
	}
	return 0;
}
