/* The desktop's script (src/workloads/desktop.c): who waits for whom, as the thread's
 * run-many-x-apps.sh or sequentially (desktop.switch_wait), and programs killed under it. */
#include "util/testutil.h"

#include "cli/scenario_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The thread's script (desktop.switch_wait = 0) waits for wmctrl and the X server only:
 * it gets further in the same time than one that waits for every program, and the
 * switches it asks for are all served once the desktop is left alone. Waiting for each
 * (switch_wait = 1), every program is up in its own step: 1 + 2 + 3 windows, then 3 and 3
 * in the two no-op steps. */
static void desktop_script_waits_for_wmctrl_and_x_only(void **state)
{
	(void)state;
	static const char *conf = "machine.profile = x86_64-2009-nfsroot\n"
				  "machine.ram = 1G\n"
				  "workload = desktop\n"
				  "run.check_every = 20000\n"
				  "desktop.programs = 3\n"
				  "desktop.noop_steps = 2\n"
				  "desktop.background = 0\n"
				  "desktop.idle_end = 60\n";
	struct scenario_config cfg;
	struct run_result as_thread, waiting;
	test_scenario(&cfg, conf);
	test_run(&cfg, 1, &as_thread);
	cfg.desktop.switch_wait = 1;
	test_run(&cfg, 1, &waiting);
	assert_true(as_thread.completed && waiting.completed);
	assert_int_equal(test_metric(&waiting, "switches_asked"), 12);
	assert_int_equal(test_metric(&waiting, "switches_served"), 12);
	double asked = test_metric(&as_thread, "switches_asked");
	assert_true(asked > 0 && asked <= 12);
	assert_int_equal(test_metric(&as_thread, "switches_served"), asked);
	assert_true(test_metric(&as_thread, "last_step") < test_metric(&waiting, "last_step"));
	run_result_free(&as_thread);
	run_result_free(&waiting);
}

/* Programs OOM-killed on a small board without swap: the script goes on past them in both
 * modes (it never waits on a dead program), and `killed` counts them. */
static void desktop_goes_on_when_programs_are_killed(void **state)
{
	(void)state;
	static const char *conf = "machine.profile = x86_64-2009-nfsroot\n"
				  "machine.ram = 48M\n"
				  "machine.swap = 0\n"
				  "vm.overcommit_memory = 1\n"
				  "workload = desktop\n"
				  "run.check_every = 20000\n"
				  "desktop.programs = 6\n"
				  "desktop.noop_steps = 1\n"
				  "desktop.size_scale = 10\n";
	for (int wait = 0; wait <= 1; wait++) {
		struct scenario_config cfg;
		struct run_result r;
		test_scenario(&cfg, conf);
		cfg.desktop.switch_wait = wait;
		test_run(&cfg, 1, &r);
		assert_true(r.completed);
		assert_true(test_metric(&r, "killed") >= 1);
		assert_true(test_metric(&r, "switches_served") <=
			    test_metric(&r, "switches_asked"));
		run_result_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(desktop_script_waits_for_wmctrl_and_x_only),
	    cmocka_unit_test(desktop_goes_on_when_programs_are_killed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
