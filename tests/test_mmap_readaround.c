/* File faults and their readahead, per era: 2.6.28's read-around in filemap_fault and
 * 2.6.31's do_sync/do_async_mmap_readahead (mm/filemap.c, mm/readahead.c at v2.6.28 and
 * v2.6.31), on a 1 MB file (256 pages) with ra_pages 32 and nothing cached. */
#include "mm/era/era.h"
#include "mm/filemap.h"
#include "mm/task.h"
#include "util/testutil.h"

static struct {
	struct address_space *f;
	struct mm_struct *mm;
	struct vm_area_struct *vma;
	uint64_t start;
	const uint64_t *pgoff;
	int n;
	int rc[256];
	uint64_t majflt[256]; /* PGMAJFAULT after each fault */
} T;

static void boot_on(const char *profile, uint64_t ram, int sync_readahead)
{
	test_machine_boot(profile, ram, 0, 0);
	MM->sysctl.mmap_sync_readahead = sync_readahead;
	MM->sysctl.unmap_mark_accessed = sync_readahead; /* 2.6.31 has both */
	mm_sysctl_apply();
	T.f = file_create("lib", 256, 256, true);
	T.mm = mm_alloc();
	T.start = do_mmap(T.mm, 256, VM_READ | VM_EXEC, T.f, 0);
	T.vma = find_vma(T.mm, T.start);
}

static void boot(int sync_readahead)
{
	boot_on("x86_64-2008", 64ULL << 20, sync_readahead);
}

static void faulter(void *arg)
{
	(void)arg;
	for (int i = 0; i < T.n; i++) {
		T.rc[i] = handle_mm_fault(T.mm, T.vma, T.start + T.pgoff[i], TOUCH_READ);
		T.majflt[i] = vm_events[PGMAJFAULT];
	}
}

/* Takes the faults in a task (they wait for their reads) and lets every read finish. */
static void fault(const uint64_t *pgoff, int n)
{
	T.pgoff = pgoff;
	T.n = n;
	task_start(&task_struct_create("faulter", faulter, NULL, false)->task);
	sched_run(sim_clock + 10 * NSEC_PER_SEC, NULL);
	for (int i = 0; i < n; i++)
		assert_int_equal(T.rc[i], 0);
}

static bool cached(uint64_t i)
{
	return page_index_lookup(T.f, i) != NO_PFN;
}

/* Exactly [lo, hi) of the file is cached, on the inactive file list, unlocked; none but
 * `mapped` is mapped, and PG_readahead is on `marked` alone (UINT64_MAX: none). */
static void assert_cached(uint64_t lo, uint64_t hi, uint64_t mapped, uint64_t marked)
{
	for (uint64_t i = 0; i < 256; i++) {
		if (i < lo || i >= hi) {
			assert_false(cached(i));
			continue;
		}
		assert_true(cached(i));
		struct page *p = pfn_to_page(page_index_lookup(T.f, i));
		assert_int_equal(page_lru(p), LRU_INACTIVE_FILE);
		assert_false(p->flags & (PG_locked | PG_active));
		assert_int_equal(p->mapcount, i == mapped ? 1 : 0);
		assert_int_equal(!!(p->flags & PG_readahead), i == marked);
	}
}

static void shutdown(void)
{
	exit_mmap(T.mm);
	test_machine_shutdown();
}

/* 2.6.28: a fault at page 128 reads pages 112..143 (pgoff - ra_pages / 2, ra_pages long),
 * counts one major fault and marks only the faulting page referenced; a fault on a page the
 * read-around brought in is minor and takes mmap_miss back to 0. */
static void readaround_2628(void **state)
{
	(void)state;
	boot(0);
	static const uint64_t pg[] = {128, 140};
	fault(pg, 1);
	assert_cached(112, 144, 128, UINT64_MAX);
	assert_int_equal(T.majflt[0], 1);
	assert_int_equal(T.vma->ra->mmap_miss, 1);
	for (uint64_t i = 112; i < 144; i++)
		assert_int_equal(!!(pfn_to_page(page_index_lookup(T.f, i))->flags & PG_referenced),
				 i == 128);
	fault(pg + 1, 1);
	assert_int_equal(T.majflt[0], 1);
	assert_int_equal(T.vma->ra->mmap_miss, 0);
	assert_int_equal(vm_events[PGPGIN], 32 * 4); /* KiB */
	shutdown();
}

/* The window is clipped at the start and at the end of the file. */
static void readaround_clipped_2628(void **state)
{
	(void)state;
	boot(0);
	static const uint64_t pg[] = {5};
	fault(pg, 1);
	assert_cached(0, 32, 5, UINT64_MAX);
	shutdown();
	boot(0);
	static const uint64_t pg2[] = {250};
	fault(pg2, 1);
	assert_cached(234, 256, 250, UINT64_MAX);
	shutdown();
}

/* 2.6.28: past MMAP_LOTSAMISS more misses than hits, a miss reads its page alone and is not
 * counted as major; the count does not move (page_cache_read, then the hit that follows,
 * which lowers it). One hit lets the next miss read around again. */
static void lotsamiss_2628(void **state)
{
	(void)state;
	boot(0);
	T.vma->ra->mmap_miss = MMAP_LOTSAMISS;
	static const uint64_t pg[] = {128, 200, 200};
	fault(pg, 1);
	assert_cached(128, 129, 128, UINT64_MAX);
	assert_int_equal(T.majflt[0], 0);
	assert_int_equal(T.vma->ra->mmap_miss, MMAP_LOTSAMISS);
	/* a hit on a page cached but not mapped here */
	T.vma->pte[128] = 0;
	page_remove_rmap(page_index_lookup(T.f, 128), T.vma, 128);
	fault(pg, 1);
	assert_int_equal(T.vma->ra->mmap_miss, MMAP_LOTSAMISS - 1);
	fault(pg + 1, 1);
	assert_int_equal(T.majflt[0], 1);
	assert_true(cached(184) && cached(215) && !cached(183) && !cached(216));
	shutdown();
}

/* 2.6.31: a fault in the middle reads the same 32 pages (ra->start = offset - ra_pages / 2,
 * async_size 0: no PG_readahead) and leaves the page unmarked (the young PTE stands for the
 * use from 2.6.29). */
static void readaround_2631(void **state)
{
	(void)state;
	boot(1);
	static const uint64_t pg[] = {128};
	fault(pg, 1);
	assert_cached(112, 144, 128, UINT64_MAX);
	assert_int_equal(T.majflt[0], 1);
	assert_false(pfn_to_page(page_index_lookup(T.f, 128))->flags & PG_referenced);
	assert_int_equal(T.vma->ra->start, 112);
	assert_int_equal(T.vma->ra->size, 32);
	assert_int_equal(T.vma->ra->async_size, 0);
	shutdown();
}

/* 2.6.31: past MMAP_LOTSAMISS a miss reads its page alone but still counts as major, and
 * the count stays (capped misses, no hit on the retry); a hit lowers it, floored at 0. */
static void lotsamiss_2631(void **state)
{
	(void)state;
	boot(1);
	T.vma->ra->mmap_miss = MMAP_LOTSAMISS;
	static const uint64_t pg[] = {128};
	fault(pg, 1);
	assert_cached(128, 129, 128, UINT64_MAX);
	assert_int_equal(T.majflt[0], 1);
	assert_int_equal(T.vma->ra->mmap_miss, MMAP_LOTSAMISS + 1);
	T.vma->pte[128] = 0;
	page_remove_rmap(page_index_lookup(T.f, 128), T.vma, 128);
	T.vma->ra->mmap_miss = 0;
	fault(pg, 1);
	assert_int_equal(T.vma->ra->mmap_miss, 0);
	assert_int_equal(T.majflt[0], 1);
	shutdown();
}

/* 2.6.31: a miss right after a fault on the page before is a sequential one: on-demand
 * readahead from the fault (initial window get_init_ra_size(32, 32) = 32, async 32, and as
 * that would hit its own mark at once, the next 32 with it: 64 pages, PG_readahead on the
 * 33rd). A file's first fault at page 0 counts as such (prev_pos starts at -1). */
static void sequential_2631(void **state)
{
	(void)state;
	boot(1);
	static const uint64_t pg[] = {0};
	fault(pg, 1);
	assert_cached(0, 64, 0, 32);
	assert_int_equal(T.vma->ra->mmap_miss, 0);
	shutdown();

	/* 144 after 128 (not after 143) is no sequential miss: a second read-around, 128..159,
	 * of which 144..159 are new */
	boot(1);
	static const uint64_t pg2[] = {128, 144};
	fault(pg2, 2);
	for (uint64_t i = 0; i < 256; i++)
		assert_int_equal(cached(i), i >= 112 && i < 160);
	assert_int_equal(T.majflt[1], 2);
	assert_int_equal(vm_events[PGPGIN], 48 * 4);
	shutdown();

	/* 129 right after 128 (cached by 128's read-around) is a hit, not a miss: no
	 * readahead; 144 right after 143 is a sequential miss at the expected next window
	 * (ra->start + ra->size - ra->async_size = 144): start 144, size 32, async 32, which
	 * would hit its own mark at once, so 32 more: 144..207, PG_readahead on 176 */
	boot(1);
	static const uint64_t pg3[] = {128, 143, 144};
	fault(pg3, 3);
	for (uint64_t i = 0; i < 256; i++)
		assert_int_equal(cached(i), i >= 112 && i < 208);
	for (uint64_t i = 144; i < 208; i++)
		assert_int_equal(!!(pfn_to_page(page_index_lookup(T.f, i))->flags & PG_readahead),
				 i == 176);
	assert_int_equal(T.majflt[2], 2);
	shutdown();
}

/* The window is the files' backing_dev_info.ra_pages: an NFS root's rpages * 15 with
 * nfsroot's 4 KiB rsize (nfs_server_set_fsinfo), so a fault at 128 reads 121..135 in both
 * eras, and counts nothing in pgpgin (an RPC, not a bio); a block device's 128 KiB, which
 * is 2 pages of 64 KiB (ia64): 127..128. */
static void window_is_the_devices_ra_pages(void **state)
{
	(void)state;
	for (int sync = 0; sync <= 1; sync++) {
		boot_on("x86_64-2009-nfsroot", 64ULL << 20, sync);
		assert_int_equal(MM->ra_pages, 15);
		static const uint64_t pg[] = {128};
		fault(pg, 1);
		assert_cached(121, 136, 128, UINT64_MAX);
		assert_int_equal(T.majflt[0], 1);
		/* an NFS READ is an RPC, not a bio: submit_bio's pgpgin never sees it */
		assert_int_equal(vm_events[PGPGIN], 0);
		shutdown();

		boot_on("ia64-2008", 512ULL << 20, sync);
		assert_int_equal(MM->ra_pages, 2);
		fault(pg, 1);
		assert_cached(127, 129, 128, UINT64_MAX);
		assert_int_equal(vm_events[PGPGIN], 2 * 64); /* KiB */
		shutdown();
	}
	/* read()'s and a sequential fault's on-demand window ramps up to it and no further */
	boot_on("x86_64-2009-nfsroot", 64ULL << 20, 1);
	static const uint64_t seq[] = {0};
	fault(seq, 1);
	for (uint64_t i = 0; i < 256; i++)
		assert_int_equal(cached(i), i < 30);
	shutdown();
}

/* kernel.version chooses the rule: 2.6.30 reads around in filemap_fault, 2.6.31 through
 * do_sync_mmap_readahead. */
static void follows_kernel_version(void **state)
{
	(void)state;
	const struct {
		const char *v;
		int on;
	} cases[] = {{"2.6.8-rc2", 0}, {"2.6.28", 0}, {"2.6.30", 0}, {"2.6.31-rc", 1}, {"3.0", 1}};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vm_sysctl s;
		kernel_version_t v = 0;
		assert_int_equal(kernel_version_parse(cases[i].v, &v), 0);
		kernel_version_defaults(v, &s);
		assert_int_equal(s.mmap_sync_readahead, cases[i].on);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(readaround_2628),
	    cmocka_unit_test(readaround_clipped_2628),
	    cmocka_unit_test(lotsamiss_2628),
	    cmocka_unit_test(readaround_2631),
	    cmocka_unit_test(lotsamiss_2631),
	    cmocka_unit_test(sequential_2631),
	    cmocka_unit_test(follows_kernel_version),
	    cmocka_unit_test(window_is_the_devices_ra_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
