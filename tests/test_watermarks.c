/* Watermark arithmetic (kernel-reclaim.md §1.2) against values computed by hand. */
#include "util/testutil.h"

static void min_free_kbytes_examples(void **state)
{
	(void)state;
	/* the examples of the kernel's own comment */
	assert_int_equal(min_free_kbytes_for(16 * 1024), 512);
	assert_int_equal(min_free_kbytes_for(128 * 1024), 1448);
	assert_int_equal(min_free_kbytes_for(512 * 1024), 2896);
	assert_int_equal(min_free_kbytes_for(1024 * 1024), 4096);
	assert_int_equal(min_free_kbytes_for(4096 * 1024), 8192);
	assert_int_equal(min_free_kbytes_for(16384UL * 1024), 16384);
	/* clamps */
	assert_int_equal(min_free_kbytes_for(100), 128);
	assert_int_equal(min_free_kbytes_for(1UL << 40), 65536);
}

/* 64 MiB x86-64: DMA spans 4096 pages, DMA32 12288; less their mem_map (56-byte struct
 * page: 56 and 168 pages) 4040 and 12120 are present. With min_free_kbytes = 1024 the total
 * is 256 pages: DMA tmp = 256*4040/16160 = 64, DMA32 tmp = 192. */
static void per_zone_watermarks(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	struct zone *dma = &MM->zones[ZONE_DMA], *d32 = &MM->zones[ZONE_DMA32];
	assert_int_equal(dma->present_pages, 4040);
	assert_int_equal(d32->present_pages, 12120);
	assert_int_equal(dma->pages_min, 64);
	assert_int_equal(dma->pages_low, 80);
	assert_int_equal(dma->pages_high, 96);
	assert_int_equal(d32->pages_min, 192);
	assert_int_equal(d32->pages_low, 240);
	assert_int_equal(d32->pages_high, 288);
	/* lowmem_reserve: DMA keeps 12120/256 = 47 pages from DMA32-able allocations */
	assert_int_equal(dma->lowmem_reserve[ZONE_DMA32], 47);
	assert_int_equal(dma->lowmem_reserve[ZONE_DMA], 0);
	assert_int_equal(d32->lowmem_reserve[ZONE_DMA32], 0);
	/* inactive_ratio: under 1 GiB the ratio is 1 */
	assert_int_equal(d32->inactive_ratio, 1);
	test_machine_shutdown();
}

static void watermark_ok(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	struct zone *z = &MM->zones[ZONE_DMA32];
	long saved = z->stat[NR_FREE_PAGES];
	/* free - 1 + 1 must exceed mark + reserve */
	z->stat[NR_FREE_PAGES] = 241;
	assert_true(zone_watermark_ok(z, 0, z->pages_low, ZONE_DMA32, 0));
	z->stat[NR_FREE_PAGES] = 240;
	assert_false(zone_watermark_ok(z, 0, z->pages_low, ZONE_DMA32, 0));
	/* ALLOC_HIGH halves the mark: 240 - 120 = 120 */
	z->stat[NR_FREE_PAGES] = 121;
	assert_true(zone_watermark_ok(z, 0, z->pages_low, ZONE_DMA32, ALLOC_HIGH));
	z->stat[NR_FREE_PAGES] = 120;
	assert_false(zone_watermark_ok(z, 0, z->pages_low, ZONE_DMA32, ALLOC_HIGH));
	/* ALLOC_HIGH|ALLOC_HARDER: 120 - 30 = 90 */
	z->stat[NR_FREE_PAGES] = 91;
	assert_true(zone_watermark_ok(z, 0, z->pages_low, ZONE_DMA32, ALLOC_HIGH | ALLOC_HARDER));
	/* the DMA zone asked on behalf of DMA32 must also keep its lowmem_reserve (47) */
	struct zone *dma = &MM->zones[ZONE_DMA];
	long dsaved = dma->stat[NR_FREE_PAGES];
	dma->stat[NR_FREE_PAGES] = 80 + 47 + 1;
	assert_true(zone_watermark_ok(dma, 0, dma->pages_low, ZONE_DMA32, 0));
	dma->stat[NR_FREE_PAGES] = 80 + 47;
	assert_false(zone_watermark_ok(dma, 0, dma->pages_low, ZONE_DMA32, 0));
	assert_true(zone_watermark_ok(dma, 0, dma->pages_low, ZONE_DMA, 0));
	dma->stat[NR_FREE_PAGES] = dsaved;
	z->stat[NR_FREE_PAGES] = saved;
	test_machine_shutdown();
}

/* §1.2's order loop by hand: low mark 240 at order 2 needs free - 3 > 240, then after
 * discounting the order-0 pages more than 120, after the order-1 pages more than 60. */
static void watermark_orders(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	struct zone *z = &MM->zones[ZONE_DMA32];
	long saved = z->stat[NR_FREE_PAGES];
	unsigned long n0 = z->free_area[0].nr, n1 = z->free_area[1].nr;
	z->stat[NR_FREE_PAGES] = 1000;
	z->free_area[0].nr = 800; /* 997 - 800 = 197 > 120 */
	z->free_area[1].nr = 60;  /* 197 - 120 = 77 > 60 */
	assert_true(zone_watermark_ok(z, 2, z->pages_low, ZONE_DMA32, 0));
	z->free_area[1].nr = 70; /* 197 - 140 = 57 <= 60 */
	assert_false(zone_watermark_ok(z, 2, z->pages_low, ZONE_DMA32, 0));
	assert_true(zone_watermark_ok(z, 1, z->pages_low, ZONE_DMA32, 0)); /* 998-800 > 120 */
	z->free_area[0].nr = 879; /* 998 - 879 = 119 <= 120 */
	assert_false(zone_watermark_ok(z, 1, z->pages_low, ZONE_DMA32, 0));
	assert_true(zone_watermark_ok(z, 0, z->pages_low, ZONE_DMA32, 0));
	z->free_area[0].nr = n0;
	z->free_area[1].nr = n1;
	z->stat[NR_FREE_PAGES] = saved;
	test_machine_shutdown();
}

/* The buddy allocator: an order-2 block is aligned, taken by splitting, and freeing it
 * merges everything back to the lists as they were; an order-1 kernel stack per process. */
static void buddy_split_and_merge(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	struct zone *z = &MM->zones[ZONE_DMA32];
	unsigned long before[MAX_ORDER];
	for (int o = 0; o < MAX_ORDER; o++)
		before[o] = z->free_area[o].nr;
	long free0 = z->stat[NR_FREE_PAGES];
	pfn_t pfn = alloc_kernel_pages(OWNER_OTHER_KERNEL, GFP_KERNEL | __GFP_DMA32, 2);
	assert_int_not_equal(pfn, NO_PFN);
	assert_int_equal(pfn % 4, 0);
	assert_int_equal(page_zone(pfn_to_page(pfn)), z);
	assert_int_equal(z->stat[NR_FREE_PAGES], free0 - 4);
	assert_int_equal(mm_check_invariants(), 0);
	free_kernel_pages(pfn, 2);
	assert_int_equal(z->stat[NR_FREE_PAGES], free0);
	for (int o = 0; o < MAX_ORDER; o++)
		assert_int_equal(z->free_area[o].nr, before[o]);
	/* two order-0 pages that are buddies merge into one order-1 block when both are free */
	pfn_t a = __alloc_pages(GFP_KERNEL | __GFP_DMA32, 1);
	assert_int_not_equal(a, NO_PFN);
	__free_pages(a, 1);
	assert_int_equal(mm_check_invariants(), 0);
	for (int o = 0; o < MAX_ORDER; o++)
		assert_int_equal(z->free_area[o].nr, before[o]);
	test_machine_shutdown();
}

static void inactive_ratio_large_zone(void **state)
{
	(void)state;
	/* a 10 GiB NORMAL zone less its mem_map (35840 pages) is 9.86 GiB -> isqrt(90) = 9 */
	test_machine_boot("x86_64-2008", 14ULL << 30, 0, 0);
	assert_int_equal(MM->zones[ZONE_NORMAL].present_pages, ((10ULL << 30) >> 12) - 35840);
	assert_int_equal(MM->zones[ZONE_NORMAL].inactive_ratio, 9);
	/* DMA32 spans 16 MiB..4 GiB: 3 GiB-and-change -> isqrt(30) = 5 */
	assert_int_equal(MM->zones[ZONE_DMA32].inactive_ratio, 5);
	test_machine_shutdown();
}

/* Per-CPU page lists (2.6.28 zone_batchsize, free_hot_cold_page, rmqueue_bulk): frees
 * stay on the list until it holds `high`, then `batch` go back to the buddy lists and only
 * then are pages_scanned and all_unreclaimable reset (§1.16). */
static void per_cpu_lists(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 512ULL << 20, 0, 0);
	struct zone *z = &MM->zones[ZONE_DMA32];
	/* 126976 pages / 1024 = 124, / 4 = 31, 2^fls(46) - 1 = 31; high 186 */
	assert_int_equal(z->pcp[0].batch, 31);
	assert_int_equal(z->pcp[0].high, 186);
	long buddy = z->stat[NR_FREE_PAGES];
	pfn_t pages[186];
	/* the first allocation pulls a batch from the buddy lists */
	for (int i = 0; i < 186; i++) {
		pages[i] = __alloc_pages(GFP_KERNEL | __GFP_DMA32, 0);
		assert_int_equal(page_zone(pfn_to_page(pages[i])), z);
	}
	assert_int_equal(z->stat[NR_FREE_PAGES], buddy - 186 - (31 - 186 % 31) % 31);
	z->pages_scanned = 1000;
	z->all_unreclaimable = true;
	long before = z->stat[NR_FREE_PAGES];
	unsigned long held = z->pcp[0].list.nr;
	for (int i = 0; (unsigned long)i < 185 - held; i++)
		__free_page(pages[i]);
	/* below high: nothing reached the buddy lists, the zone keeps its state */
	assert_int_equal(z->stat[NR_FREE_PAGES], before);
	assert_int_equal(z->pages_scanned, 1000);
	assert_true(z->all_unreclaimable);
	__free_page(pages[185 - held]); /* reaches high: a batch goes back */
	assert_int_equal(z->stat[NR_FREE_PAGES], before + 31);
	assert_int_equal(z->pages_scanned, 0);
	assert_false(z->all_unreclaimable);
	for (unsigned long i = 186 - held; i < 186; i++)
		__free_page(pages[i]);
	drain_all_pages();
	assert_int_equal(z->pcp[0].list.nr, 0);
	assert_int_equal(z->stat[NR_FREE_PAGES], buddy);
	test_machine_shutdown();
}

/* A zone under 8192 pages (the 32 MiB board: 8128 present) gets batch 0 from
 * zone_batchsize: high 0, batch 1, so each free reaches the buddy lists at once and resets
 * the zone's scan state. */
/* buffered_rmqueue: a hot allocation takes the page freed last (the list's head), a cold
 * one (page cache reads) the list's other end. */
static void per_cpu_hot_and_cold(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 512ULL << 20, 0, 0);
	struct zone *z = &MM->zones[ZONE_DMA32];
	pfn_t a = __alloc_pages(GFP_KERNEL | __GFP_DMA32, 0);
	pfn_t b = __alloc_pages(GFP_KERNEL | __GFP_DMA32, 0);
	__free_page(a);
	__free_page(b);
	assert_int_equal(z->pcp[0].list.head, b);
	assert_int_equal(__alloc_pages(GFP_KERNEL | __GFP_DMA32, 0), b);
	pfn_t coldest = z->pcp[0].list.tail;
	assert_int_not_equal(coldest, a);
	assert_int_equal(__alloc_pages(GFP_KERNEL | __GFP_DMA32 | __GFP_COLD, 0), coldest);
	assert_int_equal(__alloc_pages(GFP_KERNEL | __GFP_DMA32, 0), a);
	__free_page(a);
	__free_page(coldest);
	__free_page(b);
	test_machine_shutdown();
}

static void per_cpu_lists_small_zone(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	struct zone *z = &MM->zones[ZONE_NORMAL];
	if (!z->present_pages)
		z = &MM->zones[ZONE_DMA];
	assert_true(z->present_pages < 8192);
	assert_int_equal(z->pcp[0].high, 0);
	assert_int_equal(z->pcp[0].batch, 1);
	pfn_t pfn = __alloc_pages(GFP_KERNEL, 0);
	assert_int_equal(z->pcp[0].list.nr, 0);
	long before = z->stat[NR_FREE_PAGES];
	z->pages_scanned = 1000;
	z->all_unreclaimable = true;
	__free_page(pfn);
	assert_int_equal(z->stat[NR_FREE_PAGES], before + 1);
	assert_int_equal(z->pcp[0].list.nr, 0);
	assert_int_equal(z->pages_scanned, 0);
	assert_false(z->all_unreclaimable);
	assert_int_equal(mm_check_invariants(), 0);
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(min_free_kbytes_examples),
	    cmocka_unit_test(per_zone_watermarks),
	    cmocka_unit_test(watermark_ok),
	    cmocka_unit_test(watermark_orders),
	    cmocka_unit_test(buddy_split_and_merge),
	    cmocka_unit_test(inactive_ratio_large_zone),
	    cmocka_unit_test(per_cpu_lists),
	    cmocka_unit_test(per_cpu_lists_small_zone),
	    cmocka_unit_test(per_cpu_hot_and_cold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
