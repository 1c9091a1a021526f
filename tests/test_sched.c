/* The scheduler's kernel rules in small: wait queues wake the latest non-exclusive sleeper
 * first and stop after one exclusive sleeper for wake_up; CFS shares a CPU between nice
 * levels by their prio_to_weight weights. */
#include "sim/sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

static struct waitqueue wq;
static int order[8], nr_order;
static bool exclusive_sleep[8];

static void sleeper(void *arg)
{
	int id = (int)(intptr_t)arg;
	if (exclusive_sleep[id])
		sleep_on_exclusive(&wq, 0, false);
	else
		sleep_on(&wq, 0, false);
	order[nr_order++] = id;
}

static void start_sleepers(int n, void (*waker)(void *))
{
	sched_init(1, 50000, 4000000, 1000);
	memset(&wq, 0, sizeof(wq));
	nr_order = 0;
	for (int i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof(name), "s%d", i);
		task_start(task_create(name, sleeper, (void *)(intptr_t)i));
		/* each sleeps before the next is created */
		sched_run(sim_clock + 1000000, NULL);
	}
	task_start(task_create("waker", waker, NULL));
	sched_run(sim_clock + 100000000, NULL);
}

static void wake_all(void *arg)
{
	(void)arg;
	assert_int_equal(wq.nr, 3);
	wake_up_all(&wq);
}

static void wake_one(void *arg)
{
	(void)arg;
	wake_up_one(&wq);
}

/* Three tasks sleep in order 0, 1, 2 (add_wait_queue puts each at the head); wake_up_all
 * makes them runnable 2, 1, 0 and, with equal virtual runtimes, that is the order they
 * run in. */
static void lifo_wakeups(void **state)
{
	(void)state;
	memset(exclusive_sleep, 0, sizeof(exclusive_sleep));
	start_sleepers(3, wake_all);
	assert_int_equal(nr_order, 3);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 0);
	sched_destroy();
}

/* 0 and 1 sleep exclusively (at the tail, in order), 2 and 3 not (at the head): the queue
 * reads 3, 2, 0, 1. wake_up wakes every non-exclusive sleeper and the first exclusive one:
 * 3, 2 and 0; 1 sleeps on. */
static void exclusive_wakeups(void **state)
{
	(void)state;
	memset(exclusive_sleep, 0, sizeof(exclusive_sleep));
	exclusive_sleep[0] = exclusive_sleep[1] = true;
	start_sleepers(4, wake_one);
	assert_int_equal(nr_order, 3);
	assert_int_equal(order[0], 3);
	assert_int_equal(order[1], 2);
	assert_int_equal(order[2], 0);
	assert_int_equal(wq.nr, 1);
	assert_true(wq.head && !strcmp(wq.head->comm, "s1"));
	sched_destroy();
}

static sim_time_t spin_until;

static void spinner(void *arg)
{
	(void)arg;
	while (local_now() < spin_until)
		cpu_work(100000);
}

/* Two CPU-bound tasks, nice 0 and nice -5, on one CPU for 2 s: CFS gives each CPU in
 * proportion to its weight, 1024 : 3121, so the nice -5 task gets 3121/4145 = 75.3%. */
static void nice_shares(void **state)
{
	(void)state;
	sched_init(1, 50000, 4000000, 1000);
	spin_until = 2 * NSEC_PER_SEC;
	struct task *a = task_create("nice0", spinner, NULL);
	struct task *b = task_create("nice-5", spinner, NULL);
	set_user_nice(b, -5);
	assert_int_equal(b->weight, 3121);
	task_start(a);
	task_start(b);
	sched_run(3 * NSEC_PER_SEC, NULL);
	double share =
	    (double)(b->utime + b->stime) / (double)(a->utime + a->stime + b->utime + b->stime);
	assert_true(share > 0.73 && share < 0.78);
	sched_destroy();
}

/* schedule()'s switch counts (ru_nvcsw, ru_nivcsw). Two CPU-bound tasks on one CPU for
 * 200 ms: each turn is the period's share, 20 ms / 2 = 10 ms, looked at when a task yields
 * (no ticks), so a is preempted at 10, 30, ..., 190 ms (10 times), b at 20, ..., 180 ms (9);
 * b's last turn ends at 200 ms, when it dies, and a, switched in, dies at once: 21 switches
 * in, the first from the idle CPU to a at 0 included. A task that
 * naps five times alone on its CPU switches out voluntarily six times, its exit included. */
static void napper(void *arg)
{
	(void)arg;
	for (int i = 0; i < 5; i++) {
		cpu_work(1000000);
		schedule_timeout(10 * NSEC_PER_MSEC);
	}
}

static void switch_counts(void **state)
{
	(void)state;
	sched_init(1, 50000, 4000000, 1000);
	spin_until = 200 * NSEC_PER_MSEC;
	struct task *a = task_create("a", spinner, NULL), *b = task_create("b", spinner, NULL);
	task_start(a);
	task_start(b);
	sched_run(NSEC_PER_SEC, NULL);
	assert_int_equal(a->nivcsw, 10);
	assert_int_equal(b->nivcsw, 9);
	assert_int_equal(a->nvcsw, 1);
	assert_int_equal(b->nvcsw, 1);
	assert_int_equal(sched_get_stats()->context_switches, 21);
	sched_destroy();

	sched_init(1, 50000, 4000000, 1000);
	struct task *n = task_create("napper", napper, NULL);
	task_start(n);
	sched_run(NSEC_PER_SEC, NULL);
	assert_int_equal(n->nvcsw, 6);
	assert_int_equal(n->nivcsw, 0);
	sched_destroy();
}

/* place_entity's sleeper credit. A task that slept while four CPU-bound tasks ran is woken
 * (from scheduler context, so at once) with them all runnable: without NORMALIZED_SLEEPER it
 * is placed one sched_latency (20 ms on one CPU) behind min_vruntime; with it the credit is
 * 20 ms x 1024 / the run queue's load, the four spinners plus itself: 4 ms. Everything before
 * the wakeup is the same in both runs, so the placements differ by exactly 16 ms. */
static struct task *woken;
static sim_time_t woken_vruntime;

static void wake_now(void *arg, uint64_t arg2)
{
	(void)arg;
	(void)arg2;
	wake_up_all(&wq);
	woken_vruntime = woken->vruntime;
}

static sim_time_t placement(bool normalized)
{
	sched_init(1, 50000, 4000000, 1000);
	sched_set_normalized_sleeper(normalized);
	memset(&wq, 0, sizeof(wq));
	memset(exclusive_sleep, 0, sizeof(exclusive_sleep));
	nr_order = 0;
	woken = task_create("sleeper", sleeper, (void *)(intptr_t)0);
	task_start(woken);
	sched_run(sim_clock + 1000000, NULL);
	spin_until = sim_clock + 2 * NSEC_PER_SEC;
	for (int i = 0; i < 4; i++)
		task_start(task_create("spin", spinner, NULL));
	sched_callback_at(sim_clock + NSEC_PER_SEC, wake_now, NULL, 0);
	sched_run(sim_clock + NSEC_PER_SEC + 1, NULL);
	assert_int_equal(nr_order, 0); /* woken, not yet run: the spinners are ahead */
	sched_run(sim_clock + 3 * NSEC_PER_SEC, NULL);
	assert_int_equal(nr_order, 1);
	sched_destroy();
	return woken_vruntime;
}

static void sleeper_credit(void **state)
{
	(void)state;
	sim_time_t plain = placement(false), normalized = placement(true);
	assert_true(plain > 200 * NSEC_PER_MSEC); /* the spinners' progress, not 0 */
	assert_int_equal(normalized - plain, 16 * NSEC_PER_MSEC);
}

/* context_switch's switch_mm: a task switched in pays ctxsw_ns, and switch_mm_ns more when
 * its address space is not the one its CPU last ran (the CPU's first, from none, included);
 * a kernel thread (none) keeps the CPU's. Spinners do no system work, so their system time
 * is exactly what their switches cost: a_mm_switches of a's switch-ins change the mm, all of
 * b's when b_changes. */
static void switch_mm_pair(uint64_t as_a, uint64_t as_b, uint64_t a_mm_switches, bool b_changes)
{
	sched_init(1, 50000, 4000000, 1000);
	sched_set_mem_context_cost(50000);
	spin_until = NSEC_PER_SEC;
	struct task *a = task_create("a", spinner, NULL);
	struct task *b = task_create("b", spinner, NULL);
	task_set_mem_context(a, as_a);
	task_set_mem_context(b, as_b);
	task_start(a);
	task_start(b);
	sched_run(2 * NSEC_PER_SEC, NULL);
	assert_true(a->nr_switched_in > 10 && b->nr_switched_in > 10);
	if (!a_mm_switches)
		a_mm_switches = a->nr_switched_in;
	assert_int_equal(a->stime, a->nr_switched_in * 1000 + a_mm_switches * 50000);
	assert_int_equal(b->stime, b->nr_switched_in * (b_changes ? 51000 : 1000));
	sched_destroy();
}

static void switch_mm_cost(void **state)
{
	(void)state;
	switch_mm_pair(1, 2, 0, true);	/* two processes: every switch changes the mm */
	switch_mm_pair(1, 1, 1, false); /* threads of one process: only the CPU's first */
	switch_mm_pair(1, 0, 1, false); /* a kernel thread borrows the process's mm */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(lifo_wakeups),   cmocka_unit_test(exclusive_wakeups),
	    cmocka_unit_test(nice_shares),    cmocka_unit_test(sleeper_credit),
	    cmocka_unit_test(switch_mm_cost), cmocka_unit_test(switch_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
