/* vm.reclaim_lru = 2.6.8 (kernel.version 2.6.8): the watermarks, page allocator, reclaim and
 * OOM killer of 2.6.8 (mm/page_alloc.c, mm/vmscan.c, mm/oom_kill.c at v2.6.8), each rule
 * against a small machine whose answer follows from the source by hand. */
#include "mm/era/era.h"
#include "sim/int_sqrt.h"
#include "util/testutil.h"

#include <string.h>

static void boot(uint64_t swap)
{
	test_machine_boot_kernel("p3-2004", 64ULL << 20, swap, "2.6.8-rc2");
	assert_ptr_equal(MM->rules, &reclaim_rules_268);
}

static unsigned long free_of(const struct zone *z)
{
	return (unsigned long)z->stat[NR_FREE_PAGES];
}

/* init_per_zone_pages_min and setup_per_zone_pages_min/_protection: min_free_kbytes is
 * sqrt(lowmem KiB), not 2.6.25's sqrt(16 x); shared out by zone size; low 2x, high 3x;
 * protection the sum of pages_low up to the class's zone; total_memory what is above
 * pages_high. */
static void watermarks_and_protection(void **state)
{
	(void)state;
	boot(0);
	struct zone *dma = &MM->zones[ZONE_DMA], *normal = &MM->zones[ZONE_NORMAL];
	assert_int_equal(MM->zones[ZONE_HIGHMEM].present_pages, 0);
	unsigned long lowmem = dma->present_pages + normal->present_pages;
	unsigned long kb = lowmem * 4;
	assert_int_equal(MM->sysctl.min_free_kbytes, int_sqrt(kb));
	assert_int_not_equal(MM->sysctl.min_free_kbytes, int_sqrt(kb * 16));
	unsigned long total_min = (unsigned long)MM->sysctl.min_free_kbytes / 4;
	const struct zone *zs[] = {dma, normal};
	for (int i = 0; i < 2; i++) {
		assert_int_equal(zs[i]->pages_min, total_min * zs[i]->present_pages / lowmem);
		assert_int_equal(zs[i]->pages_low, 2 * zs[i]->pages_min);
		assert_int_equal(zs[i]->pages_high, 3 * zs[i]->pages_min);
	}
	assert_int_equal(zone_protection_268(normal, ZONE_NORMAL), normal->pages_low);
	assert_int_equal(zone_protection_268(dma, ZONE_NORMAL), dma->pages_low + normal->pages_low);
	assert_int_equal(zone_protection_268(dma, ZONE_DMA), dma->pages_low);
	assert_int_equal(MM->vm_total_pages, dma->present_pages - dma->pages_high +
						 normal->present_pages - normal->pages_high);
	test_machine_shutdown();
}

/* Where order-1 allocations that cannot wait stop (order 1: straight from the buddy lists,
 * two pages a time). A zone serves one while it has 2 + protection free pages - or
 * pages_high, which a caller that cannot wait may always take down to. Without __GFP_HIGH
 * that is 2 + pages_low in Normal, and in DMA 2 + its own and Normal's pages_low, unless
 * its pages_high is lower; __GFP_HIGH then takes each zone a quarter of its own pages_low
 * further. (2.6.25 lets GFP_ATOMIC go down to pages_min / 4.) */
static void atomic_allocations_stop_at_pages_low(void **state)
{
	(void)state;
	boot(0);
	struct zone *dma = &MM->zones[ZONE_DMA], *normal = &MM->zones[ZONE_NORMAL];
	for (int high_flag = 0; high_flag < 2; high_flag++) {
		unsigned gfp = high_flag ? __GFP_HIGH : 0;
		while (alloc_kernel_pages(OWNER_OTHER_KERNEL, gfp, 1) != NO_PFN)
			;
		const struct zone *zs[] = {normal, dma};
		for (int i = 0; i < 2; i++) {
			const struct zone *z = zs[i];
			unsigned long t = 2 + zone_protection_268(z, ZONE_NORMAL);
			if (high_flag)
				t -= z->pages_low >> 2;
			if (z->pages_high < t)
				t = z->pages_high;
			print_message("%s gfp %#x: free %lu, floor %lu\n", z->name, gfp, free_of(z),
				      t);
			assert_true(free_of(z) < t);
			assert_true(free_of(z) + 2 >= t);
		}
	}
	test_machine_shutdown();
}

/* refill_inactive_zone: distress from zone->prev_priority alone (there is no priority
 * argument), mapped_ratio from the caller's nr_mapped sample, no imbalance term; unmapped
 * pages always go inactive; pages_scanned untouched. swappiness 60. */
static void refill_rules(void **state)
{
	(void)state;
	for (int swap = 1; swap >= 0; swap--) {
		boot(swap ? 64ULL << 20 : 0);
		struct mm_struct *mm = mm_alloc();
		struct vm_area_struct *v =
		    find_vma(mm, do_mmap(mm, 64, VM_READ | VM_WRITE, NULL, 0));
		struct address_space *f = file_create("plain", 64, 64, false);
		pfn_t anon[8], file[8];
		for (uint64_t i = 0; i < 8; i++)
			anon[i] = test_anon_page(v, i, false, true);
		pfn_t young = test_anon_page(v, 8, true, true);
		for (uint64_t i = 0; i < 8; i++) {
			file[i] = test_file_page(f, i);
			activate_page(file[i]);
		}
		struct zone *z = page_zone(pfn_to_page(anon[0]));
		assert_int_equal(z->stat[NR_ACTIVE_FILE], 17);
		unsigned long scanned0 = z->pages_scanned;
		uint64_t refill0 = z->event[PGREFILL];
		struct scan_control sc = test_direct_sc(0);
		/* distress 100 >> 12 = 0, mapped_ratio 0: 0 + 0 + 60 < 100 */
		z->prev_priority = DEF_PRIORITY;
		sc.nr_mapped = 0;
		refill_inactive_zone_268(32, z, &sc);
		for (int i = 0; i < 8; i++) {
			assert_true(pfn_to_page(anon[i])->flags & PG_active);
			assert_false(pfn_to_page(file[i])->flags & PG_active);
		}
		assert_int_equal(z->event[PGREFILL], refill0 + 17);
		assert_int_equal(z->pages_scanned, scanned0);
		/* prev_priority 2: distress 25; 85 + mapped_ratio / 2 reaches 100 at 30 % */
		z->prev_priority = 2;
		sc.nr_mapped = MM->vm_total_pages * 29 / 100;
		refill_inactive_zone_268(32, z, &sc);
		for (int i = 0; i < 8; i++)
			assert_true(pfn_to_page(anon[i])->flags & PG_active);
		sc.nr_mapped = MM->vm_total_pages * 30 / 100 + 1;
		refill_inactive_zone_268(32, z, &sc);
		/* with swap the unreferenced mapped pages go, the young one stays; without swap
		 * every anonymous page stays */
		for (int i = 0; i < 8; i++)
			assert_int_equal(!!(pfn_to_page(anon[i])->flags & PG_active), !swap);
		assert_true(pfn_to_page(young)->flags & PG_active);
		exit_mmap(mm);
		test_machine_shutdown();
	}
}

/* shrink_cache takes a whole batch of SWAP_CLUSTER_MAX whatever it is asked for; pgscan
 * counts one more than it examined, pages_scanned the pages taken (freeing a page zeroes
 * it, so a batch that frees nothing shows it); shrink_zone stops once a cluster is
 * freed. */
static void shrink_cache_batches_and_shrink_zone_quota(void **state)
{
	(void)state;
	for (int dirty = 1; dirty >= 0; dirty--) {
		boot(0);
		struct address_space *f = file_create("file", 256, 256, false);
		pfn_t first = NO_PFN;
		for (uint64_t i = 0; i < 40; i++) {
			pfn_t pfn = test_file_page(f, i);
			if (dirty)
				set_page_dirty(pfn);
			if (first == NO_PFN)
				first = pfn;
		}
		struct zone *z = page_zone(pfn_to_page(first));
		unsigned long inactive0 = (unsigned long)z->stat[NR_INACTIVE_FILE];
		unsigned long scanned0 = z->pages_scanned;
		uint64_t pgscan0 = z->event[PGSCAN_DIRECT];
		struct scan_control sc = test_direct_sc(DEF_PRIORITY);
		if (dirty)
			sc.gfp_mask = GFP_NOFS; /* may not write: every page kept */
		sc.nr_to_reclaim = SWAP_CLUSTER_MAX;
		assert_int_equal(shrink_cache_268(5, z, &sc), dirty ? 0 : 32);
		assert_int_equal(z->event[PGSCAN_DIRECT], pgscan0 + 33);
		if (dirty) {
			assert_int_equal(z->pages_scanned, scanned0 + 32);
			assert_int_equal(z->stat[NR_INACTIVE_FILE], inactive0);
			assert_int_equal(sc.nr_to_reclaim, SWAP_CLUSTER_MAX);
			test_machine_shutdown();
			continue;
		}
		assert_int_equal(z->stat[NR_INACTIVE_FILE], inactive0 - 32);
		assert_int_equal(sc.nr_to_reclaim, 0);
		/* 200 more: at priority 0 the accumulator gives (208 >> 0) + 1, but shrink_zone
		 * stops after the first batch frees its cluster */
		for (uint64_t i = 40; i < 240; i++)
			test_file_page(f, i);
		inactive0 = (unsigned long)z->stat[NR_INACTIVE_FILE];
		assert_int_equal(inactive0, 208);
		memset(z->nr_scan, 0, sizeof(z->nr_scan));
		sc = test_direct_sc(0);
		assert_int_equal(shrink_zone(0, z, &sc), 32);
		assert_int_equal(z->stat[NR_INACTIVE_FILE], inactive0 - 32);
		test_machine_shutdown();
	}
}

/* out_of_memory's persistence test: a kill needs calls no more than 5 s apart for at least a
 * second, at least 10 of them after that second began, and 5 s since the last kill. The
 * biggest task dies; a task already dying scores 0. */
static void nop(void *arg)
{
	(void)arg;
}

static struct task_struct *fake(const char *comm, unsigned long total_vm)
{
	struct task_struct *t = task_struct_create(comm, nop, NULL, false);
	t->task.state = TASK_BLOCKED;
	t->mm = mm_alloc();
	t->mm->total_vm = total_vm;
	return t;
}

/* The calls, in seconds of simulated time, made by one task; kills[i] is the number of
 * kills after call i. */
static const double oom_calls[] = {
    10.0, /* a long time since the last call: not OOM */
    10.1,  10.2,  10.3,	 10.4,	10.5,  10.6,  10.7,  10.8,  10.9,  /* within the first second */
    11.05, 11.15, 11.25, 11.35, 11.45, 11.55, 11.65, 11.75, 11.85, /* nine failures */
    12.0,							   /* the tenth: a kill */
    12.2,  12.4,  12.6,	 12.8,	13.0,  13.2,  13.4,  13.6,  13.8,  14.0,
    14.2,  14.4,  14.6,	 14.8,	15.0,  15.2,  15.4,  15.6,  15.8,  16.0, /* within 5 s of it */
    22.0, /* more than 5 s later: starts again */
    23.05, 23.15, 23.25, 23.35, 23.45, 23.55, 23.65, 23.75, 23.85, 24.0,
};
static int oom_kills_after[ARRAY_SIZE(oom_calls)];

static void oom_caller(void *arg)
{
	(void)arg;
	for (size_t i = 0; i < ARRAY_SIZE(oom_calls); i++) {
		sim_time_t t = (sim_time_t)(oom_calls[i] * NSEC_PER_SEC);
		if (t > local_now())
			schedule_timeout(t - local_now());
		out_of_memory_268(GFP_KERNEL);
		oom_kills_after[i] = test_nr_oom_killed;
	}
}

static void oom_waits_for_persistent_failure(void **state)
{
	(void)state;
	boot(0);
	struct task_struct *small = fake("small", 100), *big = fake("big", 1000);
	task_start(&task_struct_create("caller", oom_caller, NULL, false)->task);
	sched_run(100ULL * NSEC_PER_SEC, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(oom_calls); i++) {
		int want = oom_calls[i] < 12.0 ? 0 : oom_calls[i] < 24.0 ? 1 : 2;
		print_message("%.2f s: %d killed\n", oom_calls[i], oom_kills_after[i]);
		assert_int_equal(oom_kills_after[i], want);
	}
	assert_ptr_equal(test_oom_killed[0], big);
	assert_ptr_equal(test_oom_killed[1], small); /* big is dying: TIF_MEMDIE, 0 points */
	exit_mmap(small->mm);
	small->mm = NULL;
	exit_mmap(big->mm);
	big->mm = NULL;
	test_machine_shutdown();
}

/* try_to_free_pages reports 1 only when one priority's pass frees a cluster; a loop that
 * frees nothing reports 0 and counts as a failure for out_of_memory. */
static unsigned long ttfp_ret;

static void reclaimer(void *arg)
{
	(void)arg;
	ttfp_ret = try_to_free_pages(0, GFP_KERNEL);
}

static unsigned long run_reclaimer(void)
{
	ttfp_ret = 99;
	task_start(&task_struct_create("reclaimer", reclaimer, NULL, false)->task);
	sched_run(local_now() + 100ULL * NSEC_PER_SEC, NULL);
	return ttfp_ret;
}

static void try_to_free_pages_reports(void **state)
{
	(void)state;
	boot(0);
	assert_int_equal(run_reclaimer(), 0);
	assert_true(MM->oom268_last != 0); /* out_of_memory was called */
	struct address_space *f = file_create("clean", 4096, 4096, false);
	for (uint64_t i = 0; i < 4096; i++)
		test_file_page(f, i);
	assert_int_equal(run_reclaimer(), 1);
	test_machine_shutdown();
}

/* balance_pgdat never naps (2.6.8 never adds to its total_scanned) and goes down to
 * priority 0 when nothing can be freed: a machine filled with kernel pages, anonymous
 * pages without swap on the LRU. 2.6.25 would sleep HZ/10 at each of priorities 9..0. */
static sim_time_t kswapd_took;
static bool kswapd_done;

static void kswapd_pass(void *arg)
{
	(void)arg;
	sim_time_t t0 = local_now();
	MM->rules->balance_pgdat(0);
	kswapd_took = local_now() - t0;
	kswapd_done = true;
}

static void balance_pgdat_never_naps(void **state)
{
	(void)state;
	boot(0);
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *v = find_vma(mm, do_mmap(mm, 256, VM_READ | VM_WRITE, NULL, 0));
	for (uint64_t i = 0; i < 256; i++)
		test_anon_page(v, i, false, true);
	while (alloc_kernel_pages(OWNER_OTHER_KERNEL, GFP_KERNEL, 0) != NO_PFN)
		;
	struct zone *normal = &MM->zones[ZONE_NORMAL];
	assert_true(free_of(normal) <= normal->pages_high);
	uint64_t runs = vm_events[PAGEOUTRUN];
	kswapd_done = false;
	task_start(&task_struct_create("kswapd", kswapd_pass, NULL, false)->task);
	sched_run(local_now() + 100ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(vm_events[PAGEOUTRUN], runs + 1);
	assert_true(kswapd_done);
	assert_true(kswapd_took < 50 * NSEC_PER_MSEC);
	assert_int_equal(normal->prev_priority, 0);
	assert_int_equal(normal->temp_priority, 0);
	exit_mmap(mm);
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(watermarks_and_protection),
	    cmocka_unit_test(atomic_allocations_stop_at_pages_low),
	    cmocka_unit_test(refill_rules),
	    cmocka_unit_test(shrink_cache_batches_and_shrink_zone_quota),
	    cmocka_unit_test(oom_waits_for_persistent_failure),
	    cmocka_unit_test(try_to_free_pages_reports),
	    cmocka_unit_test(balance_pgdat_never_naps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
