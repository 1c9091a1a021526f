/* kernel.version (src/mm/era/): version strings parse as the kernel numbers them, each
 * version boots its era's rule variant and the policies mainline in it (the swap token in
 * that version's variant from 2.6.9 to 3.4, and only then), and a vm.* key set by name keeps
 * its value whether it comes before or after kernel.version. */
#include "cli/scenario_file.h"
#include "mm/era/era.h"
#include "mm/policy/swap_token.h"
#include "util/testutil.h"

#include <stddef.h>
#include <string.h>

static void versions_parse(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		kernel_version_t want;
	} ok[] = {
	    {"2.6.25-rc1", KERNEL_VERSION(2, 6, 25)}, {"2.6.25-mm1", KERNEL_VERSION(2, 6, 25)},
	    {"2.6.8-rc2", KERNEL_VERSION(2, 6, 8)},   {"3.0-rc", KERNEL_VERSION(3, 0, 0)},
	    {"2.6.31", KERNEL_VERSION(2, 6, 31)},     {"5.16", KERNEL_VERSION(5, 16, 0)},
	};
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		kernel_version_t v = 0;
		assert_int_equal(kernel_version_parse(ok[i].text, &v), 0);
		assert_int_equal(v, ok[i].want);
	}
	static const char *const bad[] = {"2.6",	"2.6.",	   "2.4.20", "1.2.3",
					  "2.6.28-foo", "2.6.28 ", "latest", "2.6.300"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		kernel_version_t v;
		assert_int_equal(kernel_version_parse(bad[i], &v), -1);
	}
}

static struct vm_sysctl booted(const char *version)
{
	kernel_version_t v = 0;
	assert_int_equal(kernel_version_parse(version, &v), 0);
	struct vm_sysctl s;
	kernel_version_defaults(v, &s);
	return s;
}

/* Each version's era and mainline policies: the facts the era files and the policies'
 * mainline tables state, one version on each side of every boundary. */
static void versions_boot_their_kernel(void **state)
{
	(void)state;
	static const struct {
		const char *version;
		int lru, token, aging, tmi, exec, ifil, nice;
	} cases[] = {
	    {"2.6.0", RECLAIM_LRU_268, SWAP_TOKEN_OFF, 0, 0, 0, 0, 0},
	    {"2.6.8-rc2", RECLAIM_LRU_268, SWAP_TOKEN_OFF, 0, 0, 0, 0, 0},
	    {"2.6.9", RECLAIM_LRU_2625, SWAP_TOKEN_ORIGINAL, 0, 0, 0, 0, 0},
	    {"2.6.19", RECLAIM_LRU_2625, SWAP_TOKEN_ORIGINAL, 0, 0, 0, 0, 0},
	    {"2.6.20", RECLAIM_LRU_2625, SWAP_TOKEN_PRIORITY, 0, 0, 0, 0, 0},
	    {"2.6.25-rc1", RECLAIM_LRU_2625, SWAP_TOKEN_PRIORITY, 0, 0, 0, 0, -5},
	    {"2.6.27", RECLAIM_LRU_2625, SWAP_TOKEN_PRIORITY, 0, 0, 0, 0, -5},
	    {"2.6.28", RECLAIM_LRU_2628, SWAP_TOKEN_PRIORITY, 0, 0, 0, 0, -5},
	    {"2.6.31-rc", RECLAIM_LRU_2628, SWAP_TOKEN_PRIORITY, 0, 0, 1, 1, -5},
	    {"2.6.32", RECLAIM_LRU_2628, SWAP_TOKEN_PRIORITY, 0, 1, 1, 1, -5},
	    {"3.0-rc", RECLAIM_LRU_2628, SWAP_TOKEN_PRIORITY, 1, 1, 1, 1, 0},
	    {"3.4", RECLAIM_LRU_2628, SWAP_TOKEN_PRIORITY, 1, 1, 1, 1, 0},
	    {"3.5", RECLAIM_LRU_2628, SWAP_TOKEN_OFF, 0, 1, 1, 1, 0},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vm_sysctl s = booted(cases[i].version);
		print_message("%s\n", cases[i].version);
		assert_int_equal(s.reclaim_lru, cases[i].lru);
		assert_int_equal(s.swap_token, cases[i].token);
		assert_int_equal(s.swap_token_aging, cases[i].aging);
		assert_int_equal(s.too_many_isolated, cases[i].tmi);
		assert_int_equal(s.reclaim_exec_protect, cases[i].exec);
		assert_int_equal(s.reclaim_inactive_file_is_low, cases[i].ifil);
		assert_int_equal(s.kswapd_nice, cases[i].nice);
	}
	/* the era standing for each version: 2.6.8's only for 2.6.8 (and older ones, the
	 * nearest), 2.6.9-2.6.24 the next after it, 2.6.25's */
	static const struct {
		const char *version, *era;
	} eras[] = {{"2.6.0", "2.6.8"},	  {"2.6.8", "2.6.8"},	{"2.6.8-rc2", "2.6.8"},
		    {"2.6.9", "2.6.25"},  {"2.6.24", "2.6.25"}, {"2.6.27", "2.6.25"},
		    {"2.6.28", "2.6.28"}, {"3.0-rc", "2.6.28"}};
	for (size_t i = 0; i < ARRAY_SIZE(eras); i++) {
		kernel_version_t v = 0;
		assert_int_equal(kernel_version_parse(eras[i].version, &v), 0);
		assert_string_equal(kernel_era_for(v)->name, eras[i].era);
	}
	/* the dirty limits of 2.6.8, 2.6.28 and 3.0 */
	assert_int_equal(booted("2.6.8").dirty_ratio, 40);
	assert_int_equal(booted("2.6.28").dirty_ratio, 10);
	assert_int_equal(booted("3.0").dirty_background_ratio, 10);
	/* SLUB's calculate_order: 2.6.25's to 2.6.25 (and its -mm), 2.6.26's to 2.6.29,
	 * 2.6.30's after (mm/slub.c at the tags); boot parameters at the kernel's defaults */
	assert_int_equal(booted("2.6.8-rc2").slub_order_rule, SLUB_ORDER_2625);
	assert_int_equal(booted("2.6.25-mm1").slub_order_rule, SLUB_ORDER_2625);
	assert_int_equal(booted("2.6.26").slub_order_rule, SLUB_ORDER_2626);
	assert_int_equal(booted("2.6.29").slub_order_rule, SLUB_ORDER_2626);
	assert_int_equal(booted("2.6.30").slub_order_rule, SLUB_ORDER_2630);
	assert_int_equal(booted("3.0-rc").slub_order_rule, SLUB_ORDER_2630);
	assert_int_equal(booted("2.6.30").slub_max_order, -1);
	assert_int_equal(booted("2.6.30").slub_min_objects, 0);
	/* shared dirty-page tracking (vma_wants_writenotify) from 2.6.19 */
	assert_int_equal(booted("2.6.8-rc2").mmap_writenotify, 0);
	assert_int_equal(booted("2.6.18").mmap_writenotify, 0);
	assert_int_equal(booted("2.6.19").mmap_writenotify, 1);
	assert_int_equal(booted("3.0-rc").mmap_writenotify, 1);
	/* the writeback series from 3.2 */
	assert_int_equal(booted("3.1").reclaim_direct_file_writeback, 1);
	assert_int_equal(booted("3.2").reclaim_direct_file_writeback, 0);
	assert_int_equal(booted("3.2").reclaim_throttle_writeback, 1);
}

/* A key set by name wins over kernel.version in either order; the others follow it, also
 * when --set changes the version after the file. */
static void keys_set_by_name_win(void **state)
{
	(void)state;
	struct scenario_config cfg;
	test_scenario(&cfg, "vm.swap_token = off\nkernel.version = 2.6.25\n");
	assert_int_equal(cfg.vm.swap_token, SWAP_TOKEN_OFF);
	assert_int_equal(cfg.vm.reclaim_lru, RECLAIM_LRU_2625);
	test_scenario(&cfg, "kernel.version = 2.6.25\nvm.swap_token = off\n");
	assert_int_equal(cfg.vm.swap_token, SWAP_TOKEN_OFF);
	test_scenario(&cfg, "kernel.version = 2.6.8-rc2\nvm.dirty_ratio = 15\n");
	assert_int_equal(cfg.vm.swap_token, SWAP_TOKEN_OFF);
	char err[256];
	assert_int_equal(
	    scenario_apply_override(&cfg, "kernel.version=3.0-rc", "--set", err, sizeof(err)), 0);
	assert_int_equal(cfg.vm.swap_token, SWAP_TOKEN_PRIORITY);
	assert_int_equal(cfg.vm.too_many_isolated, 1);
	assert_int_equal(cfg.vm.dirty_ratio, 15); /* set by name in the file */
	assert_int_equal(cfg.vm.reclaim_lru, RECLAIM_LRU_2628);
	/* the SLUB boot keys likewise */
	test_scenario(&cfg, "kernel.slub_order_rule = 2.6.25\nkernel.version = 2.6.31-rc\n");
	assert_int_equal(cfg.vm.slub_order_rule, SLUB_ORDER_2625);
	test_scenario(&cfg, "kernel.slub_max_order = 1\nkernel.version = 2.6.31-rc\n");
	assert_int_equal(cfg.vm.slub_order_rule, SLUB_ORDER_2630);
	assert_int_equal(cfg.vm.slub_max_order, 1);
	/* no version stated: the default kernel, 2.6.28 with its priority token */
	test_scenario(&cfg, "machine.ram = 64M\n");
	assert_string_equal(cfg.kernel_version, KERNEL_VERSION_DEFAULT);
	assert_int_equal(cfg.vm.swap_token, SWAP_TOKEN_PRIORITY);
}

/* Each of the n versions gives the int key at `field` of the scenario the value want. */
static void expect_by_version(const char *const *versions, size_t n, size_t field, int want)
{
	struct scenario_config cfg;
	char text[64];
	for (size_t i = 0; i < n; i++) {
		snprintf(text, sizeof(text), "kernel.version = %s\n", versions[i]);
		test_scenario(&cfg, text);
		int got;
		memcpy(&got, (const char *)&cfg + field, sizeof(got));
		assert_int_equal(got, want);
	}
}

/* The scheduler keys follow kernel.version down to the release candidate
 * (kernel/sched_fair.c at the tags): the next buddy from 2.6.25-rc6, the 5 ms wakeup
 * granularity from -rc7 (an -mm tree counts as its release), 10 ms again in 2.6.26, the last
 * buddy in 2.6.28; the load-scaled sleeper credit only in -rc6..rc9; a key set by name
 * stays. */
static void sched_keys_follow_the_rc(void **state)
{
	(void)state;
	static const struct {
		const char *version;
		int buddies;
		uint64_t gran_ms;
		int asym;
	} k[] = {
	    {"2.6.24", SCHED_BUDDIES_NONE, 10, 0},     {"2.6.25-rc1", SCHED_BUDDIES_NONE, 10, 1},
	    {"2.6.25-rc5", SCHED_BUDDIES_NONE, 10, 1}, {"2.6.25-rc6", SCHED_BUDDIES_2625, 10, 1},
	    {"2.6.25-rc7", SCHED_BUDDIES_2625, 5, 1},  {"2.6.25-mm1", SCHED_BUDDIES_2625, 5, 1},
	    {"2.6.25", SCHED_BUDDIES_2625, 5, 1},      {"2.6.26", SCHED_BUDDIES_2626, 10, 1},
	    {"2.6.27", SCHED_BUDDIES_2626, 5, 1},      {"2.6.28", SCHED_BUDDIES_2628, 5, 1},
	};
	struct scenario_config cfg;
	char text[96];
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		snprintf(text, sizeof(text), "kernel.version = %s\n", k[i].version);
		test_scenario(&cfg, text);
		assert_int_equal(cfg.sched_buddies, k[i].buddies);
		assert_int_equal(cfg.sched_wakeup_granularity, k[i].gran_ms * NSEC_PER_MSEC);
		assert_int_equal(cfg.sched_asym_gran, k[i].asym);
		assert_int_equal(cfg.sched_normalized_sleeper,
				 !strcmp(k[i].version, "2.6.25-rc6") ||
				     !strcmp(k[i].version, "2.6.25-rc7"));
		/* leftmost-only min_vruntime: 2.6.25-rc6 (3fe69747dab) to 2.6.27 */
		assert_int_equal(cfg.sched_min_vruntime_leftmost,
				 i >= 3 && strcmp(k[i].version, "2.6.28") != 0);
		assert_int_equal(cfg.sched_o1, 0);
	}
	/* the O(1) scheduler before CFS (2.6.23), unless kernel.scheduler is set */
	static const char *const o1[] = {"2.6.8-rc2", "2.6.9", "2.6.22"};
	expect_by_version(o1, 3, offsetof(struct scenario_config, sched_o1), 1);
	test_scenario(&cfg, "kernel.version = 2.6.23\n");
	assert_int_equal(cfg.sched_o1, 0);
	test_scenario(&cfg, "kernel.scheduler = cfs\nkernel.version = 2.6.8\n");
	assert_int_equal(cfg.sched_o1, 0);
	/* the anticipatory elevator before CFQ (2.6.18), unless kernel.elevator is set */
	static const char *const as[] = {"2.6.8-rc2", "2.6.9", "2.6.17"};
	expect_by_version(as, 3, offsetof(struct scenario_config, elevator_as), 1);
	static const char *const clook[] = {"2.6.18", "2.6.25-rc1", "2.6.28", "2.6.31", "3.0-rc"};
	expect_by_version(clook, 5, offsetof(struct scenario_config, elevator_as), 0);
	test_scenario(&cfg, "kernel.elevator = clook\nkernel.version = 2.6.8\n");
	assert_int_equal(cfg.elevator_as, 0);
	test_scenario(&cfg, "kernel.version = 2.6.28\nkernel.elevator = as\n");
	assert_int_equal(cfg.elevator_as, 1);
	test_scenario(&cfg, "machine.ram = 64M\n"); /* the default kernel, 2.6.28 */
	assert_int_equal(cfg.elevator_as, 0);
	test_scenario(&cfg, "kernel.sched_min_vruntime = curr\nkernel.version = 2.6.26\n");
	assert_int_equal(cfg.sched_min_vruntime_leftmost, 0);
	test_scenario(&cfg, "machine.ram = 64M\n"); /* the default kernel, 2.6.28 */
	assert_int_equal(cfg.sched_buddies, SCHED_BUDDIES_2628);
	test_scenario(&cfg, "kernel.sched_buddies = none\nkernel.version = 2.6.25-mm1\n");
	assert_int_equal(cfg.sched_buddies, SCHED_BUDDIES_NONE);
	assert_int_equal(cfg.sched_wakeup_granularity, 5 * NSEC_PER_MSEC);
	/* 3.0's CFS from 3.0 (its buddies, 1 ms); 2.6.29-2.6.39 keep 2.6.28's */
	static const char *const v30[] = {"3.0-rc", "3.0", "3.2"};
	expect_by_version(v30, 3, offsetof(struct scenario_config, sched_fair_30), 1);
	expect_by_version(v30, 3, offsetof(struct scenario_config, sched_buddies),
			  SCHED_BUDDIES_30);
	static const char *const v26[] = {"2.6.28", "2.6.31-rc", "2.6.39"};
	expect_by_version(v26, 3, offsetof(struct scenario_config, sched_fair_30), 0);
	expect_by_version(v26, 3, offsetof(struct scenario_config, sched_buddies),
			  SCHED_BUDDIES_2628);
	test_scenario(&cfg, "kernel.version = 3.0-rc\n");
	assert_int_equal(cfg.sched_wakeup_granularity, 1 * NSEC_PER_MSEC);
	test_scenario(&cfg, "kernel.sched_fair = 2.6\nkernel.version = 3.0\n");
	assert_int_equal(cfg.sched_fair_30, 0);
	/* ADAPTIVE_GRAN from 2.6.30 to 2.6.33 */
	static const char *const ag[] = {"2.6.30", "2.6.31-rc", "2.6.33"};
	expect_by_version(ag, 3, offsetof(struct scenario_config, sched_adaptive_gran), 1);
	static const char *const no_ag[] = {"2.6.29", "2.6.34", "3.0-rc"};
	expect_by_version(no_ag, 3, offsetof(struct scenario_config, sched_adaptive_gran), 0);
}

/* vm.reclaim_nap_needs_io follows kernel.version down to the release candidate: Rik van
 * Riel's f1a9ee758de is in mm/vmscan.c at v2.6.25-rc1..rc6, reverted for -rc7
 * (4dd4b920218); an -mm tree counts as its release; a key set by name stays. */
static void nap_rule_follows_the_rc(void **state)
{
	(void)state;
	static const struct {
		const char *version;
		int needs_io;
	} k[] = {
	    {"2.6.24", 0},     {"2.6.25-rc1", 1}, {"2.6.25-rc6", 1}, {"2.6.25-rc7", 0},
	    {"2.6.25-mm1", 0}, {"2.6.25", 0},	  {"2.6.26", 0},     {"2.6.28", 0},
	};
	struct scenario_config cfg;
	char text[96];
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		snprintf(text, sizeof(text), "kernel.version = %s\n", k[i].version);
		test_scenario(&cfg, text);
		assert_int_equal(cfg.vm.reclaim_nap_needs_io, k[i].needs_io);
	}
	test_scenario(&cfg, "vm.reclaim_nap_needs_io = 0\nkernel.version = 2.6.25-rc1\n");
	assert_int_equal(cfg.vm.reclaim_nap_needs_io, 0);
	test_scenario(&cfg, "kernel.version = 2.6.25-rc1\nvm.reclaim_nap_needs_io = 0\n");
	assert_int_equal(cfg.vm.reclaim_nap_needs_io, 0);
	test_scenario(&cfg, "machine.ram = 64M\n"); /* the default kernel, 2.6.28 */
	assert_int_equal(cfg.vm.reclaim_nap_needs_io, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(versions_parse),	       cmocka_unit_test(versions_boot_their_kernel),
	    cmocka_unit_test(keys_set_by_name_win),    cmocka_unit_test(sched_keys_follow_the_rc),
	    cmocka_unit_test(nap_rule_follows_the_rc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
