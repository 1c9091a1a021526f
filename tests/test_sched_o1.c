/* 2.6.8's O(1) scheduler (kernel/sched.c) on hand-built machines of one CPU at HZ 1000, where
 * the kernel's numbers can be worked out: a nice-0 timeslice of 102 jiffies
 * (BASE_TIMESLICE: 10 + 190 x 19 / 39), MAX_SLEEP_AVG 1,020 jiffies, the sleep bonus, the
 * fork split and sched_exit. Timer ticks cost 1 us; their phase comes from the seed, so the
 * times below hold to within a jiffy. */
#include "sim/sched_impl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#define MS NSEC_PER_MSEC
#define US NSEC_PER_USEC

/* who ran when: each change of the task running, at its local time */
struct run {
	int id;
	sim_time_t at;
};
static struct run runs[64];
static int nr_runs;

/* One CPU at HZ 1000, timer ticks of 1 us, the O(1) scheduler; the log of runs emptied. */
static void boot(void)
{
	sched_init(1, 50 * US, 4 * MS, 1000);
	sched_set_ticks(1000, 7);
	sched_set_o1(true);
	nr_runs = 0;
}

static void ran(int id)
{
	if (nr_runs && runs[nr_runs - 1].id == id)
		return;
	if (nr_runs < 64)
		runs[nr_runs++] = (struct run){id, local_now()};
}

static void hog(void *arg)
{
	int id = (int)(intptr_t)arg;
	while (local_now() < 400 * MS) {
		ran(id);
		cpu_work(20 * US);
	}
}

static void assert_near(sim_time_t got, sim_time_t want, sim_time_t tol)
{
	if (got + tol < want || got > want + tol)
		fail_msg("%llu ns, expected %llu +- %llu", (unsigned long long)got,
			 (unsigned long long)want, (unsigned long long)tol);
}

/* The i-th change of task was to task id at ms milliseconds, to within a jiffy's phase. */
static void assert_run(int i, int id, sim_time_t ms)
{
	assert_true(nr_runs > i);
	assert_int_equal(runs[i].id, id);
	assert_near(runs[i].at, ms * MS, 1200 * US);
}

/* Two CPU hogs (sleep_avg 0: prio 125, not interactive): each runs its whole 102-jiffy
 * timeslice, then goes to the expired array; the other runs; when both have expired the
 * arrays switch. A CFS machine would switch them every few ms. */
static void hogs_take_whole_timeslices(void **state)
{
	(void)state;
	boot();
	struct task *a = task_create("A", hog, (void *)(intptr_t)1);
	struct task *b = task_create("B", hog, (void *)(intptr_t)2);
	task_start(a);
	task_start(b);
	assert_int_equal(a->prio, 125);
	assert_int_equal(a->time_slice, 102);
	sched_run(400 * MS, NULL);
	/* each stretch: 102 ticks, the first cut short by the tick phase */
	for (int i = 0; i < 4; i++)
		assert_run(i, i % 2 ? 2 : 1, (sim_time_t)i * 102);
	/* preempted at its timeslice's end: A at 102 and 306 ms, B at 204 */
	assert_int_equal(a->nivcsw, 2);
	assert_int_equal(b->nivcsw, 1);
	sched_destroy();
}

/* Two CPU-bound tasks at the top of the sleep average (bonus 10: prio 115, interactive):
 * TIMESLICE_GRANULARITY is MIN_TIMESLICE x 2^((10 - 10 ?: 1) - 1) x 1 CPU = 10 jiffies, so
 * each goes to the tail of its priority after every 10 ms of its 102-jiffy slice, and they
 * alternate every 10 ms instead of every 102 (their sleep averages fall only when
 * schedule() charges the run, by 10 ms a turn: bonus 9 keeps the granularity at 10). */
static void interactive_tasks_round_robin_by_granularity(void **state)
{
	(void)state;
	boot();
	for (int i = 1; i <= 2; i++) {
		struct task *t = task_create("I", hog, (void *)(intptr_t)i);
		t->sleep_avg = 1020 * MS;
		task_start(t);
		assert_int_equal(t->prio, 115);
	}
	sched_run(60 * MS, NULL);
	for (int i = 0; i < 5; i++)
		assert_run(i, i % 2 ? 2 : 1, (sim_time_t)i * 10);
	sched_destroy();
}

/* EXPIRED_STARVING's second clause: a CPU hog at nice -10 (static 110, prio 115, not
 * interactive) uses up its first timeslice, the default 102 jiffies it was created with
 * (set_user_nice leaves the slice alone), goes to the expired array with a new one of
 * BASE_TIMESLICE(110) = 151 jiffies, and sets best_expired_prio 110. The interactive nice-0
 * task (prio 115) that runs next would go back to the active array at the end of its 102
 * jiffies, but its static priority 120 is worse than the expired hog's, so it goes to the
 * expired array too, the arrays switch, and the hog runs again at 204 ms, for 151 (without
 * the clause the interactive task would keep the CPU for some 300 ms more). */
static void expired_better_static_prio_stops_interactive_requeue(void **state)
{
	(void)state;
	boot();
	struct task *h = task_create("H", hog, (void *)(intptr_t)1);
	set_user_nice(h, -10);
	task_start(h);
	struct task *i = task_create("I", hog, (void *)(intptr_t)2);
	i->sleep_avg = 1020 * MS;
	task_start(i);
	assert_int_equal(h->prio, 115);
	assert_int_equal(i->prio, 115);
	assert_int_equal(h->time_slice, 102);
	sched_run(400 * MS, NULL);
	assert_run(1, 2, 102);
	assert_run(2, 1, 204);
	assert_run(3, 2, 355);
	sched_destroy();
}

static struct waitqueue never;
static int s_prio_at_wake;
static sim_time_t s_woke_at;

static void sleeper(void *arg)
{
	(void)arg;
	sleep_on(&never, 50 * MS, true); /* interruptible, woken by its timer */
	s_woke_at = local_now();
	s_prio_at_wake = sim_current->prio;
}

/* A task that slept 50 ms from sleep_avg 0 earns 50 ms x (MAX_BONUS - 0) = 500 ms of sleep
 * average (recalc_task_prio): bonus 500 x 10 / 1020 = 4, prio 120 - (4 - 5) = 121, better
 * than the hog's 125, so its wakeup preempts the hog (TASK_PREEMPTS_CURR) at the hog's next
 * yield, not at the end of the hog's timeslice. */
static void sleeper_wakes_with_a_bonus_and_preempts(void **state)
{
	(void)state;
	boot();
	memset(&never, 0, sizeof(never));
	struct task *s = task_create("S", sleeper, NULL);
	task_set_mem_context(s, 1);
	task_start(s);
	task_start(task_create("H", hog, (void *)(intptr_t)1));
	sched_run(100 * MS, NULL);
	assert_int_equal(s_prio_at_wake, 121);
	assert_near(s_woke_at, 50 * MS, 100 * US);
	sched_destroy();
}

static int c_slice_at_start, p_slice_at_child;
static sim_time_t child_start;

static void child(void *arg)
{
	(void)arg;
	child_start = local_now();
	c_slice_at_start = sim_current->time_slice;
	hog((void *)(intptr_t)2);
}

static struct task *parent_task;

static void parent(void *arg)
{
	(void)arg;
	ran(1);
	cpu_work(2 * MS - 1000);
	sched_sync();
	task_start(task_create("C", child, NULL));
	p_slice_at_child = parent_task->time_slice;
	hog((void *)(intptr_t)1);
}

/* sched_fork: after 2 ms (2 ticks) the parent has 100 jiffies left; the child takes
 * (100 + 1) / 2 = 50, the parent keeps 50. wake_up_forked_process queues the child just
 * ahead of the parent, so ahead of a task of the same priority queued before the fork, and
 * do_fork asks the parent to reschedule: the child runs first, for its 50 jiffies, and
 * expires; then the parent for its 50, then the other task. */
static void fork_splits_the_timeslice_and_the_child_runs_first(void **state)
{
	(void)state;
	boot();
	parent_task = task_create("P", parent, NULL);
	task_start(parent_task);
	task_start(task_create("Q", hog, (void *)(intptr_t)3)); /* queued behind P, prio 125 */
	sched_run(300 * MS, NULL);
	assert_near(child_start, 2 * MS, 200 * US);
	assert_int_equal(c_slice_at_start, 50);
	assert_int_equal(p_slice_at_child, 50);
	assert_true(nr_runs >= 4);
	assert_int_equal(runs[1].id, 2);
	assert_run(2, 1, 52);
	assert_run(3, 3, 102);
	sched_destroy();
}

static int prio_after[2];

static void long_sleeper(void *arg)
{
	int i = (int)(intptr_t)arg;
	sleep_on(&never, 2000 * MS, i == 1);
	prio_after[i] = sim_current->prio;
}

/* A user task that slept longer than INTERACTIVE_SLEEP (MAX_SLEEP_AVG x (5 + 2 + 1) / 10 - 1
 * = 815 jiffies) interruptibly is set to MAX_SLEEP_AVG - AVG_TIMESLICE = 918 ms of sleep
 * average: bonus 9, prio 116. Woken from an uninterruptible sleep (activated -1) it rises to
 * INTERACTIVE_SLEEP and no further: bonus 815 x 10 / 1020 = 7, prio 118. */
static void uninterruptible_sleep_earns_only_interactive(void **state)
{
	(void)state;
	boot();
	memset(&never, 0, sizeof(never));
	for (int i = 0; i < 2; i++) {
		struct task *t = task_create("L", long_sleeper, (void *)(intptr_t)i);
		task_set_mem_context(t, (uint64_t)i + 1);
		task_start(t);
	}
	sched_run(3000 * MS, NULL);
	assert_int_equal(prio_after[0], 118);
	assert_int_equal(prio_after[1], 116);
	sched_destroy();
}

/* sched_exit: a child reaped before its first timeslice ran out gives the rest back (capped
 * at MAX_TIMESLICE, 200), and the parent's sleep average moves a quarter of the way down to
 * a child that slept less. */
static void sched_exit_returns_the_first_slice(void **state)
{
	(void)state;
	boot();
	struct task *p = task_create("P", hog, NULL), *c = task_create("C", hog, NULL);
	p->time_slice = 10;
	p->sleep_avg = 800 * MS;
	c->first_time_slice = true;
	c->time_slice = 30;
	c->sleep_avg = 0;
	sched_exit(c, p);
	assert_int_equal(p->time_slice, 40);
	assert_int_equal(p->sleep_avg, 600 * MS);
	c->time_slice = 190;
	sched_exit(c, p);
	assert_int_equal(p->time_slice, 200);
	c->first_time_slice = false;
	p->time_slice = 5;
	sched_exit(c, p);
	assert_int_equal(p->time_slice, 5);
	sched_destroy();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(hogs_take_whole_timeslices),
	    cmocka_unit_test(interactive_tasks_round_robin_by_granularity),
	    cmocka_unit_test(expired_better_static_prio_stops_interactive_requeue),
	    cmocka_unit_test(sleeper_wakes_with_a_bonus_and_preempts),
	    cmocka_unit_test(fork_splits_the_timeslice_and_the_child_runs_first),
	    cmocka_unit_test(uninterruptible_sleep_earns_only_interactive),
	    cmocka_unit_test(sched_exit_returns_the_first_slice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
