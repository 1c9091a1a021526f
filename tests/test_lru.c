/* LRU moves (kernel-reclaim.md §1.3, §1.4): insertion lists, the mark_page_accessed state
 * machine, activation, rotation to the inactive tail, isolation and putback. */
#include "util/testutil.h"

static struct zone *Z(pfn_t pfn)
{
	return page_zone(pfn_to_page(pfn));
}

static void setup(struct address_space **f)
{
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	*f = file_create("f", 64, 64, false);
}

static void file_pages_enter_inactive(void **state)
{
	(void)state;
	struct address_space *f;
	setup(&f);
	long before = Z(0)->stat[NR_INACTIVE_FILE];
	pfn_t a = test_file_page(f, 0);
	struct page *p = pfn_to_page(a);
	assert_true(p->flags & PG_lru);
	assert_false(p->flags & PG_active);
	assert_int_equal(page_lru(p), LRU_INACTIVE_FILE);
	assert_int_equal(Z(a)->stat[NR_INACTIVE_FILE], before + 1);
	assert_int_equal(Z(a)->lru[LRU_INACTIVE_FILE].head, a); /* at the head */
	test_machine_shutdown();
}

static void mark_page_accessed_states(void **state)
{
	(void)state;
	struct address_space *f;
	setup(&f);
	pfn_t a = test_file_page(f, 0);
	struct page *p = pfn_to_page(a);
	uint64_t act = vm_events[PGACTIVATE];
	/* inactive, unreferenced -> inactive, referenced */
	mark_page_accessed(a);
	assert_true(p->flags & PG_referenced);
	assert_false(p->flags & PG_active);
	/* inactive, referenced -> active, unreferenced */
	mark_page_accessed(a);
	assert_false(p->flags & PG_referenced);
	assert_true(p->flags & PG_active);
	assert_int_equal(page_lru(p), LRU_ACTIVE_FILE);
	assert_int_equal(vm_events[PGACTIVATE], act + 1);
	/* scanned once joining the LRU, once more with the rotation */
	assert_int_equal(Z(a)->recent_rotated[1], 1);
	assert_int_equal(Z(a)->recent_scanned[1], 2);
	/* active, unreferenced -> active, referenced; then stays */
	mark_page_accessed(a);
	assert_true(p->flags & PG_referenced);
	mark_page_accessed(a);
	assert_true(p->flags & PG_referenced);
	assert_true(p->flags & PG_active);
	assert_int_equal(vm_events[PGACTIVATE], act + 1);
	test_machine_shutdown();
}

/* 2.6.28's write() (generic_perform_write) does not mark the page accessed (2.6.31 added
 * it): a page written twice stays inactive and unreferenced. */
static void write_does_not_mark_accessed(void **state)
{
	(void)state;
	struct address_space *f;
	setup(&f);
	assert_int_equal(file_write(f, 0, 1), 0);
	assert_int_equal(file_write(f, 0, 1), 0);
	struct page *p = pfn_to_page(page_index_lookup(f, 0));
	assert_true(p->flags & PG_dirty);
	assert_false(p->flags & (PG_referenced | PG_active));
	assert_int_equal(page_lru(p), LRU_INACTIVE_FILE);
	test_machine_shutdown();
}

static void rotate_to_tail(void **state)
{
	(void)state;
	struct address_space *f;
	setup(&f);
	pfn_t a = test_file_page(f, 0);
	pfn_t b = test_file_page(f, 1);
	struct zone *z = Z(a);
	/* b was added last: head is b, tail is a */
	assert_int_equal(z->lru[LRU_INACTIVE_FILE].head, b);
	uint64_t rot = vm_events[PGROTATED];
	rotate_reclaimable_page(b);
	assert_int_equal(z->lru[LRU_INACTIVE_FILE].tail, b);
	assert_int_equal(vm_events[PGROTATED], rot + 1);
	/* a dirty or active page is not rotated */
	pfn_to_page(a)->flags |= PG_dirty;
	rotate_reclaimable_page(a);
	assert_int_equal(z->lru[LRU_INACTIVE_FILE].tail, b);
	pfn_to_page(a)->flags &= ~PG_dirty;
	test_machine_shutdown();
}

static void isolate_and_putback(void **state)
{
	(void)state;
	struct address_space *f;
	setup(&f);
	pfn_t pages[5];
	for (int i = 0; i < 5; i++)
		pages[i] = test_file_page(f, (uint64_t)i);
	struct zone *z = Z(pages[0]);
	long inactive = z->stat[NR_INACTIVE_FILE];
	struct pagelist list;
	pagelist_init(&list);
	unsigned long scanned;
	unsigned long taken =
	    isolate_lru_pages(3, z, LRU_INACTIVE_FILE, &list, &scanned, 0, ISOLATE_INACTIVE);
	assert_int_equal(taken, 3);
	assert_int_equal(scanned, 3);
	/* taken from the tail: the three oldest */
	for (int i = 0; i < 3; i++) {
		struct page *p = pfn_to_page(pages[i]);
		assert_false(p->flags & PG_lru);
		assert_true(p->flags & PG_isolated);
	}
	assert_int_equal(z->stat[NR_INACTIVE_FILE], inactive - 3);
	assert_int_equal(z->stat[NR_ISOLATED_FILE], 3);
	assert_int_equal(mm_check_invariants(), 0);
	/* putback goes to the head of the list the flags name */
	pfn_to_page(pages[1])->flags |= PG_active;
	while (list.nr)
		putback_lru_page(pagelist_pop_tail(&list));
	assert_int_equal(z->stat[NR_ISOLATED_FILE], 0);
	assert_int_equal(z->stat[NR_INACTIVE_FILE], inactive - 1);
	assert_int_equal(page_lru(pfn_to_page(pages[1])), LRU_ACTIVE_FILE);
	test_machine_shutdown();
}

static void orphan_freed_at_putback(void **state)
{
	(void)state;
	struct address_space *f;
	setup(&f);
	struct mm_struct *mm = mm_alloc();
	uint64_t start = do_mmap(mm, 16, VM_READ | VM_WRITE, NULL, 0);
	struct vm_area_struct *vma = find_vma(mm, start);
	pfn_t a = test_anon_page(vma, 0, false, false);
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(a, &list);
	long free_before = test_zone_free(Z(a));
	/* the process unmaps it while a reclaimer holds it: not freed yet */
	exit_mmap(mm);
	assert_true(pfn_to_page(a)->flags & PG_isolated);
	assert_int_equal(mm_check_invariants(), 0);
	/* exit_mmap freed the page-table pages (PTE page and upper levels), not the page */
	long free_after_exit = test_zone_free(Z(a));
	assert_true(free_after_exit > free_before);
	assert_false(test_page_free(a));
	putback_lru_page(pagelist_pop_tail(&list));
	assert_true(test_page_free(a));
	assert_int_equal(test_zone_free(Z(a)), free_after_exit + 1);
	test_machine_shutdown();
}

/* ____pagevec_lru_add (2.6.28, update_page_reclaim_stat in 2.6.31): every page joining an
 * LRU counts in its type's recent_scanned, and one joining an active list in recent_rotated
 * too, which get_scan_ratio reads. A putback by reclaim does not (2.6.28 and 2.6.31
 * shrink_inactive_list and shrink_active_list add to the lists directly). */
static void lru_add_counts_in_reclaim_stat(void **state)
{
	(void)state;
	struct address_space *f;
	setup(&f);
	struct mm_struct *mm = mm_alloc();
	uint64_t start = do_mmap(mm, 16, VM_READ | VM_WRITE, NULL, 0);
	struct vm_area_struct *vma = find_vma(mm, start);
	struct zone *z = Z(0);
	z->recent_scanned[0] = z->recent_scanned[1] = 0;
	z->recent_rotated[0] = z->recent_rotated[1] = 0;
	pfn_t a = test_file_page(f, 0); /* page cache: the inactive file list */
	test_file_page(f, 1);
	assert_ptr_equal(Z(a), z);
	assert_int_equal(z->recent_scanned[1], 2);
	assert_int_equal(z->recent_rotated[1], 0);
	pfn_t b = test_anon_page(vma, 0, false, false); /* a new anon page: the active list */
	assert_ptr_equal(Z(b), z);
	assert_int_equal(z->recent_scanned[0], 1);
	assert_int_equal(z->recent_rotated[0], 1);
	assert_int_equal(z->recent_scanned[1], 2);
	/* isolated and put back by a reclaimer: no count */
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(a, &list);
	putback_lru_page(pagelist_pop_tail(&list));
	assert_int_equal(z->recent_scanned[1], 2);
	assert_int_equal(z->recent_rotated[1], 0);
	exit_mmap(mm);
	test_machine_shutdown();
}

/* An address space holds the profile's upper page-table levels from mm_alloc to exit_mmap. */
static void mm_charges_upper_levels(void **state)
{
	(void)state;
	static const char *const profiles[] = {"x86_64-2008", "arm926-2008", "p3-2004"};
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		test_machine_boot(profiles[i], 64ULL << 20, 0, 0);
		long before = global_page_state(NR_PAGETABLE);
		struct mm_struct *mm = mm_alloc();
		assert_int_equal(global_page_state(NR_PAGETABLE) - before,
				 (long)MM->hw->pt_upper_pages);
		assert_true(MM->hw->pt_upper_pages >= 1);
		assert_int_equal(mm_check_invariants(), 0);
		exit_mmap(mm);
		assert_int_equal(global_page_state(NR_PAGETABLE), before);
		test_machine_shutdown();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(file_pages_enter_inactive),
	    cmocka_unit_test(mark_page_accessed_states),
	    cmocka_unit_test(lru_add_counts_in_reclaim_stat),
	    cmocka_unit_test(write_does_not_mark_accessed),
	    cmocka_unit_test(rotate_to_tail),
	    cmocka_unit_test(isolate_and_putback),
	    cmocka_unit_test(orphan_freed_at_putback),
	    cmocka_unit_test(mm_charges_upper_levels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
