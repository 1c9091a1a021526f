/* hackbench's measured footprint mapped to a profile (hackbench_footprint.c): the page
 * counts follow the written rule (regions merge into larger pages; IA64 adds its register
 * backing store), the task slab follows the word size and whether task_struct lives in
 * the stack block, and a value given by the scenario is never replaced. */
#include "hw/profile.h"
#include "util/testutil.h"
#include "workloads/hackbench.h"

static struct hackbench_params mapped(const char *profile)
{
	const struct hw_profile *hw = hw_profile_find(profile);
	assert_non_null(hw);
	struct hackbench_params p;
	hackbench_defaults(&p);
	hackbench_footprint(hw, hw->page_size, &p);
	return p;
}

/* 4 KiB pages keep the host's page counts: receiver 9 and sender 7 dirty pages (mean 8),
 * receiver 4 and sender 5 referenced per message (mean 4.5, rounded up). */
static void small_pages_keep_host_counts(void **state)
{
	(void)state;
	struct hackbench_params arm = mapped("arm926-2008"), x86 = mapped("x86_64-2008");
	assert_int_equal(arm.cow_pages, 8);
	assert_int_equal(arm.hot_pages, 5);
	assert_int_equal(x86.cow_pages, 8);
	assert_int_equal(x86.hot_pages, 5);
}

/* 64 KiB pages: each of the 5 regions fits in one page, plus the register backing store. */
static void large_pages_merge_regions(void **state)
{
	(void)state;
	struct hackbench_params ia64 = mapped("ia64-2008");
	assert_int_equal(ia64.cow_pages, 5 + 1);
	assert_int_equal(ia64.hot_pages, 4 + 1);
}

/* Object sizes by profile: the i386 post's 5,720 bytes of process objects + 1,168 for the
 * worker's socket; the ARM926's measured 2.6.25-rc1 objects 4,688 + 960; 64-bit 9,440 +
 * 1,912, less IA64's task_struct (2,112), which is in its stack. */
static void slab_by_profile(void **state)
{
	(void)state;
	assert_int_equal(mapped("p3-2004").task_slab, 5720 + 1168);
	assert_int_equal(mapped("arm926-2008").task_slab, 4688 + 960);
	assert_int_equal(mapped("x86_64-2008").task_slab, 9440 + 1912);
	assert_int_equal(mapped("ia64-2008").task_slab, 9440 + 1912 - 2112);
}

/* The text a call runs, by hand from data/measured/hackbench_text.txt (ranks of the
 * program's executed pages, objects concatenated: hackbench 0-1, ld.so 2-35, libc 36-89,
 * libpthread 90). A receiver's message: the binary's page 0 and libc's rank 42 (78); a
 * sender's, the binary's page 1 and the same libc page. The exit path runs 19 pages, the
 * last libpthread's. At the measured size (91 pages of 4 KiB) the pages are the measured
 * ones; with ia64's 64 KiB pages (6) each page scales to page x 6 / 91, duplicates merged;
 * a one-page text holds everything. */
static void message_text_pages(void **state)
{
	(void)state;
	uint64_t pg[HACKBENCH_TEXT_SET_MAX];
	assert_int_equal(hackbench_text_pages(HACKBENCH_TEXT_RECEIVER, 91, pg), 2);
	assert_int_equal(pg[0], 0);
	assert_int_equal(pg[1], 78);
	assert_int_equal(hackbench_text_pages(HACKBENCH_TEXT_SENDER, 91, pg), 2);
	assert_int_equal(pg[0], 1);
	assert_int_equal(pg[1], 78);
	assert_int_equal(hackbench_text_pages(HACKBENCH_TEXT_EXIT, 91, pg), 19);
	assert_int_equal(pg[18], 90);
	assert_int_equal(hackbench_text_pages(HACKBENCH_TEXT_SENDER_START, 91, pg), 11);
	assert_int_equal(hackbench_text_pages(HACKBENCH_TEXT_RECEIVER_START, 91, pg), 12);
	/* 78 x 6 / 91 = 5.14: the last large page; both binary pages in the first */
	assert_int_equal(hackbench_text_pages(HACKBENCH_TEXT_SENDER, 6, pg), 2);
	assert_int_equal(pg[0], 0);
	assert_int_equal(pg[1], 5);
	/* exit at 6 pages: 0 1 2 5 16 22 25 32 -> 0 0 0 0 1 1 1 2; 36-58 -> 2 2 3 3 3 3 3 3 3;
	 * 75 90 -> 4 5: every one of the six */
	assert_int_equal(hackbench_text_pages(HACKBENCH_TEXT_EXIT, 6, pg), 6);
	assert_int_equal(hackbench_text_pages(HACKBENCH_TEXT_RECEIVER, 1, pg), 1);
	assert_int_equal(pg[0], 0);
}

static void scenario_values_win(void **state)
{
	(void)state;
	const struct hw_profile *hw = hw_profile_find("ia64-2008");
	struct hackbench_params p;
	hackbench_defaults(&p);
	p.cow_pages = 9;
	p.hot_pages = 12; /* more than cow_pages: clamped */
	p.task_slab = 4096;
	hackbench_footprint(hw, hw->page_size, &p);
	assert_int_equal(p.cow_pages, 9);
	assert_int_equal(p.hot_pages, 9);
	assert_int_equal(p.task_slab, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(small_pages_keep_host_counts),
	    cmocka_unit_test(large_pages_merge_regions),
	    cmocka_unit_test(slab_by_profile),
	    cmocka_unit_test(message_text_pages),
	    cmocka_unit_test(scenario_values_win),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
