/* End to end: whole runs with the invariant checker on throughout. usemem at twice RAM
 * with swap completes with swap traffic and both kinds of reclaim; without swap it
 * OOM-kills; filestream larger than RAM completes; the same seed gives the same run. */
#include "util/testutil.h"

#include "cli/scenario_file.h"
#include "kernel/process.h"

#include <errno.h>
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
	/* the launcher sees its children die and ends, but usemem failed: no figure of merit */
	assert_false(r.completed);
	assert_true(r.failed);
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

/* fork + exec + wait through the process API: the child's program text is a file
 * mapping, its pages come from the page cache, and exit frees everything. */
static struct address_space *prog;
static uint64_t text_at;
static int exec_status = -1;

static void exec_body(void *arg)
{
	(void)arg;
	for (uint64_t i = 0; i < prog->size_pages; i++)
		sys_touch(text_at + i, TOUCH_EXEC);
	uint64_t heap = sys_mmap_anon(64, VM_READ | VM_WRITE);
	for (uint64_t i = 0; i < 64; i++)
		sys_touch(heap + i, TOUCH_WRITE);
}

static void exec_child(void *arg)
{
	(void)arg;
	sys_exec("prog", prog, &text_at, exec_body, NULL);
}

static void exec_parent(void *arg)
{
	(void)arg;
	sys_fork("child", exec_child, NULL);
	int code = -1;
	/* no cmocka assertion inside a simulated task: record, check after the run */
	if (sys_wait(&code) > 0)
		exec_status = code;
	sys_exit(0);
}

static bool invariants_broken;

static void check_or_stop(void)
{
	if (mm_check_invariants() != 0) {
		invariants_broken = true;
		sched_request_stop();
	}
}

static void fork_exec_wait(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	mm_start_kthreads();
	prog = file_create("prog", 40, 40, true);
	long free_before = test_free_pages();
	struct process *p = process_spawn("parent", exec_parent, NULL);
	assert_non_null(p);
	sched_set_check_hook(check_or_stop, 50);
	sched_run(60ULL * NSEC_PER_SEC, NULL);
	assert_false(invariants_broken);
	assert_int_equal(exec_status, 0);
	assert_int_equal(prog->nrpages, 40);			/* the text stays cached */
	assert_int_equal(global_page_state(NR_FILE_MAPPED), 0); /* but nobody maps it */
	assert_int_equal(global_page_state(NR_ANON_PAGES), 0);
	assert_true(vm_events[PGMAJFAULT] > 0);
	/* only the page cache (40) is still held; stacks, page tables, heap were freed */
	assert_int_equal(test_free_pages(), free_before - 40);
	kernel_shutdown();
	test_machine_shutdown();
}

/* fork_init's max_threads: an eighth of memory in kernel stacks, and the fork past it fails
 * with EAGAIN (2.6.28 copy_process) while every earlier child is still alive. */
static int forks_done, fork_errno;

static void sleeper(void *arg)
{
	(void)arg;
	sys_sleep(10ULL * NSEC_PER_SEC);
}

static void forker(void *arg)
{
	(void)arg;
	while (sys_fork("sleeper", sleeper, NULL))
		forks_done++;
	fork_errno = sys_errno;
	while (sys_wait(NULL) > 0)
		;
	sys_exit(0);
}

static void fork_past_max_threads(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	kernel_reset(); /* the pids earlier tests' runs left */
	mm_start_kthreads();
	/* 16384 frames, 8 KiB stacks on 4 KiB pages: 16384 / (8 * 2) = 1024 threads */
	unsigned long max_threads = MM->nr_frames / (8 * MM->hw->thread_size / MM->page_size);
	assert_int_equal(max_threads, 1024);
	forks_done = 0;
	fork_errno = 0;
	assert_non_null(process_spawn("forker", forker, NULL));
	sched_run(60ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(fork_errno, EAGAIN);
	assert_int_equal(forks_done, (int)max_threads - 1); /* the forker holds one */
	kernel_shutdown();
	test_machine_shutdown();
}

/* A parent's children are listed oldest first (copy_process's list_add_tail): wait() reaps
 * the oldest zombie, and the OOM killer, choosing the parent for its children's memory,
 * kills its oldest child with an mm of its own. Children 0, 1, 2 sleep 3, 1 and 2 s; the
 * parent calls the OOM killer at once, then waits 5 s and reaps: the oldest (0) is killed
 * and every child has exited when wait() runs, so it returns them in the order forked. */
static int reaped[3], reaped_code[3], children_pid[3];
static const sim_time_t child_sleep[3] = {3 * NSEC_PER_SEC, NSEC_PER_SEC, 2 * NSEC_PER_SEC};

static void timed_sleeper(void *arg)
{
	sys_sleep(*(const sim_time_t *)arg);
}

static void oldest_first_parent(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++)
		children_pid[i] =
		    sys_fork("child", timed_sleeper, (void *)&child_sleep[i])->task->task.pid;
	out_of_memory(GFP_KERNEL, 0);
	sys_sleep(5 * NSEC_PER_SEC);
	for (int i = 0; i < 3; i++)
		reaped[i] = sys_wait(&reaped_code[i]);
	sys_exit(0);
}

static void children_oldest_first(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	kernel_reset();
	mm_start_kthreads();
	MM->task_ops = &kernel_task_ops; /* the real kill and children, as a run has them */
	assert_non_null(process_spawn("parent", oldest_first_parent, NULL));
	sched_run(60ULL * NSEC_PER_SEC, NULL);
	assert_int_equal(MM->rstats.oom_kills, 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(reaped[i], children_pid[i]);
	assert_int_equal(reaped_code[0], 137);
	assert_int_equal(reaped_code[1], 0);
	assert_int_equal(reaped_code[2], 0);
	kernel_shutdown();
	test_machine_shutdown();
}

/* A parent the OOM killer chooses while fork copies its mm: copy_process sees the signal
 * and drops the half-made child, which never runs (2.6.28 kernel/fork.c). The parent fills
 * the one zone of a swapless 32 MiB board to a few pages above min, then forks: dup_mm's
 * page tables find nothing to reclaim, and the parent, with no child yet, is the victim. */
static bool doomed_forking, doomed_child_ran;

static void doomed_child(void *arg)
{
	(void)arg;
	doomed_child_ran = true;
}

static void doomed_parent(void *arg)
{
	(void)arg;
	uint64_t n = MM->nr_frames;
	uint64_t heap = sys_mmap_anon(n, VM_READ | VM_WRITE);
	unsigned long min = 0;
	for (int z = 0; z < MM->nr_zones; z++)
		min += MM->zones[z].pages_min;
	for (uint64_t i = 0; i < n && global_page_state(NR_FREE_PAGES) > (long)min + 4; i++)
		sys_touch(heap + i, TOUCH_WRITE);
	doomed_forking = true;
	sys_fork("child", doomed_child, NULL);
	sys_exit(0);
}

static void fork_aborts_when_the_parent_is_killed(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	int populated = 0;
	for (int z = 0; z < MM->nr_zones; z++)
		populated += MM->zones[z].present_pages > 0;
	assert_int_equal(populated, 1);
	kernel_reset();
	mm_start_kthreads();
	MM->task_ops = &kernel_task_ops;
	/* the heap is as large as RAM: 2.6.28's guess (vm.overcommit_memory = 0) would refuse
	 * it; this test is about the OOM killer */
	MM->sysctl.overcommit_memory = OVERCOMMIT_ALWAYS;
	doomed_forking = doomed_child_ran = false;
	assert_non_null(process_spawn("parent", doomed_parent, NULL));
	sched_run(60ULL * NSEC_PER_SEC, NULL);
	assert_true(doomed_forking); /* killed in the fork, not before */
	assert_int_equal(MM->rstats.oom_kills, 1);
	assert_false(doomed_child_ran);
	assert_int_equal(mm_check_invariants(), 0);
	kernel_shutdown();
	test_machine_shutdown();
}

/* hw.* overrides (sensitivity studies): the run's profile takes the given cost and keeps
 * every other; unset keeps the profile's and 0 is refused (it would read as unset); a dearer
 * system call shows in the run's system time; a scenario file may not set them. */
static void hw_overrides(void **state)
{
	(void)state;
	static const char *small =
	    "machine.profile = arm926-2008\nmachine.ram = 32M\n"
	    "workload = hackbench\nhackbench.groups = 1\nhackbench.loops = 20\n";
	struct scenario_config cfg;
	test_scenario(&cfg, small);
	const struct hw_profile *stock = hw_profile_find("arm926-2008");
	struct hw_profile p;
	assert_true(scenario_profile(&cfg, &p));
#define SAME_COST(f) assert_int_equal(p.f, stock->f);
	HW_PROFILE_COSTS(SAME_COST)
	assert_string_equal(p.name, stock->name);
	char err[256];
	assert_int_equal(
	    scenario_apply_override(&cfg, "hw.syscall_ns=4000", "--set", err, sizeof(err)), 0);
	assert_true(scenario_profile(&cfg, &p));
	assert_int_equal(p.syscall_ns, 4000);
	p.syscall_ns = stock->syscall_ns;
	HW_PROFILE_COSTS(SAME_COST)
#undef SAME_COST
	/* hw.disk.*: the disk's figure, the rest of the disk kept */
	assert_int_equal(p.disk.request_ns, stock->disk.request_ns);
	assert_int_equal(scenario_apply_override(&cfg, "hw.disk.bandwidth_Bps=12500000", "--set",
						 err, sizeof(err)),
			 0);
	assert_true(scenario_profile(&cfg, &p));
	assert_int_equal(p.disk.bandwidth_Bps, 12500000);
	assert_int_equal(p.disk.request_ns, stock->disk.request_ns);
	assert_int_equal(p.disk.max_request_bytes, stock->disk.max_request_bytes);
	assert_int_equal(
	    scenario_apply_override(&cfg, "hw.switch_mm_ns=0", "--set", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "expected an integer in 1..1000000000"));

	struct run_result a, b;
	test_scenario(&cfg, small);
	test_run(&cfg, 1, &a);
	assert_int_equal(
	    scenario_apply_override(&cfg, "hw.syscall_ns=4000", "--set", err, sizeof(err)), 0);
	test_run(&cfg, 1, &b);
	assert_true(a.completed && b.completed);
	/* 1 group, 20 loops: 20 senders x 20 receivers x 20 = 8,000 writes and as many
	 * reads, each 2 us dearer */
	assert_true(b.sys_ns >= a.sys_ns + 16000ULL * 2000);
	run_result_free(&a);
	run_result_free(&b);

	/* hw.disk.write_*: naming the profile's own write figures (its write command
	 * overhead; the read's rate, which it leaves unset) changes nothing; a dearer write
	 * lengthens a run that swaps out */
	struct run_result w0, w1, w2;
	const struct hw_profile *x86 = hw_profile_find("x86_64-2008");
	test_scenario(&cfg, usemem_2x);
	test_run(&cfg, 1, &w0);
	char kv[96];
	assert_true(x86->disk.write_request_ns && !x86->disk.write_bandwidth_Bps);
	snprintf(kv, sizeof(kv), "hw.disk.write_request_ns=%llu",
		 (unsigned long long)x86->disk.write_request_ns);
	assert_int_equal(scenario_apply_override(&cfg, kv, "--set", err, sizeof(err)), 0);
	snprintf(kv, sizeof(kv), "hw.disk.write_bandwidth_Bps=%llu",
		 (unsigned long long)x86->disk.bandwidth_Bps);
	assert_int_equal(scenario_apply_override(&cfg, kv, "--set", err, sizeof(err)), 0);
	test_run(&cfg, 1, &w1);
	assert_true(same_run(&w0, &w1));
	snprintf(kv, sizeof(kv), "hw.disk.write_request_ns=%llu",
		 (unsigned long long)x86->disk.request_ns * 20);
	assert_int_equal(scenario_apply_override(&cfg, kv, "--set", err, sizeof(err)), 0);
	assert_true(scenario_profile(&cfg, &p));
	assert_int_equal(p.disk.write_request_ns, x86->disk.request_ns * 20);
	assert_int_equal(p.disk.request_ns, x86->disk.request_ns);
	test_run(&cfg, 1, &w2);
	assert_true(w0.completed && w2.completed && test_vmstat(&w2, "pswpout") > 0);
	assert_true(w2.elapsed > w0.elapsed);
	run_result_free(&w0);
	run_result_free(&w1);
	run_result_free(&w2);

	scenario_defaults(&cfg);
	const char *text = "machine.ram = 64M\nhw.syscall_ns = 4000\n";
	assert_int_equal(scenario_parse_text(&cfg, text, strlen(text), "f.conf", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "f.conf:2: 'hw.syscall_ns' may not be set in a scenario file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(usemem_twice_ram_swaps),
	    cmocka_unit_test(usemem_without_swap_oom_kills),
	    cmocka_unit_test(filestream_larger_than_ram),
	    cmocka_unit_test(deterministic_per_seed),
	    cmocka_unit_test(fork_exec_wait),
	    cmocka_unit_test(fork_past_max_threads),
	    cmocka_unit_test(children_oldest_first),
	    cmocka_unit_test(fork_aborts_when_the_parent_is_killed),
	    cmocka_unit_test(hw_overrides),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
