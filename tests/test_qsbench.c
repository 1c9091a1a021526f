/* qsbench (benchmarks.md §2) end to end with the invariant checker on: a small two-process
 * run that swaps completes, is the same run twice, and the swap token changes hands in it
 * when it is on and never when it is off. */
#include "util/testutil.h"

#include "mm/policy/swap_token.h"

#include <string.h>

/* two 12 MB arrays on 16 MB: the top partition levels of both do not fit together */
static const char *small = "machine.profile = p3-2004\n"
			   "machine.ram = 16M\n"
			   "machine.swap = 64M\n"
			   "machine.cpus = 2\n"
			   "workload = qsbench\n"
			   "qsbench.processes = 2\n"
			   "qsbench.size = 12M\n";

static void run_variant(const char *token, struct run_result *r)
{
	struct scenario_config cfg;
	char text[512];
	snprintf(text, sizeof(text), "%svm.swap_token = %s\n", small, token);
	test_scenario(&cfg, text);
	test_run(&cfg, 3, r);
	assert_true(r->completed);
	assert_int_equal(test_metric(r, "killed"), 0);
	assert_true(test_vmstat(r, "pswpout") > 0);
}

static void token_off_never_moves(void **state)
{
	(void)state;
	struct run_result r;
	run_variant("off", &r);
	assert_int_equal(test_metric(&r, "token_handoffs"), 0);
	run_result_free(&r);
}

static void token_original_changes_hands(void **state)
{
	(void)state;
	struct run_result r;
	run_variant("original", &r);
	assert_true(test_metric(&r, "token_handoffs") >= 2);
	run_result_free(&r);
}

static void same_seed_same_run(void **state)
{
	(void)state;
	struct run_result a, b;
	run_variant("original", &a);
	run_variant("original", &b);
	assert_int_equal(a.elapsed, b.elapsed);
	assert_int_equal(a.user_ns, b.user_ns);
	assert_int_equal(a.sys_ns, b.sys_ns);
	assert_int_equal(a.nr_vmstat, b.nr_vmstat);
	for (int i = 0; i < a.nr_vmstat; i++)
		assert_int_equal(a.vmstat[i].value, b.vmstat[i].value);
	run_result_free(&a);
	run_result_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(token_off_never_moves),
	    cmocka_unit_test(token_original_changes_hands),
	    cmocka_unit_test(same_seed_same_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
