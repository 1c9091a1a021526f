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

/* The text a call runs, by hand from data/measured/hackbench_text.txt: start-up on the
 * binary's and libc's page 0; a sender on the binary's page 1, a receiver on its page 0,
 * both on libc's page 1 (the same page: write() and read() side by side). A one-page binary
 * (64 KiB pages) puts both loops on its only page; a one-page libc, start-up too. */
static void message_text_pages(void **state)
{
	(void)state;
	static const struct {
		enum hackbench_text_call call;
		uint64_t bin_pages, libc_pages, bin, libc;
	} want[] = {
	    {HACKBENCH_TEXT_STARTUP, 2, 54, 0, 0},  {HACKBENCH_TEXT_SENDER, 2, 54, 1, 1},
	    {HACKBENCH_TEXT_RECEIVER, 2, 54, 0, 1}, {HACKBENCH_TEXT_SENDER, 1, 4, 0, 1},
	    {HACKBENCH_TEXT_RECEIVER, 1, 1, 0, 0},  {HACKBENCH_TEXT_STARTUP, 1, 1, 0, 0},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint64_t b = 99, l = 99;
		hackbench_text_pages(want[i].call, want[i].bin_pages, want[i].libc_pages, &b, &l);
		assert_int_equal(b, want[i].bin);
		assert_int_equal(l, want[i].libc);
	}
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
