/* Where the 2004 swap token is contended (kernel-reclaim.md §4.1; 2.6.9 mm/memory.c
 * do_swap_page and mm/filemap.c filemap_nopage), through a process's own faults:
 *  - a swap-in grabs the token (and counts its major fault) as soon as its read is
 *    started, while the page is still locked for the I/O;
 *  - a file fault grabs it only on filemap_nopage's no_cached_page path, taken once the
 *    file has missed MMAP_LOTSAMISS (100) more often than it hit; a fault served by
 *    read-around contends for nothing. */
#include "util/testutil.h"

#include "kernel/process.h"
#include "mm/policy/swap_token.h"
#include "mm/vmstat.h"

static void boot(void)
{
	test_machine_boot("p3-2004", 32ULL << 20, 16ULL << 20, 0);
	MM->sysctl.swap_token = SWAP_TOKEN_ORIGINAL;
	mm_sysctl_apply();
	mm_start_kthreads();
}

static void shutdown(void)
{
	kernel_shutdown();
	MM->sysctl.swap_token = SWAP_TOKEN_OFF;
	mm_sysctl_apply();
	test_machine_shutdown();
}

/* ---- swap-in ---- */

static struct mm_struct *faulter_mm;
static uint32_t slot;
static bool faulted, seen_in_flight, held_in_flight;
static uint64_t majors_in_flight;

static void faulter(void *arg)
{
	(void)arg;
	uint64_t at = sys_mmap_anon(4, VM_READ | VM_WRITE);
	sys_touch(at, TOUCH_WRITE);
	struct vm_area_struct *vma = find_vma(current->mm, at);
	pfn_t pfn = vma->pte[0] & PTE_PFN_MASK;
	/* reclaim's work by hand: to swap, unmapped, written, and dropped from the swap cache */
	vma->pte[0] &= ~PTE_YOUNG;
	assert_true(add_to_swap(pfn));
	assert_int_equal(try_to_unmap(pfn), SWAP_SUCCESS);
	pfn_to_page(pfn)->flags &= ~PG_dirty;
	slot = (uint32_t)pfn_to_page(pfn)->private;
	delete_from_swap_cache(pfn);
	release_user_page(pfn);
	faulter_mm = current->mm;
	sys_sleep(NSEC_PER_MSEC); /* the first check is due after time 0 */
	sys_touch(at, TOUCH_READ);
	faulted = true;
	sys_sleep(NSEC_PER_SEC);
	sys_exit(0);
}

/* Looks at the token while the faulter's read is in flight. */
static void watcher(void *arg)
{
	(void)arg;
	while (!faulted) {
		pfn_t pfn = slot ? lookup_swap_cache(slot) : NO_PFN;
		if (pfn != NO_PFN && (pfn_to_page(pfn)->flags & PG_locked)) {
			seen_in_flight = true;
			held_in_flight = swap_token_holder() == faulter_mm;
			majors_in_flight = vm_events[PGMAJFAULT];
			break;
		}
		sys_sleep(10 * 1000); /* 10 us */
	}
	sys_exit(0);
}

static void swapin_grabs_when_the_read_starts(void **state)
{
	(void)state;
	boot();
	faulter_mm = NULL;
	slot = 0;
	faulted = seen_in_flight = held_in_flight = false;
	majors_in_flight = 0;
	assert_non_null(process_spawn("faulter", faulter, NULL));
	assert_non_null(process_spawn("watcher", watcher, NULL));
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_true(faulted);
	assert_true(seen_in_flight);
	assert_true(held_in_flight);
	assert_int_equal(majors_in_flight, 1);
	shutdown();
}

/* ---- file faults ---- */

static struct address_space *file;
static bool after_readaround, hit_counted, below_limit, past_limit;

static void reader(void *arg)
{
	(void)arg;
	uint64_t at = sys_mmap_file(file, 0, 512, VM_READ);
	struct vm_area_struct *vma = find_vma(current->mm, at);
	sys_sleep(NSEC_PER_MSEC);
	/* a miss: read around, no token */
	sys_touch(at, TOUCH_READ);
	after_readaround = vma->mmap_miss == 1 && swap_token_holder() == NULL;
	/* page 1 came in with the read-around: a hit */
	sys_touch(at + 1, TOUCH_READ);
	hit_counted = vma->mmap_hit == 1 && vma->mmap_miss == 1;
	/* 101 misses against 1 hit: not more than 100 more -> still read-around */
	vma->mmap_miss = 100;
	sys_touch(at + 300, TOUCH_READ);
	below_limit = swap_token_holder() == NULL;
	/* 102 against 1: no_cached_page, page_cache_read, grab_swap_token */
	sys_touch(at + 400, TOUCH_READ);
	past_limit = swap_token_holder() == current->mm;
	sys_exit(0);
}

static void file_fault_grabs_only_on_no_cached_page(void **state)
{
	(void)state;
	boot();
	file = file_create("data", 512, 512, false);
	after_readaround = hit_counted = below_limit = past_limit = false;
	assert_non_null(process_spawn("reader", reader, NULL));
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_true(after_readaround);
	assert_true(hit_counted);
	assert_true(below_limit);
	assert_true(past_limit);
	shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(swapin_grabs_when_the_read_starts),
	    cmocka_unit_test(file_fault_grabs_only_on_no_cached_page),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
