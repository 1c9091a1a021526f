/* Shared writable file mappings track their dirty pages from 2.6.19 (kernel.mmap_writenotify,
 * "mm: tracking shared dirty pages"): vma_wants_writenotify maps a clean page write-protected;
 * the first write faults (do_wp_page, or __do_fault for a page not mapped yet) and dirties
 * the page with set_page_dirty_balance, which counts it toward balance_dirty_pages'
 * ratelimit; clear_page_dirty_for_io's page_mkclean write-protects the PTE again, so the
 * next write faults again (mm/memory.c, mm/rmap.c, mm/page-writeback.c at v2.6.28). Without
 * it the write sets only the PTE's dirty bit, found at writeback or unmap. shmem does not
 * account dirty pages and is never write-protected. */
#include "mm/shmem.h"
#include "util/testutil.h"

struct shared_map {
	struct mm_struct *mm;
	struct vm_area_struct *vma;
	uint64_t start;
};

static struct shared_map map_shared(struct address_space *f)
{
	struct shared_map m = {.mm = mm_alloc()};
	m.start = do_mmap(m.mm, 8, VM_READ | VM_WRITE | VM_SHARED, f, 0);
	m.vma = find_vma(m.mm, m.start);
	return m;
}

static struct address_space *boot(int writenotify)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	MM->sysctl.mmap_writenotify = writenotify;
	mm_sysctl_apply();
	struct address_space *f = file_create("data", 8, 8, false);
	test_file_page(f, 2);
	test_file_page(f, 3);
	return f;
}

static long ratelimit_count(void)
{
	return MM->dirty_ratelimits[0];
}

static void writenotify_on(void **state)
{
	(void)state;
	struct address_space *f = boot(1);
	struct shared_map m = map_shared(f);
	pfn_t pfn = page_index_lookup(f, 2);
	struct page *p = pfn_to_page(pfn);
	assert_true(vma_wants_writenotify(m.vma));
	/* a read fault maps the clean page write-protected */
	assert_int_equal(touch_page_slow(m.mm, m.start + 2, TOUCH_READ), 0);
	assert_true(m.vma->pte[2] & PTE_PRESENT);
	assert_true(m.vma->pte[2] & PTE_RDONLY);
	assert_false(p->flags & PG_dirty);
	/* the first write faults and dirties the page, once counted toward the ratelimit */
	long before = ratelimit_count();
	unsigned long faults = vm_events[PGFAULT];
	assert_int_equal(touch_page_slow(m.mm, m.start + 2, TOUCH_WRITE), 0);
	assert_int_equal(vm_events[PGFAULT], faults + 1);
	assert_false(m.vma->pte[2] & PTE_RDONLY);
	assert_true(m.vma->pte[2] & PTE_DIRTY);
	assert_true(p->flags & PG_dirty);
	assert_int_equal(global_page_state(NR_FILE_DIRTY), 1);
	assert_int_equal(f->nr_dirty, 1);
	assert_int_equal(ratelimit_count(), before + 1);
	/* later writes: no fault, nothing counted */
	assert_int_equal(touch_page_slow(m.mm, m.start + 2, TOUCH_WRITE), 0);
	assert_int_equal(vm_events[PGFAULT], faults + 1);
	assert_int_equal(ratelimit_count(), before + 1);
	/* cleaned for I/O: page_mkclean write-protects and cleans the PTE */
	assert_true(clear_page_dirty_for_io(pfn));
	assert_false(p->flags & PG_dirty);
	assert_true(m.vma->pte[2] & PTE_RDONLY);
	assert_false(m.vma->pte[2] & PTE_DIRTY);
	assert_int_equal(global_page_state(NR_FILE_DIRTY), 0);
	assert_false(clear_page_dirty_for_io(pfn)); /* nothing left to clean */
	/* so the next write faults and dirties it again */
	assert_int_equal(touch_page_slow(m.mm, m.start + 2, TOUCH_WRITE), 0);
	assert_int_equal(vm_events[PGFAULT], faults + 2);
	assert_true(p->flags & PG_dirty);
	/* a write fault on a page not mapped yet dirties it at once (__do_fault) */
	assert_int_equal(touch_page_slow(m.mm, m.start + 3, TOUCH_WRITE), 0);
	assert_true(pfn_to_page(page_index_lookup(f, 3))->flags & PG_dirty);
	assert_int_equal(global_page_state(NR_FILE_DIRTY), 2);
	exit_mmap(m.mm);
	test_machine_shutdown();
}

static void writenotify_off(void **state)
{
	(void)state;
	struct address_space *f = boot(0);
	struct shared_map m = map_shared(f);
	pfn_t pfn = page_index_lookup(f, 2);
	struct page *p = pfn_to_page(pfn);
	assert_false(vma_wants_writenotify(m.vma));
	assert_int_equal(touch_page_slow(m.mm, m.start + 2, TOUCH_READ), 0);
	assert_false(m.vma->pte[2] & PTE_RDONLY); /* writable from the start */
	unsigned long faults = vm_events[PGFAULT];
	assert_int_equal(touch_page_slow(m.mm, m.start + 2, TOUCH_WRITE), 0);
	assert_int_equal(vm_events[PGFAULT], faults); /* no fault: the dirty bit only */
	assert_true(m.vma->pte[2] & PTE_DIRTY);
	assert_false(p->flags & PG_dirty);
	assert_int_equal(global_page_state(NR_FILE_DIRTY), 0);
	/* writeback finds the dirty bit and moves it to the page */
	assert_true(clear_page_dirty_for_io(pfn));
	assert_false(m.vma->pte[2] & PTE_DIRTY);
	assert_false(m.vma->pte[2] & PTE_RDONLY);
	exit_mmap(m.mm);
	test_machine_shutdown();
}

/* shmem (a shared anonymous mapping's object) accounts no dirty pages: never write-notified */
static void shmem_is_not_writenotified(void **state)
{
	(void)state;
	boot(1);
	struct address_space *obj = shmem_file_setup("shm", 8, 0);
	struct shared_map m = map_shared(obj);
	assert_false(vma_wants_writenotify(m.vma));
	assert_int_equal(touch_page_slow(m.mm, m.start + 1, TOUCH_READ), 0);
	assert_false(m.vma->pte[1] & PTE_RDONLY);
	exit_mmap(m.mm);
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(writenotify_on),
	    cmocka_unit_test(writenotify_off),
	    cmocka_unit_test(shmem_is_not_writenotified),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
