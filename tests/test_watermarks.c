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

/* 64 MiB x86-64: DMA holds 4096 pages, DMA32 12288. With min_free_kbytes = 1024 the total
 * is 256 pages: DMA tmp = 256*4096/16384 = 64, DMA32 tmp = 192. */
static void per_zone_watermarks(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	struct zone *dma = &MM->zones[ZONE_DMA], *d32 = &MM->zones[ZONE_DMA32];
	assert_int_equal(dma->present_pages, 4096);
	assert_int_equal(d32->present_pages, 12288);
	assert_int_equal(dma->pages_min, 64);
	assert_int_equal(dma->pages_low, 80);
	assert_int_equal(dma->pages_high, 96);
	assert_int_equal(d32->pages_min, 192);
	assert_int_equal(d32->pages_low, 240);
	assert_int_equal(d32->pages_high, 288);
	/* lowmem_reserve: DMA keeps 12288/256 = 48 pages from DMA32-able allocations */
	assert_int_equal(dma->lowmem_reserve[ZONE_DMA32], 48);
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
	/* the DMA zone asked on behalf of DMA32 must also keep its lowmem_reserve (48) */
	struct zone *dma = &MM->zones[ZONE_DMA];
	long dsaved = dma->stat[NR_FREE_PAGES];
	dma->stat[NR_FREE_PAGES] = 80 + 48 + 1;
	assert_true(zone_watermark_ok(dma, 0, dma->pages_low, ZONE_DMA32, 0));
	dma->stat[NR_FREE_PAGES] = 80 + 48;
	assert_false(zone_watermark_ok(dma, 0, dma->pages_low, ZONE_DMA32, 0));
	assert_true(zone_watermark_ok(dma, 0, dma->pages_low, ZONE_DMA, 0));
	dma->stat[NR_FREE_PAGES] = dsaved;
	z->stat[NR_FREE_PAGES] = saved;
	test_machine_shutdown();
}

static void inactive_ratio_large_zone(void **state)
{
	(void)state;
	/* 1 GiB of DMA32 (minus DMA) -> gb 0 -> 1; a 10 GiB NORMAL zone -> isqrt(100) = 10 */
	test_machine_boot("x86_64-2008", 14ULL << 30, 0, 0);
	assert_int_equal(MM->zones[ZONE_NORMAL].present_pages, (10ULL << 30) >> 12);
	assert_int_equal(MM->zones[ZONE_NORMAL].inactive_ratio, 10);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(min_free_kbytes_examples),
	    cmocka_unit_test(per_zone_watermarks),
	    cmocka_unit_test(watermark_ok),
	    cmocka_unit_test(inactive_ratio_large_zone),
	    cmocka_unit_test(per_cpu_lists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
