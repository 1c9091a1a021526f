/* End to end: whole runs with the invariant checker on throughout. usemem at twice RAM
 * with swap completes with swap traffic and both kinds of reclaim; without swap it
 * OOM-kills; filestream larger than RAM completes; the same seed gives the same run. */
#include "util/testutil.h"

#include <string.h>

static const char *usemem_2x = "machine.profile = x86_64-2008\n"
			       "machine.ram = 32M\n"
			       "machine.swap = 128M\n"
			       "machine.cpus = 2\n"
			       "workload = usemem\n"
			       "usemem.processes = 4\n"
			       "usemem.size = 16M\n"
			       "usemem.pattern = cyclic\n"
			       "usemem.loops = 2\n";

static void usemem_twice_ram_swaps(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, usemem_2x);
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_true(test_vmstat(&r, "pswpout") > 0);
	assert_true(test_vmstat(&r, "pswpin") > 0);
	assert_true(test_vmstat_zones(&r, "pgscan_kswapd") > 0);
	assert_true(test_vmstat_zones(&r, "pgscan_direct") > 0);
	assert_int_equal(r.rstats.oom_kills, 0);
	assert_int_equal(r.nr_oom, 0);
	/* every page written out came back or is still out: pswpin <= pswpout */
	assert_true(test_vmstat(&r, "pswpin") <= test_vmstat(&r, "pswpout"));
	run_result_free(&r);
}

static void usemem_without_swap_oom_kills(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, usemem_2x);
	cfg.swap = 0;
	test_run(&cfg, 1, &r);
	assert_true(r.completed); /* the launcher sees its children die and ends */
	assert_true(r.rstats.oom_kills >= 1);
	assert_true(r.nr_oom >= 1);
	assert_string_equal(r.oom[0].comm, "usemem");
	assert_true(r.oom[0].badness > 0);
	assert_int_equal(test_vmstat(&r, "pswpout"), 0);
	run_result_free(&r);
}

static void filestream_larger_than_ram(void **state)
{
	(void)state;
	static const char *modes[] = {"read", "write"};
	for (int m = 0; m < 2; m++) {
		char text[512];
		snprintf(
		    text, sizeof(text),
		    "machine.profile = x86_64-2008\nmachine.ram = 32M\nmachine.swap = 64M\n"
		    "workload = filestream\nfilestream.size = 96M\nfilestream.mode = %s\n"
		    "filestream.hot_size = 1M\nfilestream.hot_every = 8M\nfilestream.fsync = yes\n",
		    modes[m]);
		struct scenario_config cfg;
		struct run_result r;
		test_scenario(&cfg, text);
		test_run(&cfg, 1, &r);
		assert_true(r.completed);
		assert_int_equal(r.rstats.oom_kills, 0);
		if (m == 0)
			assert_true(test_vmstat(&r, "pgpgin") >= 96 * 1024);
		else
			assert_true(test_vmstat(&r, "pgpgout") >= 96 * 1024);
		assert_true(test_vmstat_zones(&r, "pgsteal") > 0);
		run_result_free(&r);
	}
}

static bool same_run(const struct run_result *a, const struct run_result *b)
{
	if (a->elapsed != b->elapsed || a->nr_vmstat != b->nr_vmstat || a->user_ns != b->user_ns ||
	    a->sys_ns != b->sys_ns || strcmp(a->wl.text, b->wl.text))
		return false;
	for (int i = 0; i < a->nr_vmstat; i++)
		if (a->vmstat[i].value != b->vmstat[i].value)
			return false;
	return true;
}

static void deterministic_per_seed(void **state)
{
	(void)state;
	struct scenario_config cfg;
	struct run_result a, b, c;
	test_scenario(&cfg, usemem_2x);
	cfg.usemem.pattern = USEMEM_RANDOM;
	cfg.usemem.loops = 1;
	test_run(&cfg, 7, &a);
	test_run(&cfg, 7, &b);
	test_run(&cfg, 8, &c);
	assert_true(same_run(&a, &b));
	assert_false(same_run(&a, &c));
	run_result_free(&a);
	run_result_free(&b);
	run_result_free(&c);
	/* no state survives from one run to the next in the same process: dirty
	 * throttling, the flusher and the disk must start afresh */
	test_scenario(&cfg, "machine.ram = 32M\nworkload = filestream\nfilestream.mode = write\n"
			    "filestream.size = 48M\n");
	test_run(&cfg, 1, &a);
	test_run(&cfg, 1, &b);
	assert_true(same_run(&a, &b));
	run_result_free(&a);
	run_result_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(usemem_twice_ram_swaps),
	    cmocka_unit_test(usemem_without_swap_oom_kills),
	    cmocka_unit_test(filestream_larger_than_ram),
	    cmocka_unit_test(deterministic_per_seed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
