/* Fragmentation and lumpy reclaim on hand-built zones (kernel-reclaim.md §1.2, §1.12):
 * an order-1 allocation fails while half the zone is free, and isolate_lru_pages takes the
 * aligned neighbours of its tag page for order > 0. */
#include "util/testutil.h"

/* Every frame of the board's one zone allocated, then every other one freed: half the
 * zone is free and no two free frames are buddies, so the order-0 list holds them all and
 * zone_watermark_ok discounts every one of them at order 1. */
static void order1_fails_with_free_pages(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	struct zone *z = &MM->zones[ZONE_NORMAL];
	static pfn_t taken[1 << 14];
	unsigned long n = 0;
	/* watermarks at 0 for the draining, so that every frame is taken */
	unsigned long marks[3] = {z->pages_min, z->pages_low, z->pages_high};
	z->pages_min = z->pages_low = z->pages_high = 0;
	for (pfn_t p; (p = alloc_kernel_page(OWNER_OTHER_KERNEL, GFP_ATOMIC)) != NO_PFN;)
		taken[n++] = p;
	z->pages_min = marks[0];
	z->pages_low = marks[1];
	z->pages_high = marks[2];
	assert_int_equal(z->stat[NR_FREE_PAGES], 0);
	assert_true(n > 4096);
	assert_true(n < ARRAY_SIZE(taken));
	unsigned long freed = 0;
	for (unsigned long i = 0; i < n; i++)
		if (taken[i] % 2 == 0) {
			free_kernel_page(taken[i]);
			freed++;
		}
	drain_all_pages();
	assert_int_equal(z->stat[NR_FREE_PAGES], (long)freed);
	assert_true(freed > 4 * z->pages_high);
	assert_int_equal(z->free_area[0].nr, freed);
	for (int o = 1; o < MAX_ORDER; o++)
		assert_int_equal(z->free_area[o].nr, 0);
	assert_true(zone_watermark_ok(z, 0, z->pages_low, ZONE_NORMAL, 0));
	assert_false(zone_watermark_ok(z, 1, z->pages_low, ZONE_NORMAL, 0));
	/* no reclaim possible (atomic): the order-1 request fails, an order-0 one does not */
	uint64_t failures = MM->rstats.alloc_failures;
	assert_int_equal(__alloc_pages(GFP_ATOMIC, 1), NO_PFN);
	assert_int_equal(MM->rstats.alloc_failures, failures + 1);
	pfn_t one = alloc_kernel_page(OWNER_OTHER_KERNEL, GFP_ATOMIC);
	assert_int_not_equal(one, NO_PFN);
	free_kernel_page(one);
	for (unsigned long i = 0; i < n; i++)
		if (taken[i] % 2)
			free_kernel_page(taken[i]);
	drain_all_pages();
	assert_int_equal(z->stat[NR_FREE_PAGES], (long)n);
	assert_true(z->free_area[0].nr <= 1); /* merged back (a frame whose buddy is reserved) */
	test_machine_shutdown();
}

/* An order-2 block, its four frames made page-cache pages of f (split_page: the frames of
 * a block become independent pages). */
static pfn_t block_of_file_pages(struct address_space *f)
{
	pfn_t base = __alloc_pages(GFP_KERNEL, 2);
	assert_int_not_equal(base, NO_PFN);
	assert_int_equal(base % 4, 0);
	/* the tag page (base + 3) first: it is the oldest, at the tail of the inactive list */
	static const int order_added[4] = {3, 0, 1, 2};
	for (int i = 0; i < 4; i++) {
		pfn_t pfn = base + (pfn_t)order_added[i];
		pfn_to_page(pfn)->owner = OWNER_USER_NEW;
		MM->nr_user_new++;
		add_to_page_cache_lru(f, (uint64_t)order_added[i], pfn);
	}
	activate_page(base + 1);
	assert_int_equal(page_lru(pfn_to_page(base + 1)), LRU_ACTIVE_FILE);
	return base;
}

static void isolate_case(int order, int mode, unsigned long want_taken, bool active_taken)
{
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	struct address_space *f = file_create("f", 8, 8, false);
	pfn_t base = block_of_file_pages(f);
	struct zone *z = page_zone(pfn_to_page(base));
	assert_int_equal(z->lru[LRU_INACTIVE_FILE].tail, base + 3);
	uint64_t lumpy = vm_events[MMSIM_LUMPY_TAKEN];
	struct pagelist list;
	pagelist_init(&list);
	unsigned long scanned;
	unsigned long taken =
	    isolate_lru_pages(1, z, LRU_INACTIVE_FILE, &list, &scanned, order, mode);
	assert_int_equal(taken, want_taken);
	assert_int_equal(scanned, want_taken); /* each neighbour taken counts as scanned */
	assert_int_equal(vm_events[MMSIM_LUMPY_TAKEN] - lumpy, want_taken - 1);
	assert_int_equal(!!(pfn_to_page(base + 1)->flags & PG_isolated), active_taken);
	assert_int_equal(z->stat[NR_ISOLATED_FILE], (long)taken);
	assert_int_equal(mm_check_invariants(), 0);
	while (list.nr)
		putback_lru_page(pagelist_pop_tail(&list));
	test_machine_shutdown();
}

static void lumpy_isolation(void **state)
{
	(void)state;
	isolate_case(0, ISOLATE_INACTIVE, 1, false); /* order 0: the tag page alone */
	isolate_case(1, ISOLATE_INACTIVE, 2, false); /* base + 2 */
	isolate_case(2, ISOLATE_INACTIVE, 3, false); /* base + 0, + 2; not the active + 1 */
	isolate_case(2, ISOLATE_BOTH, 4, true);	     /* the whole block */
	isolate_case(3, ISOLATE_INACTIVE, 3, false); /* the rest of the order-3 block is free */
}

/* shrink_inactive_list's mode (2.6.28): order 2 below DEF_PRIORITY - 2 isolates both lists,
 * so the active neighbour is taken, deactivated (pgdeactivate) and, clean and unmapped,
 * freed; at DEF_PRIORITY it stays on the active list. */
static void lumpy_mode_by_priority(void **state)
{
	(void)state;
	for (int priority = DEF_PRIORITY; priority >= DEF_PRIORITY - 3; priority -= 3) {
		test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
		struct address_space *f = file_create("f", 8, 8, false);
		pfn_t base = block_of_file_pages(f);
		struct zone *z = page_zone(pfn_to_page(base));
		struct scan_control sc = test_direct_sc(priority);
		sc.order = 2;
		sc.swap_cluster_max = 1;
		uint64_t deact = vm_events[PGDEACTIVATE];
		unsigned long freed = shrink_inactive_list(1, z, &sc, priority, 1);
		bool both = priority < DEF_PRIORITY - 2;
		assert_int_equal(freed, both ? 4 : 3);
		assert_int_equal(vm_events[PGDEACTIVATE] - deact, both ? 1 : 0);
		assert_int_equal(page_index_lookup(f, 1) == NO_PFN, both);
		test_machine_shutdown();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(order1_fails_with_free_pages),
	    cmocka_unit_test(lumpy_isolation),
	    cmocka_unit_test(lumpy_mode_by_priority),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
