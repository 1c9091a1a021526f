/* 2.6.8's O(1) scheduler on two CPUs at HZ 1000 (kernel/sched.c): a runqueue per CPU, the
 * CPU a wakeup goes to, an idle CPU pulling a queued task, exec balancing and the load
 * average they read, on hand-built machines where the kernel's choice can be worked out.
 * Timer ticks cost 1 us; their phase comes from the seed, so times hold to within a jiffy. */
#include "sim/sched_impl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#define MS NSEC_PER_MSEC
#define US NSEC_PER_USEC

static void boot(void)
{
	sched_init(2, 50 * US, 4 * MS, 1000);
	sched_set_ticks(1000, 7);
	sched_set_o1(true);
}

static void hog(void *arg)
{
	sim_time_t until = (sim_time_t)(intptr_t)arg * MS;
	while (local_now() < until)
		cpu_work(20 * US);
}

/* ---- where a wakeup goes ---- */

static struct waitqueue wq;
static sim_time_t sleep_for;
static int s_cpu_after_wake;
static sim_time_t s_ran_at;

static void sleeper(void *arg)
{
	(void)arg;
	while (local_now() < 5 * MS)
		cpu_work(20 * US);
	sleep_on(&wq, 0, true);
	cpu_work(20 * US); /* runs on the CPU it was woken to */
	s_cpu_after_wake = sim_current->cpu;
	s_ran_at = local_now();
}

static void waker(void *arg)
{
	(void)arg;
	while (local_now() < 5 * MS + sleep_for)
		cpu_work(20 * US);
	sched_sync();
	wake_up_all(&wq);
	hog((void *)(intptr_t)200);
}

/* S starts on CPU 0 (the emptiest runqueue, the lowest index on a tie), W on CPU 1, and a
 * hog H on CPU 0 again (one task each: the tie), queued behind S. H and W run at nice 5
 * (prio 130), so S (125) runs until it sleeps at 5 ms and preempts whichever it joins when
 * W wakes it. Each runqueue then carries one task (load 128; CPU 1's balancing, due at its
 * first tick through CPU_OFFSET, found itself as loaded as CPU 0 and waits 128 jiffies), so
 * try_to_wake_up's balance test (137 x 128 <= 100 x 128) fails and only the cache decides:
 * S asleep for 10 ms is cold and goes to the waker's CPU 1 (SD_WAKE_AFFINE); asleep for
 * 1 ms it is hot (task_hot: 2.5 ms) and stays on CPU 0. */
static void run_wake(sim_time_t slept)
{
	boot();
	memset(&wq, 0, sizeof(wq));
	sleep_for = slept;
	s_cpu_after_wake = -1;
	struct task *s = task_create("S", sleeper, NULL);
	struct task *w = task_create("W", waker, NULL);
	struct task *h = task_create("H", hog, (void *)(intptr_t)200);
	set_user_nice(w, 5);
	set_user_nice(h, 5);
	task_start(s);
	task_start(w);
	task_start(h);
	assert_int_equal(s->o1_cpu, 0);
	assert_int_equal(w->o1_cpu, 1);
	assert_int_equal(h->o1_cpu, 0);
	sched_run(50 * MS, NULL);
}

static void cold_wakeup_goes_to_the_wakers_cpu(void **state)
{
	(void)state;
	run_wake(10 * MS);
	assert_int_equal(s_cpu_after_wake, 1);
	assert_true(s_ran_at < 15 * MS + 300 * US); /* preempted W at W's next yield */
	sched_destroy();
}

static void hot_wakeup_stays_on_its_cpu(void **state)
{
	(void)state;
	run_wake(1 * MS);
	assert_int_equal(s_cpu_after_wake, 0);
	assert_true(s_ran_at < 6 * MS + 300 * US);
	sched_destroy();
}

/* ---- an idle CPU pulls ---- */

static sim_time_t p_started_on_1;
static struct task *p_task;

static void spinner(void *arg)
{
	(void)arg;
	while (local_now() < 60 * MS) {
		cpu_work(20 * US);
		if (!p_started_on_1 && sim_current == p_task && sim_current->cpu == 1)
			p_started_on_1 = local_now();
	}
}

static void forker(void *arg)
{
	(void)arg;
	cpu_work(100 * US);
	sched_sync();
	task_start(task_create("C", spinner, NULL)); /* runs first, on CPU 0 */
	spinner(NULL);
}

/* P (CPU 0) forks C on its own runqueue; C runs first and P waits queued, CPU 1 idle.
 * CPU 1's rebalance_tick finds CPU 0's load above its own once CPU 0's average has risen
 * past one task's (192 after the fork's second tick: 0 -> 128 -> 192), then moves P, first
 * refused while P is cache-hot (descheduled < 2.5 ms before) unless balancing has failed
 * once. So P runs on CPU 1 within a few jiffies, where without balancing it would wait on
 * CPU 0 for C's 51-jiffy half timeslice. */
static void idle_cpu_pulls_a_queued_task(void **state)
{
	(void)state;
	boot();
	p_started_on_1 = 0;
	p_task = task_create("P", forker, NULL);
	task_start(p_task);
	sched_run(60 * MS, NULL);
	assert_true(p_started_on_1 > 100 * US);
	assert_true(p_started_on_1 < 6 * MS);
	sched_destroy();
}

/* ---- exec ---- */

static int c_cpu_after_exec;
static sim_time_t c_exec_at, p_back_at;
static struct task *parent;

static void execer(void *arg)
{
	(void)arg;
	cpu_work(50 * US);
	c_exec_at = local_now();
	sched_exec();
	c_cpu_after_exec = sim_current->cpu;
	hog((void *)(intptr_t)20);
}

static void exec_parent(void *arg)
{
	(void)arg;
	cpu_work(100 * US);
	sched_sync();
	task_start(task_create("C", execer, NULL));
	cpu_work(20 * US);
	p_back_at = local_now();
	hog((void *)(intptr_t)20);
}

/* The child runs first on its parent's CPU 0, the parent queued behind it; at exec its
 * runqueue holds two tasks and CPU 1 is idle (target load 0 < 100/112 of CPU 0's), so
 * sched_balance_exec sends it to CPU 1 and the parent gets CPU 0 back at once. */
static void exec_moves_to_the_idle_cpu(void **state)
{
	(void)state;
	boot();
	c_cpu_after_exec = -1;
	parent = task_create("P", exec_parent, NULL);
	task_start(parent);
	sched_run(30 * MS, NULL);
	assert_int_equal(c_cpu_after_exec, 1);
	assert_true(p_back_at < c_exec_at + 100 * US);
	sched_destroy();
}

/* ---- the load average ---- */

static uint64_t loads[8];
static uint64_t jiffies_at[8];

static void sampler(void *arg)
{
	(void)arg;
	for (int i = 0; i < 8; i++) {
		while (local_now() < (sim_time_t)(i + 1) * 1300 * US)
			cpu_work(10 * US);
		o1_load_sync(0);
		loads[i] = sched.o1_rqs[0].cpu_load;
		jiffies_at[i] = o1_jiffies();
	}
}

/* rebalance_tick: at each tick cpu_load = (cpu_load + 1 + 128) / 2 while one task runs:
 * 0, 64, 96, 112, 120, 124, 126, 127, 128. */
static void cpu_load_averages_per_tick(void **state)
{
	(void)state;
	static const uint64_t want[] = {0, 64, 96, 112, 120, 124, 126, 127, 128, 128, 128, 128};
	boot();
	task_start(task_create("A", sampler, NULL));
	sched_run(12 * MS, NULL);
	for (int i = 0; i < 8; i++) {
		assert_true(jiffies_at[i] < 12);
		assert_int_equal(loads[i], want[jiffies_at[i]]);
	}
	assert_true(jiffies_at[7] >= 9); /* the average has settled at 128, not 127 */
	sched_destroy();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(cold_wakeup_goes_to_the_wakers_cpu),
	    cmocka_unit_test(hot_wakeup_stays_on_its_cpu),
	    cmocka_unit_test(idle_cpu_pulls_a_queued_task),
	    cmocka_unit_test(exec_moves_to_the_idle_cpu),
	    cmocka_unit_test(cpu_load_averages_per_tick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
