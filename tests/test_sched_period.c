/* CFS's period on hand-built run queues (kernel/sched_fair.c of 2.6.25-rc1: __sched_period,
 * sched_slice, sched_vslice_add in place_entity's START_DEBIT, update_curr's min_vruntime
 * at dequeue). One CPU: sched_latency 20 ms, minimum granularity 4 ms, sched_nr_latency 5.
 * No task runs: the scheduler's own functions are called from scheduler context, a task
 * standing in for the running one where the kernel reads cfs_rq->curr. */
#include "sim/sched_impl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define MS NSEC_PER_MSEC

static void noop(void *arg)
{
	(void)arg;
}

/* A task running on CPU 0 at vruntime v, and n nice-0 tasks queued behind it. */
static struct task *setup(sim_time_t v, int n)
{
	sched_init(1, 50000, 4 * MS, 1000);
	struct task *a = task_create("A", noop, NULL);
	a->vruntime = v;
	make_runnable_as(a, false); /* the idle CPU takes it */
	a->state = TASK_RUNNING;
	assert_ptr_equal(sched.cpus[0].curr, a);
	for (int i = 0; i < n; i++) {
		struct task *q = task_create("Q", noop, NULL);
		q->vruntime = v + (sim_time_t)(i + 1) * MS;
		make_runnable_as(q, false);
	}
	return a;
}

/* sched_slice = __sched_period(nr_running) x weight / cfs_rq->load. Up to 5 tasks the
 * period is sched_latency, 20 ms, shared: 2 tasks 10 ms each, 5 tasks 4 ms. From 6 tasks it
 * is 4 ms per task, each nice-0 task's share 4 ms. A nice -5 task (3121) with 5 nice-0
 * tasks queued: 6 x 4 ms x 3121 / (3121 + 5 x 1024) = 9.0887 ms; a nice-0 task next to it
 * 24 ms x 1024 / 8241 = 2.982 ms. */
static void slice_is_the_period_share(void **state)
{
	(void)state;
	struct task *a = setup(100 * MS, 1);
	assert_int_equal(task_slice(a), 10 * MS);
	sched_destroy();

	a = setup(100 * MS, 2);
	assert_int_equal(task_slice(a), 20 * MS / 3);
	sched_destroy();

	a = setup(100 * MS, 4);
	assert_int_equal(task_slice(a), 4 * MS);
	sched_destroy();

	a = setup(100 * MS, 5);
	assert_int_equal(task_slice(a), 4 * MS);
	sched_destroy();

	sched_init(1, 50000, 4 * MS, 1000);
	struct task *k = task_create("K", noop, NULL);
	set_user_nice(k, -5);
	make_runnable_as(k, false);
	k->state = TASK_RUNNING;
	for (int i = 0; i < 5; i++)
		make_runnable_as(task_create("Q", noop, NULL), false);
	assert_int_equal(task_slice(k), 24 * MS * 3121 / 8241);
	struct task *n0 = task_create("N", noop, NULL);
	n0->cpu = 0; /* as if it ran in K's place */
	assert_int_equal(task_slice(n0), 24 * MS * 1024 / (1024 + 5 * 1024));
	sched_destroy();
}

/* task_new_fair: the child starts at min_vruntime + sched_vslice_add, __sched_period(nr + 1)
 * x 1024 / (cfs_rq->load + its weight); child-runs-first then swaps it with the parent. A
 * parent alone at 100 ms: period(2) = 20 ms over 2048, 10 ms: the child runs at 100 ms, the
 * parent goes to 110 ms. With 5 tasks queued (from 101 ms), period(7) = 28 ms over 7168:
 * 4 ms, from min_vruntime 100 ms. */
static sim_time_t parent_after_fork(int queued)
{
	struct task *a = setup(100 * MS, queued);
	struct task *c = task_create("child", noop, NULL);
	sim_current = a;
	task_start(c);
	sim_current = NULL;
	assert_int_equal(c->vruntime, 100 * MS); /* child-runs-first: the parent's place */
	sim_time_t v = a->vruntime;
	sched_destroy();
	return v;
}

static void start_debit_is_the_vslice_added(void **state)
{
	(void)state;
	assert_int_equal(parent_after_fork(0), 110 * MS);
	assert_int_equal(parent_after_fork(1), 100 * MS + 20 * MS / 3);
	assert_int_equal(parent_after_fork(5), 104 * MS);
}

/* dequeue_entity's update_curr: A ran alone from min_vruntime 0 to 100 ms and blocks; the
 * CPU idles. min_vruntime is then A's 100 ms (update_curr with an empty tree takes curr's
 * vruntime), so a task that slept since 0 is woken at 100 - 20 = 80 ms, not at 0. */
static void min_vruntime_kept_at_sleep(void **state)
{
	(void)state;
	sched_init(1, 50000, 4 * MS, 1000);
	struct task *a = task_create("A", noop, NULL);
	struct task *b = task_create("B", noop, NULL);
	make_runnable_as(a, false);
	a->state = TASK_RUNNING;
	assert_int_equal(sched.min_vruntime, 0);
	a->vruntime = 100 * MS; /* its run, accounted at its yields */
	a->state = TASK_BLOCKED;
	cpu_release(0, a);
	assert_null(sched.cpus[0].curr);
	b->state = TASK_BLOCKED;
	make_runnable_as(b, true);
	assert_int_equal(b->vruntime, 80 * MS);
	sched_destroy();
}

/* 2.6.25-rc6..2.6.27: min_vruntime follows the leftmost queued task alone, raised when a
 * task becomes or stops being the leftmost. A runs alone from 0 to 100 ms: min_vruntime
 * stays 0 (no tree), so B, asleep since 0, wakes at 0 (the credit floors at 0), where
 * rc1's rule gives 80 ms (above). Then L joins at 50 ms, behind B: min_vruntime stays 0;
 * CPU 0 picks B (the leftmost leaves: min_vruntime goes to L's 50 ms), A joins the tree
 * at 100 ms, not leftmost: still 50 ms. A task queued into an empty tree is its leftmost:
 * min_vruntime goes to its vruntime. */
static void min_vruntime_of_the_leftmost(void **state)
{
	(void)state;
	sched_init(1, 50000, 4 * MS, 1000);
	sched_set_min_vruntime_leftmost(true);
	struct task *a = task_create("A", noop, NULL);
	struct task *b = task_create("B", noop, NULL);
	struct task *l = task_create("L", noop, NULL);
	make_runnable_as(a, false);
	a->state = TASK_RUNNING;
	a->vruntime = 100 * MS;
	b->state = TASK_BLOCKED;
	make_runnable_as(b, true);
	assert_int_equal(b->vruntime, 0);
	assert_int_equal(sched.min_vruntime, 0);
	l->vruntime = 50 * MS;
	make_runnable_as(l, false);
	assert_int_equal(sched.min_vruntime, 0);
	set_need_resched(0, true);
	struct task *n = cpu_dispatch(0);
	sim_current = NULL;
	assert_ptr_equal(n, b);
	assert_int_equal(sched.min_vruntime, 50 * MS);
	sched_destroy();

	/* a task queued as the leftmost raises it too: C at 30 ms behind a running D */
	sched_init(1, 50000, 4 * MS, 1000);
	sched_set_min_vruntime_leftmost(true);
	struct task *d = task_create("D", noop, NULL);
	struct task *c = task_create("C", noop, NULL);
	make_runnable_as(d, false);
	d->state = TASK_RUNNING;
	c->vruntime = 30 * MS;
	make_runnable_as(c, false);
	assert_int_equal(sched.min_vruntime, 30 * MS);
	sched_destroy();
}

/* A jiffy sched_clock (the kernel's weak default, jiffies x 1e9 / HZ): rq->clock moves only
 * at the ticks, so update_curr charges the task running at a tick a whole jiffy and
 * nothing between them. HZ 100, ticks at 2.5 ms + k x 10 ms: a task that runs 25 ms of
 * CPU from 0 sees the ticks at 2.5, 12.5 and 22.5 ms, 30 ms of vruntime; with a ns clock
 * 25 ms (and the 1 us context switch that started it). */
static void burner(void *arg)
{
	(void)arg;
	for (int i = 0; i < 250; i++)
		cpu_work(100000);
}

static sim_time_t burnt(bool jiffies)
{
	sched_init(1, 50000, 4 * MS, 1000);
	sched_set_hz(100);
	sched_set_ticks(1, 1);
	sched.cpus[0].tick_phase = 2500000;
	sched_set_jiffy_clock(jiffies);
	struct task *t = task_create("burn", burner, NULL);
	task_start(t);
	sim_time_t v0 = t->vruntime;
	sched_run(NSEC_PER_SEC, NULL);
	assert_int_equal(t->state, TASK_DEAD);
	sim_time_t v = t->vruntime - v0;
	sched_destroy();
	return v;
}

static void jiffy_sched_clock(void **state)
{
	(void)state;
	assert_int_equal(burnt(false), 25 * MS + 1000); /* and the switch in, 1 us */
	assert_int_equal(burnt(true), 30 * MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(slice_is_the_period_share),
	    cmocka_unit_test(start_debit_is_the_vslice_added),
	    cmocka_unit_test(min_vruntime_kept_at_sleep),
	    cmocka_unit_test(min_vruntime_of_the_leftmost),
	    cmocka_unit_test(jiffy_sched_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
