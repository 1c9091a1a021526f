/* vm.reclaim_lru = 2.6.25, the two-list global reclaim of 2.6.25-2.6.27
 * (kernel-reclaim.md §1.8, §1.10, §1.11): calc_reclaim_mapped's integer arithmetic,
 * anon and file pages on one pair of lists, shrink_zone's "+1" accumulators, and
 * shrink_active_list keeping mapped pages active until reclaim_mapped. */
#include "util/testutil.h"

#include <string.h>

struct fixture {
	struct mm_struct *mm;
	struct vm_area_struct *anon;
	struct address_space *plain; /* page cache nobody maps */
};

static void boot(struct fixture *fx)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 64ULL << 20, 0);
	MM->sysctl.reclaim_lru = RECLAIM_LRU_2625;
	mm_sysctl_apply();
	fx->mm = mm_alloc();
	fx->anon = find_vma(fx->mm, do_mmap(fx->mm, 64, VM_READ | VM_WRITE, NULL, 0));
	fx->plain = file_create("plain", 64, 64, false);
}

static void finish(struct fixture *fx)
{
	assert_int_equal(mm_check_invariants(), 0);
	exit_mmap(fx->mm);
	test_machine_shutdown();
}

static struct zone *zone_of(pfn_t pfn)
{
	return page_zone(pfn_to_page(pfn));
}

/* §1.10 by hand: mapped_ratio 40, swappiness 60, active/inactive 3000/999. */
static void reclaim_mapped_arithmetic(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	struct zone *z = &MM->zones[ZONE_DMA32];
	long saved[NR_VM_ZONE_STAT_ITEMS];
	memcpy(saved, z->stat, sizeof(saved));
	unsigned long saved_total = MM->vm_total_pages, saved_scanned = z->pages_scanned;
	int saved_prev = z->prev_priority;
	for (int i = 0; i < MM->nr_zones; i++)
		if (&MM->zones[i] != z) {
			MM->zones[i].stat[NR_FILE_MAPPED] = 0;
			MM->zones[i].stat[NR_ANON_PAGES] = 0;
		}
	MM->vm_total_pages = 10000;
	z->stat[NR_FILE_MAPPED] = 1000;
	z->stat[NR_ANON_PAGES] = 3000;
	z->stat[NR_ACTIVE_FILE] = 3000;
	z->stat[NR_INACTIVE_FILE] = 999;
	z->pages_scanned = 0;
	z->prev_priority = DEF_PRIORITY;
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	sc.swappiness = 60;
	/* distress 100>>12 = 0; tendency 40/2 + 0 + 60 = 80; imbalance 3000/1000 = 3,
	 * 3*61/100 = 1, 1*40/100 = 0: 80 < 100 */
	assert_int_equal(calc_reclaim_mapped(&sc, z, DEF_PRIORITY), 0);
	/* priority 2: distress 25, tendency 105 */
	assert_int_equal(calc_reclaim_mapped(&sc, z, 2), 1);
	/* prev_priority lower than the call's counts: distress 100>>2 at priority 12 */
	z->prev_priority = 2;
	assert_int_equal(calc_reclaim_mapped(&sc, z, DEF_PRIORITY), 1);
	z->prev_priority = DEF_PRIORITY;
	/* priority 3: distress 12, tendency 92; a big imbalance tips it: 30000/1000 = 30,
	 * 30*61/100 = 18, 18*40/100 = 7 -> 99, still below */
	assert_int_equal(calc_reclaim_mapped(&sc, z, 3), 0);
	z->stat[NR_ACTIVE_FILE] = 40000;
	/* 40000/1000 = 40, 40*61/100 = 24, 24*40/100 = 9 -> 101 */
	assert_int_equal(calc_reclaim_mapped(&sc, z, 3), 1);
	/* near OOM: scanning three times round the lists forces it at any priority */
	z->stat[NR_ACTIVE_FILE] = 3000;
	z->pages_scanned = 3 * (3000 + 999);
	assert_int_equal(calc_reclaim_mapped(&sc, z, DEF_PRIORITY), 1);
	z->pages_scanned = 3 * (3000 + 999) - 1;
	assert_int_equal(calc_reclaim_mapped(&sc, z, DEF_PRIORITY), 0);
	memcpy(z->stat, saved, sizeof(saved));
	MM->vm_total_pages = saved_total;
	z->pages_scanned = saved_scanned;
	z->prev_priority = saved_prev;
	exit_mmap(fx.mm);
	sched_destroy();
	mm_destroy();
}

/* Anon and file pages share one active and one inactive list: the anon gauges stay 0. */
static void one_pair_of_lists(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	pfn_t a = test_anon_page(fx.anon, 0, true, true);
	struct zone *z = zone_of(a);
	pfn_t f = test_file_page(fx.plain, 0);
	assert_int_equal(page_lru(pfn_to_page(a)), LRU_ACTIVE_FILE);
	assert_int_equal(page_lru(pfn_to_page(f)), LRU_INACTIVE_FILE);
	assert_int_equal(z->stat[NR_ACTIVE_ANON] + z->stat[NR_INACTIVE_ANON], 0);
	assert_true(z->stat[NR_ACTIVE_FILE] >= 1);
	finish(&fx);
}

/* The "+1": a list too short to give a cluster at priority 12 is still sifted once the
 * accumulator has gathered 32 calls' worth. */
static void plus_one_accumulates(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	pfn_t first = NO_PFN;
	for (uint64_t i = 0; i < 20; i++) {
		pfn_t pfn = test_file_page(fx.plain, i);
		activate_page(pfn);
		if (first == NO_PFN)
			first = pfn;
	}
	struct zone *z = zone_of(first);
	z->nr_scan[LRU_ACTIVE_FILE] = 0;
	z->nr_scan[LRU_INACTIVE_FILE] = 0;
	uint64_t deact = vm_events[PGDEACTIVATE];
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	for (int i = 0; i < 31; i++)
		shrink_zone(DEF_PRIORITY, z, &sc);
	assert_int_equal(z->nr_scan[LRU_ACTIVE_FILE], 31); /* (20 >> 12) + 1 per call */
	assert_int_equal(vm_events[PGDEACTIVATE], deact);
	shrink_zone(DEF_PRIORITY, z, &sc);
	assert_int_equal(z->nr_scan[LRU_ACTIVE_FILE], 0);
	/* 32 taken off the accumulator, the 20 pages there scanned; unmapped: all inactive */
	assert_int_equal(vm_events[PGDEACTIVATE], deact + 20);
	assert_int_equal(z->stat[NR_ACTIVE_FILE], 0);
	finish(&fx);
}

/* Mapped pages stay active while reclaim_mapped is 0 (priority 12, little mapped) and are
 * deactivated when it is 1 (priority 0: distress 100) unless referenced. */
static void mapped_pages_protected(void **state)
{
	(void)state;
	struct fixture fx;
	boot(&fx);
	pfn_t anon[16];
	for (uint64_t i = 0; i < 16; i++)
		anon[i] = test_anon_page(fx.anon, i, false, true);
	struct zone *z = zone_of(anon[0]);
	for (uint64_t i = 0; i < 16; i++) {
		pfn_t f = test_file_page(fx.plain, i);
		activate_page(f);
	}
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	z->nr_scan[LRU_ACTIVE_FILE] = 40;
	z->nr_scan[LRU_INACTIVE_FILE] = 0;
	shrink_zone(DEF_PRIORITY, z, &sc);
	for (int i = 0; i < 16; i++)
		assert_true(pfn_to_page(anon[i])->flags & PG_active);
	assert_int_equal(z->stat[NR_ACTIVE_FILE], 16); /* the anon ones */
	/* priority 0: reclaim_mapped; the unreferenced mapped pages go inactive too. The
	 * accumulator gets (17 >> 0) + 1: from 14 that is one cluster, one pass over the list
	 * (a second pass would find the young page's bit already harvested) */
	z->nr_scan[LRU_ACTIVE_FILE] = 14;
	z->nr_scan[LRU_INACTIVE_FILE] = 0;
	sc = test_direct_sc(0);
	z->prev_priority = 0;
	pfn_t young = test_anon_page(fx.anon, 20, true, true);
	shrink_zone(0, z, &sc);
	for (int i = 0; i < 16; i++)
		assert_false(pfn_to_page(anon[i])->flags & PG_active);
	assert_true(pfn_to_page(young)->flags & PG_active); /* referenced: stays */
	finish(&fx);
}

/* What try_to_free_pages returns when a whole pass finds nothing (an empty machine, so no
 * naps): 2.6.25 reports progress unless every zone is all_unreclaimable, 2.6.26 the pages
 * reclaimed (0, so the allocator would go to the OOM killer); auto follows the lists. */
static void reclaim_progress_returns(void **state)
{
	(void)state;
	static const struct {
		int lru, progress;
		unsigned long want, want_unreclaimable;
	} cases[] = {
	    {RECLAIM_LRU_2625, RECLAIM_PROGRESS_AUTO, 1, 0},
	    {RECLAIM_LRU_2625, RECLAIM_PROGRESS_2625, 1, 0},
	    {RECLAIM_LRU_2625, RECLAIM_PROGRESS_2626, 0, 0},
	    {RECLAIM_LRU_2628, RECLAIM_PROGRESS_AUTO, 0, 0},
	    {RECLAIM_LRU_2628, RECLAIM_PROGRESS_2625, 1, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
		MM->sysctl.reclaim_lru = cases[i].lru;
		MM->sysctl.reclaim_progress = cases[i].progress;
		mm_sysctl_apply();
		assert_int_equal(try_to_free_pages(0, GFP_KERNEL), cases[i].want);
		for (int z = 0; z < MM->nr_zones; z++)
			MM->zones[z].all_unreclaimable = true;
		assert_int_equal(try_to_free_pages(0, GFP_KERNEL), cases[i].want_unreclaimable);
		test_machine_shutdown();
	}
}

/* The seed-000 board under the 2.6.25 algorithm: deterministic, invariants held. */
static void board_runs_deterministic(void **state)
{
	(void)state;
	static const char *const text =
	    "machine.profile = arm926-2008\nmachine.ram = 32M\nmachine.swap = 32M\n"
	    "machine.cpus = 1\nworkload = hackbench\nhackbench.groups = 7\n"
	    "hackbench.loops = 40\nvm.reclaim_lru = 2.6.25\n";
	struct scenario_config cfg;
	struct run_result a, b;
	test_scenario(&cfg, text);
	test_run(&cfg, 1, &a);
	test_run(&cfg, 1, &b);
	assert_string_equal(a.wl.text, b.wl.text);
	assert_int_equal(a.elapsed, b.elapsed);
	assert_true(test_vmstat(&a, "pgscan_direct_normal") > 0);
	assert_int_equal(test_vmstat(&a, "nr_active_anon"), 0);
	run_result_free(&a);
	run_result_free(&b);
}

/* read_swap_cache_async: 2.6.25 (as 2.6.9) puts the page it reads from swap on the active
 * list (lru_cache_add_active); 2.6.28 on the inactive anon list (lru_cache_add_anon). */
static void swapin_enters_the_active_list(void **state)
{
	(void)state;
	static const struct {
		int lru;
		bool active;
	} cases[] = {{RECLAIM_LRU_2625, true}, {RECLAIM_LRU_2628, false}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture fx;
		boot(&fx);
		MM->sysctl.reclaim_lru = cases[i].lru;
		mm_sysctl_apply();
		pfn_t pfn = test_anon_page(fx.anon, 0, false, false);
		assert_true(add_to_swap(pfn));
		assert_int_equal(try_to_unmap(pfn), SWAP_SUCCESS);
		pfn_to_page(pfn)->flags &= ~PG_dirty; /* as if written */
		uint32_t slot = (uint32_t)pfn_to_page(pfn)->private;
		delete_from_swap_cache(pfn);
		release_user_page(pfn);
		bool major = false;
		pfn_t in = swapin_readahead(slot, &major);
		assert_int_not_equal(in, NO_PFN);
		assert_int_equal(!!(pfn_to_page(in)->flags & PG_active), cases[i].active);
		sched_run(NSEC_PER_SEC, NULL); /* the read completes */
		finish(&fx);
	}
}

/* The reclaim nap of 2.6.25-rc1..rc6 (vm.reclaim_nap_needs_io, f1a9ee758de): a failing
 * direct reclaim on a machine without I/O (no kswapd, no flusher: congestion_wait sleeps
 * its whole HZ/10) over 4,096 pages on the inactive list that it scans and cannot free.
 * The inactive accumulator gets (4096 >> p) + 1 at priority p: 2, 3, 5, 9 at 12..9 (19,
 * below a cluster: nothing scanned), 36 at 8, then 33 or more at each of 7..0 (anon
 * pages move to the active list as they are scanned, which leaves 4,060 at 7: 32), so
 * nine passes below DEF_PRIORITY - 2 scan. Anon pages without swap (add_to_swap fails,
 * activate) need no I/O: nine naps before the rule (0.9 s), none with it. Dirty page
 * cache under a GFP_NOFS caller (!may_enter_fs) is I/O needed: each of the nine passes
 * meets more than 32 such pages (36 at 8, 33 at 7, more below), so nine naps either way. */
static sim_time_t nap_took;

static void nap_reclaimer(void *arg)
{
	unsigned gfp = (unsigned)(uintptr_t)arg;
	sim_time_t t0 = local_now();
	try_to_free_pages(0, gfp);
	nap_took = local_now() - t0;
}

static void reclaim_nap_needs_io(void **state)
{
	(void)state;
	static const struct {
		bool dirty_file; /* else anon pages without swap */
		int needs_io;	 /* the rule */
		int naps;
	} cases[] = {
	    {false, 0, 9},
	    {false, 1, 0},
	    {true, 0, 9},
	    {true, 1, 9},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0); /* no swap */
		MM->sysctl.reclaim_lru = RECLAIM_LRU_2625;
		MM->sysctl.reclaim_nap_needs_io = cases[i].needs_io;
		mm_sysctl_apply();
		struct address_space *f = file_create("dirty", 4096, 4096, false);
		struct mm_struct *mm = mm_alloc();
		struct vm_area_struct *anon =
		    find_vma(mm, do_mmap(mm, 4096, VM_READ | VM_WRITE, NULL, 0));
		struct zone *z = NULL;
		for (uint64_t j = 0; j < 4096; j++) {
			pfn_t pfn;
			if (cases[i].dirty_file) {
				pfn = test_file_page(f, j);
				set_page_dirty(pfn);
			} else {
				pfn = test_anon_page_lru(anon, j, false, true, LRU_INACTIVE_ANON);
			}
			z = zone_of(pfn);
		}
		assert_int_equal(z->stat[NR_INACTIVE_FILE], 4096);
		for (int j = 0; j < MM->nr_zones; j++) {
			MM->zones[j].nr_scan[LRU_ACTIVE_FILE] = 0;
			MM->zones[j].nr_scan[LRU_INACTIVE_FILE] = 0;
		}
		unsigned gfp = cases[i].dirty_file ? GFP_NOFS : GFP_KERNEL;
		nap_took = 0;
		task_start(
		    &task_struct_create("reclaimer", nap_reclaimer, (void *)(uintptr_t)gfp, false)
			 ->task);
		sched_run(100ULL * NSEC_PER_SEC, NULL);
		/* the naps, and well under one nap of scanning */
		sim_time_t nap = 100 * NSEC_PER_MSEC;
		assert_true(nap_took >= (sim_time_t)cases[i].naps * nap);
		assert_true(nap_took < (sim_time_t)cases[i].naps * nap + nap / 2);
		assert_int_equal(mm_check_invariants(), 0);
		exit_mmap(mm);
		test_machine_shutdown();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(reclaim_mapped_arithmetic),
	    cmocka_unit_test(one_pair_of_lists),
	    cmocka_unit_test(plus_one_accumulates),
	    cmocka_unit_test(mapped_pages_protected),
	    cmocka_unit_test(reclaim_progress_returns),
	    cmocka_unit_test(board_runs_deterministic),
	    cmocka_unit_test(swapin_enters_the_active_list),
	    cmocka_unit_test(reclaim_nap_needs_io),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
