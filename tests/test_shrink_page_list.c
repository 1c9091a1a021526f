/* shrink_page_list's decision order (kernel-reclaim.md §1.13) on hand-built pages:
 * referenced and mapped -> activate; clean file -> free; dirty anon -> swap out;
 * under writeback -> keep; plus the order between those rules. */
#include "util/testutil.h"
#include <string.h>

struct fixture {
	struct mm_struct *mm;
	struct vm_area_struct *anon, *fvma;
	struct address_space *f;
	struct address_space *plain; /* a file nobody maps */
};

static void boot(struct fixture *fx)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 64ULL << 20, 0);
	fx->mm = mm_alloc();
	fx->anon = find_vma(fx->mm, do_mmap(fx->mm, 64, VM_READ | VM_WRITE, NULL, 0));
	fx->f = file_create("data", 64, 64, false);
	fx->fvma = find_vma(fx->mm, do_mmap(fx->mm, 64, VM_READ, fx->f, 0));
	fx->plain = file_create("plain", 64, 64, false);
}

/* Puts back whatever shrink_page_list kept, and tears down. */
static void finish(struct fixture *fx, struct pagelist *list)
{
	while (list->nr)
		putback_lru_page(pagelist_pop_tail(list));
	assert_int_equal(mm_check_invariants(), 0);
	exit_mmap(fx->mm);
	/* pages still under writeback are fine: the machine is torn down without waiting */
	sched_destroy();
	mm_destroy();
}

static void referenced_mapped_is_activated(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	pfn_t pfn = test_file_page(fx.f, 3);
	test_map(fx.fvma, 3, pfn, true);
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(pfn, &list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	uint64_t act = vm_events[PGACTIVATE];
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_int_equal(list.nr, 1);
	struct page *p = pfn_to_page(pfn);
	assert_true(p->flags & PG_active);
	assert_false(p->flags & PG_locked);
	assert_int_equal(vm_events[PGACTIVATE], act + 1);
	assert_int_equal(sc.nr_scanned, 2); /* mapped: counted twice */
	finish(&fx, &list);
}

static void clean_file_is_freed(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	pfn_t pfn = test_file_page(fx.plain, 5);
	/* PG_referenced alone does not save a page of an unmapped file: use-once */
	pfn_to_page(pfn)->flags |= PG_referenced;
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(pfn, &list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	long cache = global_page_state(NR_FILE_PAGES);
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 1);
	assert_int_equal(list.nr, 0);
	assert_true(test_page_free(pfn));
	assert_int_equal(page_index_lookup(fx.plain, 5), NO_PFN);
	assert_int_equal(global_page_state(NR_FILE_PAGES), cache - 1);
	assert_int_equal(sc.nr_scanned, 1);
	/* the same page of a file someone maps would have been activated instead */
	pfn_t mapped_file_page = test_file_page(fx.f, 5);
	pfn_to_page(mapped_file_page)->flags |= PG_referenced;
	test_isolate(mapped_file_page, &list);
	sc.nr_scanned = 0;
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_true(pfn_to_page(mapped_file_page)->flags & PG_active);
	assert_int_equal(sc.nr_scanned, 1);
	finish(&fx, &list);
}

static void dirty_anon_is_swapped_out(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	pfn_t pfn = test_anon_page(fx.anon, 7, false, true);
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(pfn, &list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	uint64_t out = vm_events[PSWPOUT];
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	struct page *p = pfn_to_page(pfn);
	/* add_to_swap, try_to_unmap, pageout: now under writeback, kept for the next round */
	assert_int_equal(list.nr, 1);
	assert_true(p->flags & PG_swapcache);
	assert_true(p->flags & PG_writeback);
	assert_true(p->flags & PG_reclaim);
	assert_false(p->flags & PG_dirty);
	assert_int_equal(p->mapcount, 0);
	assert_int_equal(fx.anon->pte[7], PTE_SWAP | p->private);
	assert_int_equal(vm_events[PSWPOUT], out + 1);
	assert_int_equal(global_page_state(NR_VMSCAN_WRITE), 1);
	finish(&fx, &list);
}

static void under_writeback_is_kept(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	pfn_t pfn = test_file_page(fx.f, 9);
	struct page *p = pfn_to_page(pfn);
	p->flags |= PG_writeback;
	inc_zone_page_state(p, NR_WRITEBACK);
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(pfn, &list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_int_equal(list.nr, 1);
	assert_false(p->flags & (PG_active | PG_locked));
	assert_true(p->flags & PG_writeback);
	p->flags &= ~PG_writeback;
	dec_zone_page_state(p, NR_WRITEBACK);
	finish(&fx, &list);
}

static void locked_page_is_kept_unscanned(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	pfn_t pfn = test_file_page(fx.f, 11);
	pfn_to_page(pfn)->flags |= PG_locked;
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(pfn, &list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_int_equal(sc.nr_scanned, 0); /* trylock fails before the count */
	assert_true(pfn_to_page(pfn)->flags & PG_locked);
	pfn_to_page(pfn)->flags &= ~PG_locked;
	finish(&fx, &list);
}

static void dirty_referenced_is_kept_not_written(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	/* an unmapped dirty file page with PG_referenced: not activated (not mapped), but
	 * "dirty and referenced" keeps it without starting writeback */
	pfn_t pfn = test_file_page(fx.plain, 13);
	set_page_dirty(pfn);
	pfn_to_page(pfn)->flags |= PG_referenced;
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(pfn, &list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	struct page *p = pfn_to_page(pfn);
	assert_false(p->flags & (PG_active | PG_writeback));
	assert_true(p->flags & PG_dirty);
	/* next round, unreferenced: pageout starts */
	p->flags &= ~PG_referenced;
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_true(p->flags & PG_writeback);
	assert_int_equal(global_page_state(NR_VMSCAN_WRITE), 1);
	finish(&fx, &list);
}

static void no_swap_space_activates(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	MM->swap.nr_free = 0; /* swap full */
	pfn_t pfn = test_anon_page(fx.anon, 1, false, true);
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(pfn, &list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_true(pfn_to_page(pfn)->flags & PG_active);
	MM->swap.nr_free = MM->swap.nr_slots - 1;
	finish(&fx, &list);
}
/* §1.14 step 4: a direct reclaimer (no PF_SWAPWRITE) facing a write-congested disk skips
 * a dirty file page but still writes a dirty swap-cache page, whose bdi (swapper_space's)
 * is never congested; with PF_SWAPWRITE (kswapd) the file page is written too. */
static struct task_struct fake;

static void congestion_stops_file_writes_not_swap(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	memset(&fake, 0, sizeof(fake));
	set_current(&fake);
	MM->disk.congested[WRITE] = true;
	pfn_t anon = test_anon_page(fx.anon, 9, false, true);
	pfn_t file = test_file_page(fx.plain, 9);
	set_page_dirty(file);
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(anon, &list);
	test_isolate(file, &list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	uint64_t out = vm_events[PSWPOUT];
	assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_int_equal(list.nr, 2);
	assert_true(pfn_to_page(anon)->flags & PG_writeback);
	assert_int_equal(vm_events[PSWPOUT], out + 1);
	assert_true(pfn_to_page(file)->flags & PG_dirty);
	assert_false(pfn_to_page(file)->flags & PG_writeback);
	assert_int_equal(global_page_state(NR_VMSCAN_WRITE), 1);

	/* the same file page, by a task with PF_SWAPWRITE */
	struct pagelist one;
	pagelist_init(&one);
	pagelist_del(&list, file);
	pagelist_add(&one, file);
	fake.flags |= PF_SWAPWRITE;
	assert_int_equal(shrink_page_list(&one, &sc, PAGEOUT_IO_ASYNC), 0);
	assert_true(pfn_to_page(file)->flags & PG_writeback);
	assert_int_equal(global_page_state(NR_VMSCAN_WRITE), 2);
	pagelist_add(&list, pagelist_pop_tail(&one));
	set_current(NULL);
	MM->disk.congested[WRITE] = false;
	finish(&fx, &list);
}

/* A referenced swap-cache page goes back to the active list; with swap more than half full
 * 2.6.28 frees its slot there (remove_exclusive_swap_page_ref), 2.6.25 and 2.6.8 do not.
 * 4 slots, the first the header: two in use leave 1 free, 1 * 2 < 4. */
static void activate_frees_swap_when_full(void **state)
{
	(void)state;
	for (int era = 0; era < 3; era++) {
		test_machine_boot("x86_64-2008", 64ULL << 20, 4 * 4096, 0);
		MM->sysctl.reclaim_lru = era; /* 0: 2.6.28's lists, 1: 2.6.25's, 2: 2.6.8's */
		mm_sysctl_apply();
		struct mm_struct *mm = mm_alloc();
		struct vm_area_struct *v =
		    find_vma(mm, do_mmap(mm, 4, VM_READ | VM_WRITE, NULL, 0));
		pfn_t filler = test_anon_page(v, 0, false, true);
		pfn_t pfn = test_anon_page(v, 1, true, true);
		assert_true(add_to_swap(filler) && add_to_swap(pfn));
		assert_true(vm_swap_full());
		struct pagelist list;
		pagelist_init(&list);
		test_isolate(pfn, &list);
		struct scan_control sc = test_direct_sc(DEF_PRIORITY);
		assert_int_equal(shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC), 0);
		struct page *p = pfn_to_page(pfn);
		assert_true(p->flags & PG_active);
		if (era == 0)
			assert_false(p->flags & PG_swapcache);
		else
			assert_true(p->flags & PG_swapcache);
		while (list.nr)
			putback_lru_page(pagelist_pop_tail(&list));
		exit_mmap(mm);
		test_machine_shutdown();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(referenced_mapped_is_activated),
	    cmocka_unit_test(clean_file_is_freed),
	    cmocka_unit_test(dirty_anon_is_swapped_out),
	    cmocka_unit_test(under_writeback_is_kept),
	    cmocka_unit_test(locked_page_is_kept_unscanned),
	    cmocka_unit_test(dirty_referenced_is_kept_not_written),
	    cmocka_unit_test(no_swap_space_activates),
	    cmocka_unit_test(activate_frees_swap_when_full),
	    cmocka_unit_test(congestion_stops_file_writes_not_swap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
