/* The VM_EXEC protection (kernel-reclaim.md §3) and the 2011 writeback series (§5.2) as
 * switches, on hand-built pages: each rule fires when its switch is on and its condition
 * holds, and vanilla behaviour is unchanged when it is off. */
#include "mm/policy/policy.h"
#include "util/testutil.h"

#include <string.h>

/* ---- VM_EXEC protection ---- */

static void exec_page_rotation(int protect, bool expect_active)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	MM->sysctl.reclaim_exec_protect = protect;
	mm_sysctl_apply();
	struct address_space *text = file_create("bin", 8, 8, true);
	struct address_space *data = file_create("data", 8, 8, false);
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *tv = find_vma(mm, do_mmap(mm, 8, VM_READ | VM_EXEC, text, 0));
	struct vm_area_struct *dv = find_vma(mm, do_mmap(mm, 8, VM_READ, data, 0));
	pfn_t t = test_file_page(text, 1), d = test_file_page(data, 1);
	test_map(tv, 1, t, true);
	test_map(dv, 1, d, true);
	activate_page(t);
	activate_page(d);
	struct zone *z = page_zone(pfn_to_page(t));
	unsigned long rotated = z->recent_rotated[1];
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	shrink_active_list(SWAP_CLUSTER_MAX, z, &sc, DEF_PRIORITY, 1);
	assert_int_equal(!!(pfn_to_page(t)->flags & PG_active), expect_active);
	assert_false(pfn_to_page(d)->flags & PG_active); /* referenced data: deactivated anyway */
	/* both referenced pages count as rotated either way (get_scan_ratio unchanged) */
	assert_int_equal(z->recent_rotated[1], rotated + 2);
	exit_mmap(mm);
	MM->sysctl.reclaim_exec_protect = 0;
	mm_sysctl_apply();
	test_machine_shutdown();
}

static void exec_protect_off_deactivates(void **state)
{
	(void)state;
	exec_page_rotation(0, false);
}

static void exec_protect_on_keeps_active(void **state)
{
	(void)state;
	exec_page_rotation(1, true);
}

/* ---- the writeback series ---- */

static struct task_struct fake_kswapd;

/* One dirty file page through shrink_page_list; returns whether pageout wrote it. */
static bool dirty_file_page_written(int direct_wb, int kswapd_wb, int immediate, bool as_kswapd,
				    int priority, bool *reclaim_flag)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	MM->sysctl.reclaim_direct_file_writeback = direct_wb;
	MM->sysctl.reclaim_kswapd_file_writeback = kswapd_wb;
	MM->sysctl.reclaim_immediate = immediate;
	mm_sysctl_apply();
	struct address_space *f = file_create("log", 8, 8, false);
	pfn_t pfn = test_file_page(f, 3);
	set_page_dirty(pfn);
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(pfn, &list);
	struct scan_control sc = test_direct_sc(priority);
	memset(&fake_kswapd, 0, sizeof(fake_kswapd));
	fake_kswapd.flags = PF_MEMALLOC | PF_SWAPWRITE | PF_KSWAPD | PF_KTHREAD;
	if (as_kswapd)
		set_current(&fake_kswapd); /* nothing here blocks or reschedules */
	shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC);
	set_current(NULL);
	struct page *p = pfn_to_page(pfn);
	bool written = p->flags & PG_writeback;
	*reclaim_flag = p->flags & PG_reclaim;
	if (!written) {
		assert_true(p->flags & PG_dirty);
		assert_int_equal(global_page_state(NR_VMSCAN_WRITE_SKIP), 1);
		assert_int_equal(global_page_state(NR_VMSCAN_IMMEDIATE), immediate);
	} else {
		assert_int_equal(global_page_state(NR_VMSCAN_WRITE), 1);
		assert_int_equal(
		    vm_events[as_kswapd ? MMSIM_KSWAPD_FILE_WRITES : MMSIM_DIRECT_FILE_WRITES], 1);
	}
	while (list.nr)
		putback_lru_page(pagelist_pop_tail(&list));
	sched_destroy();
	mm_destroy();
	return written;
}

static void vanilla_writes_from_both(void **state)
{
	(void)state;
	bool rf;
	assert_true(dirty_file_page_written(1, 2, 0, false, DEF_PRIORITY, &rf));
	assert_true(rf); /* pageout's own PG_reclaim while under writeback */
	assert_true(dirty_file_page_written(1, 2, 0, true, DEF_PRIORITY, &rf));
}

static void no_direct_file_writeback(void **state)
{
	(void)state;
	bool rf;
	assert_false(dirty_file_page_written(0, 2, 0, false, DEF_PRIORITY, &rf));
	assert_false(rf);
	assert_false(dirty_file_page_written(0, 2, 0, false, 0, &rf)); /* at any priority */
	assert_true(
	    dirty_file_page_written(0, 2, 0, true, DEF_PRIORITY, &rf)); /* kswapd still does */
}

static void kswapd_writes_only_in_trouble(void **state)
{
	(void)state;
	bool rf;
	assert_false(dirty_file_page_written(0, 1, 0, true, DEF_PRIORITY, &rf));
	assert_false(dirty_file_page_written(0, 1, 0, true, DEF_PRIORITY - 2, &rf));
	assert_true(dirty_file_page_written(0, 1, 0, true, DEF_PRIORITY - 3, &rf));
	assert_false(dirty_file_page_written(0, 0, 0, true, 0, &rf)); /* never */
}

static void immediate_reclaim_marks_skipped(void **state)
{
	(void)state;
	bool rf;
	assert_false(dirty_file_page_written(0, 1, 1, false, DEF_PRIORITY, &rf));
	assert_true(rf);
}

static void after_putback(struct zone *z, struct scan_control *sc, unsigned long nr_taken,
			  unsigned long nr_writeback)
{
	struct reclaim_batch b = {.nr_taken = nr_taken, .nr_writeback = nr_writeback};
	policy_call_all(after_putback, z, sc, &b);
}

static void throttle_threshold_by_priority(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	struct zone *z = &MM->zones[ZONE_DMA32];
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	after_putback(z, &sc, 32, 32); /* switch off: nothing */
	assert_int_equal(z->stat[NR_VMSCAN_THROTTLED], 0);
	MM->sysctl.reclaim_throttle_writeback = 1;
	mm_sysctl_apply();
	after_putback(z, &sc, 32, 31); /* priority 12 needs all 32 */
	assert_int_equal(z->stat[NR_VMSCAN_THROTTLED], 0);
	after_putback(z, &sc, 32, 32);
	assert_int_equal(z->stat[NR_VMSCAN_THROTTLED], 1);
	sc.priority = DEF_PRIORITY - 2; /* 25%: 8 of 32 */
	after_putback(z, &sc, 32, 7);
	assert_int_equal(z->stat[NR_VMSCAN_THROTTLED], 1);
	after_putback(z, &sc, 32, 8);
	assert_int_equal(z->stat[NR_VMSCAN_THROTTLED], 2);
	after_putback(z, &sc, 32, 0); /* none under writeback: never */
	assert_int_equal(z->stat[NR_VMSCAN_THROTTLED], 2);
	test_machine_shutdown();
}

/* wait_iff_congested (2.6.37, Mel's v3 6/7 through it): a batch wholly under writeback
 * sleeps HZ/10 only when some queue is write-congested and the zone is ZONE_CONGESTED;
 * with either missing the reclaimer only offers to reschedule. */
static sim_time_t throttle_slept;

static void throttled_reclaimer(void *arg)
{
	(void)arg;
	struct zone *z = &MM->zones[ZONE_DMA32];
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	sched_sync();
	sim_time_t t0 = sim_clock;
	after_putback(z, &sc, 32, 32);
	sched_sync();
	throttle_slept = sim_clock - t0;
}

static sim_time_t throttle_sleep(bool zone_congested, bool disk_congested)
{
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	MM->sysctl.reclaim_throttle_writeback = 1;
	mm_sysctl_apply();
	MM->zones[ZONE_DMA32].congested = zone_congested;
	MM->disk.congested[WRITE] = disk_congested;
	throttle_slept = 0;
	task_start(&task_struct_create("reclaimer", throttled_reclaimer, NULL, false)->task);
	sched_run(10ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(MM->zones[ZONE_DMA32].stat[NR_VMSCAN_THROTTLED], 1);
	MM->disk.congested[WRITE] = false;
	test_machine_shutdown();
	return throttle_slept;
}

static void wait_iff_congested_needs_zone_and_queue(void **state)
{
	(void)state;
	const sim_time_t nap = HZ / 10 * JIFFY_NS;
	assert_true(throttle_sleep(true, true) >= nap);
	assert_true(throttle_sleep(false, true) < nap / 10); /* queue congested, zone not */
	assert_true(throttle_sleep(true, false) < nap / 10);
	assert_true(throttle_sleep(false, false) < nap / 10);
}

/* ZONE_CONGESTED: set when every dirty page of a batch was kept by pageout, which a
 * congested queue makes it do for a direct reclaimer's dirty file page; cleared by kswapd's
 * zone-balanced check. */
static struct task_struct fake_direct;

static void zone_congested_from_kept_dirty_pages(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	MM->sysctl.reclaim_throttle_writeback = 1;
	mm_sysctl_apply();
	struct zone *z = &MM->zones[ZONE_DMA32];
	struct address_space *f = file_create("log", 8, 8, false);
	pfn_t pfn = test_file_page(f, 3);
	set_page_dirty(pfn);
	struct pagelist list;
	pagelist_init(&list);
	test_isolate(pfn, &list);
	struct scan_control sc = test_direct_sc(DEF_PRIORITY);
	memset(&fake_direct, 0, sizeof(fake_direct));
	set_current(&fake_direct);
	MM->disk.congested[WRITE] = true; /* may_write_to_queue: no */
	shrink_page_list(&list, &sc, PAGEOUT_IO_ASYNC);
	set_current(NULL);
	MM->disk.congested[WRITE] = false;
	assert_int_equal(sc.nr_dirty, 1);
	assert_int_equal(sc.nr_congested, 1);
	struct reclaim_batch b = {.nr_taken = 1, .nr_dirty = 1, .nr_congested = 1};
	policy_call_all(after_putback, z, &sc, &b);
	assert_true(z->congested);
	policy_call_all(kswapd_zone_balanced, z);
	assert_false(z->congested);
	b.nr_dirty = 2; /* one dirty page met no congestion: not marked */
	policy_call_all(after_putback, z, &sc, &b);
	assert_false(z->congested);
	while (list.nr)
		putback_lru_page(pagelist_pop_tail(&list));
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(exec_protect_off_deactivates),
	    cmocka_unit_test(exec_protect_on_keeps_active),
	    cmocka_unit_test(vanilla_writes_from_both),
	    cmocka_unit_test(no_direct_file_writeback),
	    cmocka_unit_test(kswapd_writes_only_in_trouble),
	    cmocka_unit_test(immediate_reclaim_marks_skipped),
	    cmocka_unit_test(throttle_threshold_by_priority),
	    cmocka_unit_test(wait_iff_congested_needs_zone_and_queue),
	    cmocka_unit_test(zone_congested_from_kept_dirty_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
