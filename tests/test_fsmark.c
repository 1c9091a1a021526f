/* fs_mark (benchmarks.md §6) and the writeback series' micro benchmark (mapstream) end to
 * end, with the invariant checker on: a small fs_mark is deterministic and reports what the
 * tool prints; the series' switches (kernel-reclaim.md §5.2) change on a small mapstream run
 * what the thread says they change. */
#include "util/testutil.h"

#include <string.h>

static const char small_fsmark[] = "machine.profile = x86_64-2008\n"
				   "machine.ram = 32M\n"
				   "machine.swap = 16M\n"
				   "machine.cpus = 1\n"
				   "workload = fsmark\n"
				   "fsmark.files = 6\n"
				   "fsmark.loops = 3\n"
				   "fsmark.size = 3M\n";

static void fsmark_small_is_deterministic(void **state)
{
	(void)state;
	struct scenario_config cfg;
	test_scenario(&cfg, small_fsmark);
	struct run_result a, b;
	test_run(&cfg, 3, &a);
	test_run(&cfg, 3, &b);
	assert_true(a.completed);
	assert_string_equal(a.wl.text, b.wl.text);
	assert_int_equal(a.elapsed, b.elapsed);
	assert_int_equal(a.nr_vmstat, b.nr_vmstat);
	for (int i = 0; i < a.nr_vmstat; i++)
		assert_int_equal(a.vmstat[i].value, b.vmstat[i].value);
	run_result_free(&a);
	run_result_free(&b);
}

static void fsmark_reports_like_the_tool(void **state)
{
	(void)state;
	struct scenario_config cfg;
	test_scenario(&cfg, small_fsmark);
	struct run_result r;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	/* one line per iteration after the header, Count cumulative: 6, 12, 18 */
	const char *h = strstr(r.wl.text, "FSUse%");
	assert_non_null(h);
	unsigned long long count[3], size;
	const char *line = strchr(h, '\n') + 1;
	for (int i = 0; i < 3; i++) {
		int use;
		double fps, ovh;
		assert_int_equal(
		    sscanf(line, "%d %llu %llu %lf %lf", &use, &count[i], &size, &fps, &ovh), 5);
		assert_true(fps > 0);
		assert_int_equal(size, 3u << 20);
		line = strchr(line, '\n') + 1;
	}
	assert_int_equal(count[0], 6);
	assert_int_equal(count[2], 18);
	assert_true(r.wl.metrics[0].primary && r.wl.metrics[0].higher_is_better);
	assert_string_equal(r.wl.metrics[0].name, "files_per_sec");
	/* every byte written reached the disk or is still dirty/under writeback: no read, and
	 * the page cache holds at most what was written */
	uint64_t written_kb = 18ull * 3 * 1024;
	assert_true(test_vmstat(&r, "pgpgout") <= written_kb);
	assert_true(test_vmstat(&r, "pgpgout") >= written_kb / 2);
	assert_int_equal(test_vmstat(&r, "pgpgin"), 0);
	/* it is a page-cache stream: reclaim ran and took file pages */
	assert_true(test_vmstat_zones(&r, "pgsteal") > 0);
	assert_true(test_metric(&r, "elapsed") > 0);
	run_result_free(&r);
}

/* Two writers throttled in balance_dirty_pages at once, and the flusher: each pass over
 * the dirty inodes may sleep for a request slot while another runs (issue 15's crash). */
static void fsmark_two_threads_share_the_dirty_list(void **state)
{
	(void)state;
	struct scenario_config cfg;
	test_scenario(&cfg, "machine.profile = amd-2011\n"
			    "machine.ram = 512M\n"
			    "machine.swap = 1G\n"
			    "machine.cpus = 1\n"
			    "vm.dirty_ratio = 20\n"
			    "vm.dirty_background_ratio = 10\n"
			    "workload = fsmark\n"
			    "fsmark.threads = 2\n"
			    "fsmark.subdirs = 100\n"
			    "fsmark.files_per_subdir = 150\n"
			    "fsmark.files = 150\n"
			    "fsmark.loops = 1\n"
			    "fsmark.size = 10M\n");
	struct run_result r;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	/* 300 files of 10 MiB: past the dirty limit, most of it written */
	assert_true(test_vmstat(&r, "pgpgout") >= 300ull * 10240 / 2);
	run_result_free(&r);
}

/* The micro benchmark with its dirty pages in the mapping's PTEs only (no write-notify, as
 * before 2.6.19), so that they reach reclaim dirty: with write-notify the first write
 * dirties the page, balance_dirty_pages throttles the writer and the flusher cleans the
 * pages, oldest first, before reclaim meets them (test_shared_writenotify). It needs the
 * thread's 512 MiB: on smaller machines kswapd's scan targets at DEF_PRIORITY are so small
 * that it mostly writes at low priorities, where patch 2 allows it, and skipping at high
 * priority can even drive it lower and make it write more (seen at 256 MiB). */
static const char small_mapstream[] = "machine.profile = x86_64-2008\n"
				      "machine.ram = 512M\n"
				      "machine.swap = 64M\n"
				      "machine.cpus = 1\n"
				      "kernel.mmap_writenotify = 0\n"
				      "workload = mapstream\n"
				      "mapstream.size = 768M\n";

struct arm_counts {
	uint64_t direct_file, kswapd_file, skip, immediate, throttled, vmscan_write;
};

static struct arm_counts run_arm(const char *extra)
{
	char text[1024];
	snprintf(text, sizeof(text), "%s%s", small_mapstream, extra);
	struct scenario_config cfg;
	test_scenario(&cfg, text);
	cfg.check_every = 100000; /* the whole machine is walked each time */
	struct run_result r;
	test_run(&cfg, 1, &r);
	assert_true(r.completed);
	struct arm_counts c = {
	    .direct_file = test_vmstat(&r, "mmsim_direct_file_writes"),
	    .kswapd_file = test_vmstat(&r, "mmsim_kswapd_file_writes"),
	    .skip = test_vmstat(&r, "nr_vmscan_write_skip"),
	    .immediate = test_vmstat(&r, "nr_vmscan_immediate_reclaim"),
	    .throttled = test_vmstat(&r, "nr_vmscan_throttled"),
	    .vmscan_write = test_vmstat(&r, "nr_vmscan_write"),
	};
	run_result_free(&r);
	return c;
}

#define P1  "vm.reclaim_direct_file_writeback = 0\n"
#define P2  "vm.reclaim_kswapd_file_writeback = 1\n"
#define P3  "vm.reclaim_throttle_writeback = 1\n"
#define P4  "vm.reclaim_immediate = 1\n"
#define P8v "vm.reclaim_kswapd_file_writeback = 0\n"

static void series_switches_do_what_the_thread_says(void **state)
{
	(void)state;
	struct arm_counts van = run_arm("");
	struct arm_counts p1 = run_arm(P1);
	struct arm_counts p12 = run_arm(P1 P2);
	struct arm_counts p123 = run_arm(P1 P2 P3);
	struct arm_counts p1234 = run_arm(P1 P2 P3 P4);
	struct arm_counts nokswapd = run_arm(P1 P8v);

	/* vanilla: both kinds of reclaimer write file pages, nothing is skipped */
	assert_true(van.direct_file > 0);
	assert_true(van.kswapd_file > 0);
	assert_int_equal(van.skip, 0);
	assert_int_equal(van.immediate, 0);
	assert_int_equal(van.throttled, 0);
	/* patch 1: direct reclaim writes no file page; what it met dirty is skipped */
	assert_int_equal(p1.direct_file, 0);
	assert_true(p1.skip > 0);
	/* patch 2: kswapd writes fewer file pages than with patch 1 alone */
	assert_true(p12.kswapd_file < p1.kswapd_file);
	/* v2 patch 8: kswapd writes none */
	assert_int_equal(nokswapd.kswapd_file, 0);
	assert_int_equal(nokswapd.direct_file, 0);
	/* patch 3: reclaimers were throttled on batches under writeback */
	assert_true(p123.throttled > 0);
	assert_int_equal(p123.direct_file, 0);
	/* patch 4: every skipped page was marked for immediate reclaim */
	assert_true(p1234.immediate > 0);
	assert_int_equal(p1234.immediate, p1234.skip);
	/* reclaim's own writes: file writes plus swap-outs, fewer with the series */
	assert_true(p1234.vmscan_write < van.vmscan_write);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(fsmark_small_is_deterministic),
	    cmocka_unit_test(fsmark_reports_like_the_tool),
	    cmocka_unit_test(fsmark_two_threads_share_the_dirty_list),
	    cmocka_unit_test(series_switches_do_what_the_thread_says),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
