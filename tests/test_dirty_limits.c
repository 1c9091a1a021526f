/* 2.6.28's dirty throttling arithmetic on hand-set states: the floating proportions
 * (lib/proportions.c), get_dirty_limits with the bdi's share, clip_bdi_dirty_limit and
 * task_dirty_limit, vm_total_pages and the ratelimit with its 4 MiB cap. */
#include "util/testutil.h"

/* shift 4: a period is 8 events. */
static void floating_proportions(void **state)
{
	(void)state;
	struct prop_global pg;
	struct prop_local a = {0}, b = {0};
	prop_init(&pg, 4);
	long n, d;
	for (int i = 0; i < 8; i++)
		prop_inc(&pg, &a);
	/* one period ended since a was last normalised: 8 halves to 4, of 8 + 8 % 8 */
	prop_fraction(&pg, &a, &n, &d);
	assert_int_equal(n, 4);
	assert_int_equal(d, 8);
	for (int i = 0; i < 4; i++)
		prop_inc(&pg, &b);
	prop_fraction(&pg, &b, &n, &d);
	assert_int_equal(n, 4);
	assert_int_equal(d, 12); /* 8 + 12 % 8 */
	for (int i = 0; i < 4; i++)
		prop_inc(&pg, &b);
	prop_fraction(&pg, &a, &n, &d);
	assert_int_equal(n, 2); /* another period: 4 -> 2 */
	assert_int_equal(d, 8);
	prop_fraction(&pg, &b, &n, &d);
	assert_int_equal(n, 4); /* 8 -> 4 */
	/* 64 periods later nothing is left */
	pg.events += 64 * 8;
	prop_fraction(&pg, &b, &n, &d);
	assert_int_equal(n, 0);
}

static void bdi_share_clip_and_task_limit(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	long bg, dirty, bdi;
	get_dirty_limits(&bg, &dirty);
	long avail = (long)determine_dirtyable_memory();
	assert_int_equal(
	    avail, global_page_state(NR_FREE_PAGES) + global_page_state(NR_INACTIVE_ANON) +
		       global_page_state(NR_ACTIVE_ANON) + global_page_state(NR_INACTIVE_FILE) +
		       global_page_state(NR_ACTIVE_FILE) + 1);
	assert_int_equal(dirty, 10 * avail / 100);
	assert_int_equal(bg, 5 * avail / 100);
	/* the bdi did half the recent completions; the dirtier (no task: the kernel
	 * threads' share) all the dirtying */
	prop_init(&MM->vm_completions, 4);
	MM->vm_completions.events = 8;
	MM->bdi.completions = (struct prop_local){.period = 8, .events = 4};
	prop_init(&MM->vm_dirties, 4);
	MM->vm_dirties.events = 8;
	MM->kthread_dirties = (struct prop_local){.period = 8, .events = 8};
	get_dirty_limits_bdi(&bg, &dirty, &bdi);
	long half = dirty / 2;
	assert_int_equal(bdi, half - (half >> 3));
	/* swap writeback fills 3/4 of the global limit: the bdi may use only the rest */
	long w = dirty - dirty / 4;
	MM->zones[ZONE_DMA32].stat[NR_WRITEBACK] += w;
	get_dirty_limits_bdi(&bg, &dirty, &bdi);
	long rest = dirty - w;
	assert_int_equal(bdi, rest - (rest >> 3));
	MM->zones[ZONE_DMA32].stat[NR_WRITEBACK] -= w;
	test_machine_shutdown();
}

/* vm_total_pages counts every present page (pages_high is 0 when build_all_zonelists
 * runs); the ratelimit is vm_total_pages / 32 per CPU, at most 4 MiB of pages. */
static void vm_total_pages_and_ratelimit(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 1024);
	assert_int_equal(MM->vm_total_pages, 4040 + 12120);
	assert_int_equal(writeback_ratelimit_pages(), (4040 + 12120) / (sched_ncpus() * 32));
	test_machine_shutdown();
	/* 64 KiB pages: 4 MiB is 64 of them */
	test_machine_boot("ia64-2008", 1ULL << 30, 0, 0);
	assert_true(MM->vm_total_pages / (unsigned long)(sched_ncpus() * 32) > 64);
	assert_int_equal(writeback_ratelimit_pages(), 64);
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(floating_proportions),
	    cmocka_unit_test(bdi_share_clip_and_task_limit),
	    cmocka_unit_test(vm_total_pages_and_ratelimit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
