/* The OOM killer's victim choice (kernel-reclaim.md §1.19) on hand-built tasks. */
#include "util/testutil.h"

static void nop(void *arg)
{
	(void)arg;
}

/* A task that looks alive to select_bad_process, with an mm of total_vm pages. */
static struct task_struct *fake(const char *comm, unsigned long total_vm, sim_time_t cpu)
{
	struct task_struct *t = task_struct_create(comm, nop, NULL, false);
	t->task.state = TASK_BLOCKED;
	t->mm = mm_alloc();
	t->mm->total_vm = total_vm;
	t->task.utime = cpu;
	return t;
}

static void release(struct task_struct **ts, int n)
{
	for (int i = 0; i < n; i++) {
		exit_mmap(ts[i]->mm);
		ts[i]->mm = NULL;
	}
}

static void badness_arithmetic(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	struct task_struct *t = fake("a", 10000, 0);
	assert_int_equal(badness(t, 0), 10000);
	/* 32.768 s of CPU = 32768 jiffies >> 13 = 4: points / isqrt(4) = 5000 */
	t->task.utime = 32768ULL * JIFFY_NS;
	assert_int_equal(badness(t, 0), 5000);
	/* run time (uptime - start) 16 * 1024 s >> 10 = 16: isqrt(isqrt(16)) = 2 */
	assert_int_equal(badness(t, 16ULL * 1024 * NSEC_PER_SEC), 2500);
	t->task.utime = 0;
	t->mm->oomkilladj = 2;
	assert_int_equal(badness(t, 0), 40000);
	t->mm->oomkilladj = -3;
	assert_int_equal(badness(t, 0), 1250);
	release(&t, 1);
	test_machine_shutdown();
}

/* CPU time counts in jiffies of the machine's own HZ, shifted by its SHIFT_HZ + 3: on the
 * ARM board (HZ 100, SHIFT_HZ 7) 73.728 s are 7372 jiffies >> 10 = 7, isqrt 2; at HZ 1000
 * they would be 73728 >> 13 = 9, isqrt 3. */
static void badness_counts_the_machines_jiffies(void **state)
{
	(void)state;
	test_machine_boot("arm926-2008", 32ULL << 20, 0, 0);
	assert_int_equal(JIFFY_NS, 10 * NSEC_PER_MSEC);
	struct task_struct *t = fake("a", 10000, 73728ULL * NSEC_PER_MSEC);
	assert_int_equal(badness(t, 0), 5000);
	release(&t, 1);
	test_machine_shutdown();
}

static uint32_t test_caps;
static bool test_has_capability(struct task_struct *p, int cap)
{
	(void)p;
	return test_caps >> cap & 1;
}

/* The terms 2.6.28 adds after the square roots: nice > 0 doubles, CAP_SYS_ADMIN (or
 * CAP_SYS_RESOURCE) and CAP_SYS_RAWIO divide by 4 each; time counts in whole jiffies and
 * seconds. */
static void badness_nice_capabilities_and_units(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	const struct mm_task_ops ops = {.has_capability = test_has_capability};
	const struct mm_task_ops *saved = MM->task_ops;
	MM->task_ops = &ops;
	struct task_struct *t = fake("a", 10000, 0);
	set_user_nice(&t->task, 5);
	assert_int_equal(badness(t, 0), 20000);
	set_user_nice(&t->task, -5);
	assert_int_equal(badness(t, 0), 10000);
	set_user_nice(&t->task, 0);
	test_caps = 1u << 21; /* CAP_SYS_ADMIN */
	assert_int_equal(badness(t, 0), 2500);
	test_caps = 1u << 24; /* CAP_SYS_RESOURCE */
	assert_int_equal(badness(t, 0), 2500);
	test_caps |= 1u << 17; /* and CAP_SYS_RAWIO */
	assert_int_equal(badness(t, 0), 625);
	test_caps = 0;
	/* 16384.5 + 16383.5 jiffies: 16384 + 16383 whole ones, >> 13 = 3, isqrt 1 */
	t->task.utime = 16384ULL * JIFFY_NS + JIFFY_NS / 2;
	t->task.stime = 16383ULL * JIFFY_NS + JIFFY_NS / 2;
	assert_int_equal(badness(t, 0), 10000);
	t->task.utime = t->task.stime = 0;
	/* started at 0.6 s, now 16384.4 s: 16384 - 0 whole seconds >> 10 = 16, isqrt isqrt 2 */
	t->task.start_time = 600 * NSEC_PER_MSEC;
	assert_int_equal(badness(t, 16384ULL * NSEC_PER_SEC + 400 * NSEC_PER_MSEC), 5000);
	MM->task_ops = saved;
	release(&t, 1);
	test_machine_shutdown();
}

static void biggest_is_chosen(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	struct task_struct *ts[3] = {fake("small", 1000, 0), fake("big", 9000, 0),
				     fake("mid", 5000, 0)};
	out_of_memory(GFP_KERNEL, 0);
	assert_int_equal(test_nr_oom_killed, 1);
	assert_ptr_equal(test_oom_killed[0], ts[1]);
	assert_int_equal(MM->rstats.oom_kills, 1);
	assert_string_equal(MM->oom_records[0].comm, "big");
	assert_int_equal(MM->oom_records[0].badness, 9000);
	/* while the victim has TIF_MEMDIE nobody else is killed: wait for it to exit */
	out_of_memory(GFP_KERNEL, 0);
	assert_int_equal(test_nr_oom_killed, 1);
	release(ts, 3);
	test_machine_shutdown();
}

static void cpu_time_and_oom_disable(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	/* "busy" has the most memory but 4 CPU units: 9000/2 = 4500 < 5000 */
	struct task_struct *ts[3] = {fake("busy", 9000, 32768ULL * JIFFY_NS), fake("idle", 5000, 0),
				     fake("protected", 100000, 0)};
	ts[2]->mm->oomkilladj = -17; /* OOM_DISABLE */
	out_of_memory(GFP_KERNEL, 0);
	assert_int_equal(test_nr_oom_killed, 1);
	assert_ptr_equal(test_oom_killed[0], ts[1]);
	release(ts, 3);
	test_machine_shutdown();
}

static void kernel_threads_and_dead_are_skipped(void **state)
{
	(void)state;
	test_machine_boot("x86_64-2008", 64ULL << 20, 0, 0);
	struct task_struct *ts[2] = {fake("dead", 50000, 0), fake("alive", 10, 0)};
	ts[0]->task.state = TASK_DEAD;
	struct task_struct *k = task_struct_create("kswapd0", nop, NULL, true);
	k->task.state = TASK_BLOCKED;
	out_of_memory(GFP_KERNEL, 0);
	assert_int_equal(test_nr_oom_killed, 1);
	assert_ptr_equal(test_oom_killed[0], ts[1]);
	release(ts, 2);
	test_machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(badness_arithmetic),
	    cmocka_unit_test(badness_counts_the_machines_jiffies),
	    cmocka_unit_test(badness_nice_capabilities_and_units),
	    cmocka_unit_test(biggest_is_chosen),
	    cmocka_unit_test(cpu_time_and_oom_disable),
	    cmocka_unit_test(kernel_threads_and_dead_are_skipped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
