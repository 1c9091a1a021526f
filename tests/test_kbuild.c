/* The kernel-build workload (benchmarks.md §4) and contest's mem_load (§3) on a small
 * machine, with the invariant checker on: both complete with every job exiting normally,
 * swap under pressure, report their columns, and give the same run twice. */
#include "util/testutil.h"

#include <string.h>

/* 16 measured jobs shrunk to 15 % of their heaps (about 1-4 MB each) and 1/20 of their CPU,
 * at -j6 with a 12 MB daemon on 24 MB (about 18 MB left to users): more than fits, whatever
 * the seed */
static const char *small = "machine.profile = p3-2004\n"
			   "machine.ram = 24M\n"
			   "machine.swap = 64M\n"
			   "machine.cpus = 2\n"
			   "kbuild.parallel = 6\n"
			   "kbuild.jobs = 16\n"
			   "kbuild.cpu_scale = 5\n"
			   "kbuild.heap_scale = 15\n"
			   "kbuild.gc_min = 512k\n"
			   "kbuild.text = 512k\n"
			   "kbuild.headers = 1M\n"
			   "kbuild.make_rss = 256k\n"
			   "kbuild.link_cpu = 20ms\n"
			   "kbuild.link_heap = 1M\n";

static void run(const char *extra, struct run_result *r)
{
	struct scenario_config cfg;
	char text[1536];
	snprintf(text, sizeof(text), "%s%s", small, extra);
	test_scenario(&cfg, text);
	test_run(&cfg, 2, r);
	assert_true(r->completed);
	assert_int_equal(r->rstats.oom_kills, 0);
}

static void assert_same(const struct run_result *a, const struct run_result *b)
{
	assert_int_equal(a->elapsed, b->elapsed);
	assert_int_equal(a->user_ns, b->user_ns);
	assert_int_equal(a->sys_ns, b->sys_ns);
	assert_int_equal(a->nr_vmstat, b->nr_vmstat);
	for (int i = 0; i < a->nr_vmstat; i++)
		assert_int_equal(a->vmstat[i].value, b->vmstat[i].value);
}

static void kbuild_with_daemon(void **state)
{
	(void)state;
	const char *extra = "workload = kbuild\nkbuild.named = 12M\nvm.swap_token = original\n";
	struct run_result a, b;
	run(extra, &a);
	assert_int_equal(test_metric(&a, "failed_jobs"), 0);
	assert_true(test_metric(&a, "cpu_pct") > 0 && test_metric(&a, "cpu_pct") <= 200);
	assert_true(test_vmstat(&a, "pswpout") > 0);
	assert_true(test_vmstat(&a, "pgmajfault") > 0);
	run(extra, &b);
	assert_same(&a, &b);
	run_result_free(&a);
	run_result_free(&b);
}

/* The daemon as measured: idle it reads one page a second, so once pushed out it stays out;
 * answering queries it reads random pages and faults them back in. */
static void daemon_queries_fault(void **state)
{
	(void)state;
	struct run_result idle, busy;
	run("workload = kbuild\nkbuild.named = 12M\nvm.swap_token = off\n", &idle);
	run("workload = kbuild\nkbuild.named = 12M\nvm.swap_token = off\nkbuild.named_qps = 200\n",
	    &busy);
	assert_true(test_vmstat(&busy, "pswpin") > 2 * test_vmstat(&idle, "pswpin"));
	run_result_free(&idle);
	run_result_free(&busy);
}

static void contest_mem_load(void **state)
{
	(void)state;
	const char *extra = "workload = contest\ncontest.load = mem_load\n";
	struct run_result a, b;
	run(extra, &a);
	assert_int_equal(test_metric(&a, "failed_jobs"), 0);
	assert_true(test_metric(&a, "noload_time") > 0);
	assert_true(test_metric(&a, "loads") > 0);
	assert_true(test_metric(&a, "lcpu_pct") > 0);
	/* Ratio is the loaded compile over the same compile without load */
	double ratio = test_metric(&a, "time") / test_metric(&a, "noload_time");
	assert_true(test_metric(&a, "ratio") > ratio - 1e-9 &&
		    test_metric(&a, "ratio") < ratio + 1e-9);
	assert_true(test_metric(&a, "ratio") > 1.0);
	run(extra, &b);
	assert_same(&a, &b);
	run_result_free(&a);
	run_result_free(&b);
}

static void contest_no_load_only(void **state)
{
	(void)state;
	struct run_result r;
	run("workload = contest\ncontest.load = no_load\n", &r);
	assert_true(test_metric(&r, "time") > 0);
	run_result_free(&r);
}

/* make -j20 with memory to spare: a job starts as soon as one ends, so about 20 are alive
 * all the time make still has jobs to start (a real make -j60 of 2.6.24 kept ~55 cc1 alive,
 * data/measured/kbuild/concurrency-2.6.24-i386-j60.csv) */
static void make_keeps_its_slots_full(void **state)
{
	(void)state;
	struct scenario_config cfg;
	const char *text = "machine.profile = p3-2004\nmachine.ram = 768M\nmachine.swap = 64M\n"
			   "machine.cpus = 2\nworkload = kbuild\nkbuild.parallel = 20\n"
			   "kbuild.jobs = 120\n";
	test_scenario(&cfg, text);
	struct run_result r;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_int_equal(test_vmstat(&r, "pswpout"), 0);
	double alive = test_metric(&r, "jobs_alive_mean");
	assert_true(alive > 18.0 && alive <= 20.0);
	run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(kbuild_with_daemon),	 cmocka_unit_test(daemon_queries_fault),
	    cmocka_unit_test(contest_mem_load),		 cmocka_unit_test(contest_no_load_only),
	    cmocka_unit_test(make_keeps_its_slots_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
