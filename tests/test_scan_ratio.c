/* get_scan_ratio (kernel-reclaim.md §1.9) and shrink_zone's scan targets (§1.8), against
 * hand-computed integer arithmetic. */
#include "util/testutil.h"

#include <string.h>

static struct zone *z;
static long saved[NR_VM_ZONE_STAT_ITEMS];

static void setup_zone(long anon, long file, long free_pages)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 64ULL << 20, 0);
	z = &MM->zones[ZONE_DMA32];
	memcpy(saved, z->stat, sizeof(saved));
	z->stat[NR_ACTIVE_ANON] = anon / 2;
	z->stat[NR_INACTIVE_ANON] = anon - anon / 2;
	z->stat[NR_ACTIVE_FILE] = file / 2;
	z->stat[NR_INACTIVE_FILE] = file - file / 2;
	z->stat[NR_FREE_PAGES] = free_pages;
}

static void teardown_zone(void)
{
	memcpy(z->stat, saved, sizeof(saved));
	z->recent_scanned[0] = z->recent_scanned[1] = 0;
	z->recent_rotated[0] = z->recent_rotated[1] = 0;
	test_machine_shutdown();
}

static void balanced_by_rotation(void **state)
{
	(void)state;
	setup_zone(1000, 3000, 500);
	z->recent_scanned[0] = 100;
	z->recent_rotated[0] = 50;
	z->recent_scanned[1] = 300;
	z->recent_rotated[1] = 30;
	struct scan_control sc = {.swappiness = 60};
	unsigned long pct[2];
	get_scan_ratio(z, &sc, pct);
	/* ap = 61*101/51 = 120, fp = 141*301/31 = 1369, anon = 100*120/1490 = 8 */
	assert_int_equal(pct[0], 8);
	assert_int_equal(pct[1], 92);
	teardown_zone();
}

static void decay_halves_history(void **state)
{
	(void)state;
	setup_zone(1000, 3000, 500);
	z->recent_scanned[0] = 400; /* > 1000/4: halved to 200, rotated 100 -> 50 */
	z->recent_rotated[0] = 100;
	z->recent_scanned[1] = 100;
	z->recent_rotated[1] = 100;
	struct scan_control sc = {.swappiness = 60};
	unsigned long pct[2];
	get_scan_ratio(z, &sc, pct);
	assert_int_equal(z->recent_scanned[0], 200);
	assert_int_equal(z->recent_rotated[0], 50);
	/* ap = 61*201/51 = 240, fp = 141*101/101 = 141, anon = 24000/382 = 62 */
	assert_int_equal(pct[0], 62);
	assert_int_equal(pct[1], 38);
	teardown_zone();
}

static void no_swap_means_file_only(void **state)
{
	(void)state;
	setup_zone(1000, 3000, 500);
	uint64_t nr_free = MM->swap.nr_free;
	MM->swap.nr_free = 0;
	struct scan_control sc = {.swappiness = 60};
	unsigned long pct[2];
	get_scan_ratio(z, &sc, pct);
	assert_int_equal(pct[0], 0);
	assert_int_equal(pct[1], 100);
	MM->swap.nr_free = nr_free;
	teardown_zone();
}

static void little_file_means_anon_only(void **state)
{
	(void)state;
	setup_zone(5000, 10, 20); /* file + free = 30 <= pages_high */
	assert_true(30 <= z->pages_high);
	struct scan_control sc = {.swappiness = 60};
	unsigned long pct[2];
	get_scan_ratio(z, &sc, pct);
	assert_int_equal(pct[0], 100);
	assert_int_equal(pct[1], 0);
	teardown_zone();
}

static void swappiness_extremes(void **state)
{
	(void)state;
	setup_zone(1000, 1000, 500);
	struct scan_control sc = {.swappiness = 0};
	unsigned long pct[2];
	get_scan_ratio(z, &sc, pct);
	/* ap = 1*1/1 = 1, fp = 201: 100/203 = 0 */
	assert_int_equal(pct[0], 0);
	sc.swappiness = 100;
	get_scan_ratio(z, &sc, pct);
	/* ap = fp = 101: 10100/203 = 49 */
	assert_int_equal(pct[0], 49);
	assert_int_equal(pct[1], 51);
	teardown_zone();
}

/* 2.6.29's bail-out (vm.reclaim_direct_bail_out): 4096 clean, unmapped inactive file pages,
 * no swap, a direct reclaimer at priority 2. The target is 4096 >> 2 = 1024 pages, taken 32
 * at a time; with the bail-out shrink_zone stops after the round that took it past 32
 * freed (32 after one round, 64 after two), from 2.6.33 once it has freed 32. At
 * DEF_PRIORITY it never bails out. */
static unsigned long direct_shrink(int bail_out, int priority, unsigned long saved_scan)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	MM->sysctl.reclaim_direct_bail_out = bail_out;
	mm_sysctl_apply();
	struct address_space *f = file_create("f", 4096, 4096, false);
	struct zone *zone = page_zone(pfn_to_page(test_file_page(f, 0)));
	for (uint64_t i = 1; i < 4096; i++)
		assert_ptr_equal(page_zone(pfn_to_page(test_file_page(f, i))), zone);
	assert_int_equal(zone->stat[NR_INACTIVE_FILE], 4096);
	zone->nr_scan[LRU_INACTIVE_FILE] = saved_scan;
	struct scan_control sc = test_direct_sc(priority);
	unsigned long freed = shrink_zone(priority, zone, &sc);
	assert_int_equal(zone->stat[NR_INACTIVE_FILE], 4096 - (long)freed);
	test_machine_shutdown();
	return freed;
}

static void direct_reclaim_bails_out(void **state)
{
	(void)state;
	assert_int_equal(direct_shrink(0, 2, 0), 1024);
	assert_int_equal(direct_shrink(1, 2, 0), 64);
	/* 2.6.33's >=: the first round's 32 are enough */
	assert_int_equal(direct_shrink(2, 2, 0), 32);
	/* DEF_PRIORITY: (4096 >> 12) + 199 saved = 200 to scan, in chunks of 32 and a last of
	 * 8, each isolating a full swap_cluster_max (2.6.28-2.6.31 shrink_inactive_list): 224
	 * pages, either way */
	assert_int_equal(direct_shrink(1, DEF_PRIORITY, 199), 224);
	assert_int_equal(direct_shrink(0, DEF_PRIORITY, 199), 224);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(balanced_by_rotation),
	    cmocka_unit_test(decay_halves_history),
	    cmocka_unit_test(no_swap_means_file_only),
	    cmocka_unit_test(little_file_means_anon_only),
	    cmocka_unit_test(swappiness_extremes),
	    cmocka_unit_test(direct_reclaim_bails_out),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
