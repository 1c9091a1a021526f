/* The trace workload (system mode): a generated trace of a program — code pages executed,
 * a data set written and re-read — replays as a process under memory pressure, with the
 * invariant checker on, deterministically; a bad trace is reported, not crashed on. */
#include "util/testutil.h"

#include "cli/trace_source.h"
#include "trace/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[256];
static uint64_t written;

/* 40 text pages executed in a loop around passes over 3000 data pages (12 MB). */
static int make_trace(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/mmsim-tw-%d.trace", (int)getpid());
	char err[256];
	struct trace_writer *w = trace_writer_open(path, 12, err, sizeof(err));
	if (!w) {
		print_error("%s\n", err);
		return -1;
	}
	written = 0;
	for (int pass = 0; pass < 3; pass++) {
		for (uint64_t d = 0; d < 3000; d++) {
			trace_writer_put(w, 0x400000 + (d % 40), TRACE_EXEC);
			trace_writer_put(w, 0x10000000 + d, pass == 0 ? TRACE_WRITE : TRACE_READ);
			written += 2;
		}
	}
	return trace_writer_close(w);
}

static int drop_trace(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void replays_under_pressure(void **state)
{
	(void)state;
	trace_source_register();
	char text[512];
	snprintf(text, sizeof(text),
		 "machine.profile = x86_64-2008\nmachine.ram = 24M\nmachine.swap = 32M\n"
		 "workload = trace\ntrace.file = %s\n",
		 path);
	struct scenario_config cfg;
	struct run_result a, b;
	test_scenario(&cfg, text);
	test_run(&cfg, 1, &a);
	assert_true(a.completed);
	assert_int_equal(test_metric(&a, "references"), written);
	assert_int_equal(test_metric(&a, "killed"), 0);
	assert_true(test_vmstat(&a, "pswpout") > 0);	/* 12 MB of data on ~10 MB left to users */
	assert_true(test_vmstat(&a, "pgmajfault") > 0); /* text read in, data swapped back */
	test_run(&cfg, 1, &b);
	assert_int_equal(a.elapsed, b.elapsed);
	assert_string_equal(a.wl.text, b.wl.text);
	run_result_free(&a);
	run_result_free(&b);
}

static void two_traces_two_processes(void **state)
{
	(void)state;
	trace_source_register();
	char text[1024];
	snprintf(text, sizeof(text),
		 "machine.ram = 64M\nworkload = trace\ntrace.file = %s\ntrace.file2 = %s\n"
		 "trace.max_refs = 1000\n",
		 path, path);
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg, text);
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_int_equal(test_metric(&r, "references"), 2000);
	run_result_free(&r);
}

static void missing_trace_is_an_error(void **state)
{
	(void)state;
	trace_source_register();
	struct scenario_config cfg;
	struct run_result r;
	test_scenario(&cfg,
		      "machine.ram = 64M\nworkload = trace\ntrace.file = /nonexistent/x.trace\n");
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	assert_non_null(strstr(r.wl.text, "error"));
	assert_int_equal(test_metric(&r, "references"), 0);
	run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(replays_under_pressure),
	    cmocka_unit_test(two_traces_two_processes),
	    cmocka_unit_test(missing_trace_is_an_error),
	};
	return cmocka_run_group_tests(tests, make_trace, drop_trace);
}
