/* 2.6.28's swap-in and fork rules on hand-built pages: do_swap_page keeps the swap slot
 * on a write fault unless swap is more than half full (can_share_swap_page,
 * remove_exclusive_swap_page), shrink_active_list releases slots only from its last
 * pagevec, swapin_readahead reads the allocated run around the slot within the aligned
 * page_cluster window (2.6.8: the run from the window's start), and fork copies no PTEs of
 * a VMA without anon_vma. */
#include "util/testutil.h"

#include <string.h>

struct anon {
	struct mm_struct *mm;
	struct vm_area_struct *vma;
	uint64_t start;
};

static void anon_setup(struct anon *a, uint64_t swap_bytes, uint64_t npages)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, swap_bytes, 0);
	a->mm = mm_alloc();
	a->start = do_mmap(a->mm, npages, VM_READ | VM_WRITE, NULL, 0);
	a->vma = find_vma(a->mm, a->start);
}

/* The page at off goes to swap as reclaim leaves it: a slot, the PTE a swap entry, the
 * page still in the swap cache. Returns its slot. */
static uint32_t swap_out(struct anon *a, uint64_t off)
{
	pfn_t pfn = test_anon_page(a->vma, off, false, true);
	assert_true(add_to_swap(pfn));
	assert_int_equal(try_to_unmap(pfn), SWAP_SUCCESS);
	assert_true(a->vma->pte[off] & PTE_SWAP);
	return (uint32_t)pfn_to_page(pfn)->private;
}

static void teardown(struct anon *a)
{
	exit_mmap(a->mm);
	test_machine_shutdown();
}

static void write_fault_keeps_the_slot(void **state)
{
	(void)state;
	struct anon a;
	anon_setup(&a, 64ULL << 20, 4);
	uint32_t slot = swap_out(&a, 0);
	assert_false(vm_swap_full());
	assert_int_equal(handle_mm_fault(a.mm, a.vma, a.start, TOUCH_WRITE), 0);
	uint32_t pte = a.vma->pte[0];
	pfn_t pfn = pte & PTE_PFN_MASK;
	assert_true(pte & PTE_PRESENT);
	assert_true(pte & PTE_DIRTY);
	assert_false(pte & PTE_RDONLY);
	/* the slot stays the page's, held by the swap cache alone */
	assert_true(pfn_to_page(pfn)->flags & PG_swapcache);
	assert_int_equal(pfn_to_page(pfn)->private, slot);
	assert_int_equal(swap_count(slot), 1);
	teardown(&a);
}

static void read_fault_maps_read_only_and_write_reuses(void **state)
{
	(void)state;
	struct anon a;
	anon_setup(&a, 64ULL << 20, 4);
	uint32_t slot = swap_out(&a, 1);
	assert_int_equal(handle_mm_fault(a.mm, a.vma, a.start + 1, TOUCH_READ), 0);
	uint32_t pte = a.vma->pte[1];
	pfn_t pfn = pte & PTE_PFN_MASK;
	assert_true(pte & PTE_RDONLY); /* a private mapping's vm_page_prot */
	assert_false(pte & PTE_DIRTY);
	/* the write: do_wp_page reuses the page (can_share_swap_page) and keeps the slot */
	assert_int_equal(handle_mm_fault(a.mm, a.vma, a.start + 1, TOUCH_WRITE), 0);
	pte = a.vma->pte[1];
	assert_int_equal(pte & PTE_PFN_MASK, pfn);
	assert_false(pte & PTE_RDONLY);
	assert_true(pte & PTE_DIRTY);
	assert_true(pfn_to_page(pfn)->flags & PG_swapcache);
	assert_int_equal(swap_count(slot), 1);
	teardown(&a);
}

/* 4 slots, the first the header: two in use leave 1 free, 1 * 2 < 4 is vm_swap_full. */
static void full_swap_frees_the_slot_at_fault(void **state)
{
	(void)state;
	struct anon a;
	anon_setup(&a, 4 * 4096, 4);
	uint32_t s0 = swap_out(&a, 0);
	swap_out(&a, 1);
	assert_true(vm_swap_full());
	assert_int_equal(handle_mm_fault(a.mm, a.vma, a.start, TOUCH_READ), 0);
	pfn_t pfn = a.vma->pte[0] & PTE_PFN_MASK;
	struct page *p = pfn_to_page(pfn);
	assert_false(p->flags & PG_swapcache);
	assert_true(p->flags & PG_dirty); /* the only copy of the data now */
	assert_int_equal(swap_count(s0), 0);
	assert_false(vm_swap_full());
	teardown(&a);
}

/* 15 deactivated swap-cache pages with swap full: only the 15 mod 14 = 1 page of the last
 * pagevec loses its slot. */
/* 15 swap-cache pages of a taken off the active list, and shrink_active_putback of all of
 * them as deactivated, with swap full (23 usable slots: 15 in use leave 8, 16 < 24) */
static void deactivate_15_with_swap_full(struct anon *a, pfn_t pfns[15])
{
	struct pagelist inactive, active;
	pagelist_init(&inactive);
	pagelist_init(&active);
	for (int i = 0; i < 15; i++) {
		pfns[i] = test_anon_page(a->vma, (uint64_t)i, false, true);
		assert_true(add_to_swap(pfns[i]));
		test_isolate(pfns[i], &inactive);
	}
	assert_true(vm_swap_full());
	struct zone *z = page_zone(pfn_to_page(pfns[0]));
	shrink_active_putback(z, &inactive, &active, 15);
}

static void active_list_frees_only_the_last_pagevec(void **state)
{
	(void)state;
	struct anon a;
	anon_setup(&a, 24 * 4096, 16);
	pfn_t pfns[15];
	deactivate_15_with_swap_full(&a, pfns);
	int left = 0;
	for (int i = 0; i < 15; i++)
		left += !(pfn_to_page(pfns[i])->flags & PG_swapcache);
	assert_int_equal(left, 1);
	teardown(&a);
}

/* 2.6.30 (vm.deactivate_keeps_swap): the same deactivation frees no slot. */
static void deactivation_keeps_swap_2630(void **state)
{
	(void)state;
	struct anon a;
	anon_setup(&a, 24 * 4096, 16);
	MM->sysctl.deactivate_keeps_swap = 1;
	mm_sysctl_apply();
	pfn_t pfns[15];
	deactivate_15_with_swap_full(&a, pfns);
	for (int i = 0; i < 15; i++)
		assert_true(pfn_to_page(pfns[i])->flags & PG_swapcache);
	teardown(&a);
}

/* page_cluster 3: slot 13's window is 8..15; with 10 free the run is 11..15. */
static void readahead_reads_the_run_around_the_slot(void **state)
{
	(void)state;
	struct anon a;
	anon_setup(&a, 64ULL << 20, 4);
	MM->sysctl.page_cluster = 3;
	struct swap_info *si = &MM->swap;
	for (uint32_t s = 8; s < 17; s++) {
		if (s == 10)
			continue;
		si->swap_map[s] = 1; /* a swap PTE somewhere */
		si->nr_free--;
	}
	bool major = false;
	pfn_t pfn = swapin_readahead(13, &major);
	assert_true(pfn != NO_PFN);
	assert_true(major);
	assert_int_equal(lookup_swap_cache(13), pfn);
	for (uint32_t s = 8; s < 17; s++)
		if (s >= 11 && s <= 15)
			assert_true(lookup_swap_cache(s) != NO_PFN);
		else
			assert_true(lookup_swap_cache(s) == NO_PFN);
	sched_run(sim_clock + NSEC_PER_SEC, NULL); /* the reads complete */
	for (uint32_t s = 11; s <= 15; s++) {
		pfn_t p = lookup_swap_cache(s);
		assert_false(pfn_to_page(p)->flags & PG_locked);
		delete_from_swap_cache(p);
	}
	for (uint32_t s = 8; s < 17; s++) {
		if (s == 10)
			continue;
		si->swap_map[s] = 0;
		si->nr_free++;
	}
	teardown(&a);
}

/* What a swap-in charges the faulting task (KPATH): a fault on a swap entry whose page is
 * in the swap cache swap_fault_ns; a miss, swapin_readahead's set-up once and each page it
 * reads swapin_page_ns (the allocation, LRU add and bio, their own costs, set to 0 here). */
static struct hw_profile priced;

static void price_swapin_only(void)
{
	priced = *MM->hw;
	priced.page_alloc_ns = priced.lru_add_ns = priced.io_submit_ns = 0;
	MM->hw = &priced;
}

static void swapin_charges_its_paths(void **state)
{
	(void)state;
	struct anon a;
	anon_setup(&a, 64ULL << 20, 4);
	price_swapin_only();
	swap_out(&a, 2);
	struct task_struct *t = test_charged_current();
	assert_int_equal(handle_mm_fault(a.mm, a.vma, a.start + 2, TOUCH_READ), 0);
	assert_int_equal(t->task.stime, MM->hw->swap_fault_ns);
	assert_true(MM->hw->swap_fault_ns != MM->hw->fault_ns);
	/* a miss reading slots 11..15 (the run around 13, as above) */
	MM->sysctl.page_cluster = 3;
	struct swap_info *si = &MM->swap;
	for (uint32_t s = 8; s < 17; s++)
		if (s != 10 && !si->swap_map[s]) {
			si->swap_map[s] = 1;
			si->nr_free--;
		}
	t = test_charged_current();
	bool major = false;
	assert_true(swapin_readahead(13, &major) != NO_PFN);
	assert_int_equal(t->task.stime, MM->hw->swapin_ra_ns + 5 * MM->hw->swapin_page_ns);
	set_current(NULL);
	sched_run(sim_clock + NSEC_PER_SEC, NULL);
	for (uint32_t s = 11; s <= 15; s++)
		delete_from_swap_cache(lookup_swap_cache(s));
	for (uint32_t s = 8; s < 17; s++)
		if (s != 10 && si->swap_map[s] == 1) {
			si->swap_map[s] = 0;
			si->nr_free++;
		}
	teardown(&a);
}

/* Slots 8..16 allocated but 10, page_cluster 3, as above, then slots 1..7 but 3. 2.6.8's
 * valid_swaphandles reads from the window's start to its first free slot: for slot 13 the
 * run 8..9, which does not reach it (13 is then read alone); for slot 5 (window 0..7, the
 * header skipped) the run 1..2. */
static void readahead_2_6_8_reads_from_the_window_start(void **state)
{
	(void)state;
	test_machine_boot_kernel("p3-2004", 64ULL << 20, 64ULL << 20, "2.6.8-rc2");
	MM->sysctl.page_cluster = 3;
	struct swap_info *si = &MM->swap;
	for (uint32_t s = 1; s < 17; s++) {
		if (s == 10 || s == 3)
			continue;
		si->swap_map[s] = 1;
		si->nr_free--;
	}
	bool major = false;
	pfn_t pfn = swapin_readahead(13, &major);
	assert_true(pfn != NO_PFN && major);
	for (uint32_t s = 8; s < 17; s++)
		assert_true((lookup_swap_cache(s) != NO_PFN) == (s == 8 || s == 9 || s == 13));
	pfn = swapin_readahead(5, &major);
	assert_true(pfn != NO_PFN && major);
	for (uint32_t s = 1; s < 8; s++)
		assert_true((lookup_swap_cache(s) != NO_PFN) == (s == 1 || s == 2 || s == 5));
	sched_run(sim_clock + NSEC_PER_SEC, NULL); /* the reads complete */
	for (uint32_t s = 1; s < 17; s++) {
		pfn_t p = lookup_swap_cache(s);
		if (p != NO_PFN)
			delete_from_swap_cache(p);
		if (s != 10 && s != 3) {
			si->swap_map[s] = 0;
			si->nr_free++;
		}
	}
	test_machine_shutdown();
}

/* Fork copies the PTEs of a VMA with anonymous pages and none of a file VMA without. */
static void fork_skips_file_vmas_without_anon_vma(void **state)
{
	(void)state;
	struct anon a;
	anon_setup(&a, 64ULL << 20, 4);
	pfn_t anon = test_anon_page(a.vma, 0, true, true);
	struct address_space *f = file_create("lib", 4, 4, true);
	pfn_t fp = test_file_page(f, 0);
	uint64_t fs = do_mmap(a.mm, 4, VM_READ | VM_EXEC, f, 0);
	struct vm_area_struct *fv = find_vma(a.mm, fs);
	test_map(fv, 0, fp, true);
	struct mm_struct *child = dup_mm(a.mm);
	assert_int_equal(pfn_to_page(anon)->mapcount, 2);
	assert_int_equal(pfn_to_page(fp)->mapcount, 1);
	assert_int_equal(find_vma(child, fs)->pte[0], 0);
	assert_true(find_vma(child, a.start)->pte[0] & PTE_PRESENT);
	exit_mmap(child);
	teardown(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(write_fault_keeps_the_slot),
	    cmocka_unit_test(read_fault_maps_read_only_and_write_reuses),
	    cmocka_unit_test(full_swap_frees_the_slot_at_fault),
	    cmocka_unit_test(active_list_frees_only_the_last_pagevec),
	    cmocka_unit_test(deactivation_keeps_swap_2630),
	    cmocka_unit_test(readahead_reads_the_run_around_the_slot),
	    cmocka_unit_test(readahead_2_6_8_reads_from_the_window_start),
	    cmocka_unit_test(swapin_charges_its_paths),
	    cmocka_unit_test(fork_skips_file_vmas_without_anon_vma),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
