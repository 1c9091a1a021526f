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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(min_free_kbytes_examples),
		cmocka_unit_test(per_zone_watermarks),
		cmocka_unit_test(watermark_ok),
		cmocka_unit_test(inactive_ratio_large_zone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
