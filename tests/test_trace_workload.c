/* The trace workload (system mode): a generated trace of a program — code pages executed,
 * a data set written and re-read — replays as a process under memory pressure, with the
 * invariant checker on, deterministically; a bad trace is reported, not crashed on. */
#include "util/testutil.h"

#include "cli/scenario_file.h"
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

/* A trace that cannot be opened (missing, a directory) is bad input: refused by validation
 * with the key named, before the machine boots. */
static void unreadable_trace_is_refused(void **state)
{
	(void)state;
	static const char *const files[] = {"/nonexistent/x.trace", "/tmp"};
	for (size_t i = 0; i < 2; i++) {
		struct scenario_config cfg;
		char text[256], err[512];
		const char *key = NULL;
		snprintf(text, sizeof(text),
			 "machine.ram = 64M\nworkload = trace\ntrace.file = %s\n", files[i]);
		scenario_defaults(&cfg);
		assert_int_equal(
		    scenario_parse_text(&cfg, text, strlen(text), "t", err, sizeof(err)), 0);
		assert_int_equal(scenario_validate_key(&cfg, err, sizeof(err), &key), -1);
		assert_string_equal(key, "trace.file");
		assert_non_null(strstr(err, "cannot be read"));
	}
}

/* A trace whose content is bad (garbage, truncated) is a failed run, never a measurement:
 * the run ends as failed, not completed, and the report says why. */
static void garbage_trace_fails_the_run(void **state)
{
	(void)state;
	trace_source_register();
	char bad[] = "/tmp/mmsim-garbage-XXXXXX";
	int fd = mkstemp(bad);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "12\nnot a number\n", 16), 16);
	close(fd);
	struct scenario_config cfg;
	struct run_result r;
	char text[256];
	snprintf(text, sizeof(text), "machine.ram = 64M\nworkload = trace\ntrace.file = %s\n", bad);
	test_scenario(&cfg, text);
	test_run(&cfg, 1, &r);
	unlink(bad);
	assert_false(r.completed);
	assert_true(r.failed);
	assert_non_null(strstr(r.wl.text, "error"));
	run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(replays_under_pressure),
	    cmocka_unit_test(two_traces_two_processes),
	    cmocka_unit_test(unreadable_trace_is_refused),
	    cmocka_unit_test(garbage_trace_fails_the_run),
	};
	return cmocka_run_group_tests(tests, make_trace, drop_trace);
}
