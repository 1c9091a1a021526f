/* 3.0's CFS rules (kernel/sched_fair.c and kernel/sched.c of 3.0: the tunables and
 * update_sysctl's scaling, place_entity's GENTLE_FAIR_SLEEPERS, task_fork_fair without
 * child-runs-first, wakeup_gran in the woken task's weight, the buddies of check_preempt_wakeup
 * and pick_next_entity, check_preempt_tick's catch-up) on hand-built run queues, and one run
 * with timer ticks. */
#include "sim/sched_impl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define MS NSEC_PER_MSEC
#define US NSEC_PER_USEC

static void noop(void *arg)
{
	(void)arg;
}

static void init30(int cpus)
{
	sched_init(cpus, 50000, 4 * MS, 1000);
	sched_set_cfs_30(true);
	sched_set_wakeup_rules(SCHED_BUDDIES_30, 1 * MS, true);
}

/* A running at v (nice_a), n nice-0 tasks queued at v + 1 ms, v + 2 ms, ... */
static struct task *setup(sim_time_t v, int nice_a, int n)
{
	init30(1);
	struct task *a = task_create("A", noop, NULL);
	set_user_nice(a, nice_a);
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

/* update_sysctl: 6 ms and 0.75 ms (and the 1 ms wakeup granularity) x 1 + ilog2(min(CPUs, 8)):
 * 1 CPU x1, 4 CPUs x3, 16 CPUs x4 (counted as 8), where 2.6.2x scale by 1 + ilog2(16) = 5
 * (latency 100 ms). sched_nr_latency 8: six nice-0 tasks share the 6 ms latency, 1 ms each
 * (with 2.6.2x's 5 the period would be 6 x 0.75 ms, 0.75 ms each). */
static void tunables_scale_with_cpus(void **state)
{
	(void)state;
	const int cpus[] = {1, 4, 16}, factor[] = {1, 3, 4};
	for (int i = 0; i < 3; i++) {
		init30(cpus[i]);
		assert_int_equal(sched.sched_latency, 6 * MS * (sim_time_t)factor[i]);
		assert_int_equal(sched.slice, 750 * US * (sim_time_t)factor[i]);
		assert_int_equal(sched.wakeup_gran, 1 * MS * (sim_time_t)factor[i]);
		sched_destroy();
	}
	sched_init(16, 50000, 4 * MS, 1000);
	assert_int_equal(sched.sched_latency, 100 * MS);
	sched_destroy();

	struct task *a = setup(100 * MS, 0, 5);
	assert_int_equal(task_slice(a), 1 * MS);
	sched_destroy();
	a = setup(100 * MS, 0, 8);
	assert_int_equal(task_slice(a), 750 * US);
	sched_destroy();
}

/* GENTLE_FAIR_SLEEPERS: a sleeper wakes at most half a latency behind min_vruntime. A runs
 * at 100 ms; B, asleep since 0, wakes at 97 ms (2.6.2x: 80 ms). */
static void gentle_sleeper_credit(void **state)
{
	(void)state;
	setup(100 * MS, 0, 0);
	struct task *b = task_create("B", noop, NULL);
	b->state = TASK_BLOCKED;
	make_runnable_as(b, true);
	assert_int_equal(b->vruntime, 97 * MS);
	sched_destroy();
}

/* task_fork_fair: the child starts at max(parent's vruntime, min_vruntime + sched_vslice) and
 * the parent keeps the CPU (no child-runs-first). A alone at 100 ms: vslice = period(2) x
 * 1024 / 2048 = 3 ms: the child at 103 ms. A at 100 ms with L queued at 50 ms: min_vruntime
 * 50 ms, vslice period(3) x 1024 / 3072 = 2 ms: the child at the parent's 100 ms, not 52. */
static void fork_places_the_child_after_its_parent(void **state)
{
	(void)state;
	for (int with_l = 0; with_l <= 1; with_l++) {
		struct task *a = setup(100 * MS, 0, 0);
		if (with_l) {
			struct task *l = task_create("L", noop, NULL);
			l->vruntime = 50 * MS;
			make_runnable_as(l, false);
			sched.min_vruntime = 50 * MS;
		}
		struct task *c = task_create("child", noop, NULL);
		sim_current = a;
		task_start(c);
		sim_current = NULL;
		assert_int_equal(c->vruntime, with_l ? 100 * MS : 103 * MS);
		assert_int_equal(a->vruntime, 100 * MS);
		assert_false(sched.cpus[0].need_resched);
		sched_destroy();
	}
}

/* check_preempt_wakeup with NEXT_BUDDY off: a wakeup that does not preempt marks no buddy;
 * one that preempts makes the woken task the next buddy, and (with sched_nr_latency tasks on
 * the run queue) the preempted one the last. The granularity is in the woken task's weight:
 * a nice +5 task (335) woken 2 ms behind a nice-0 A gets 1 ms x 1024 / 335 = 3.06 ms and does
 * not preempt; a nice-0 one 2 ms behind does. */
static void buddies_only_from_a_preempting_wakeup(void **state)
{
	(void)state;
	for (int nice = 0; nice <= 5; nice += 5) {
		struct task *a = setup(100 * MS, 0, 0);
		struct task *b = task_create("B", noop, NULL);
		set_user_nice(b, nice);
		b->vruntime = 98 * MS;
		b->state = TASK_BLOCKED;
		make_runnable_as(b, true);
		assert_int_equal(sched.cpus[0].need_resched, nice == 0);
		assert_ptr_equal(sched.cpus[0].next_buddy, nice == 0 ? b : NULL);
		assert_null(sched.cpus[0].last_buddy); /* 2 tasks < sched_nr_latency */
		(void)a;
		sched_destroy();
	}
	/* with 8 tasks queued, a preempting wakeup marks A the last buddy too */
	struct task *a = setup(100 * MS, 0, 8);
	sched.min_vruntime = 100 * MS;
	struct task *b = task_create("B", noop, NULL);
	b->vruntime = 98 * MS;
	b->state = TASK_BLOCKED;
	make_runnable_as(b, true);
	assert_ptr_equal(sched.cpus[0].next_buddy, b);
	assert_ptr_equal(sched.cpus[0].last_buddy, a);
	/* the pick takes the next buddy B (leftmost itself) and clears it */
	struct task *n = cpu_dispatch(0);
	sim_current = NULL;
	assert_ptr_equal(n, b);
	assert_null(sched.cpus[0].next_buddy);
	sched_destroy();
}

/* The catch-up: once A has run 0.75 ms of its turn it gives way when more than its slice
 * ahead of the leftmost. A nice +5 (335) with B nice 0 queued: A's slice 6 ms x 335 / 1359 =
 * 1.479 ms. B level with A: the lead passes 1.479 ms of vruntime after 0.484 ms of A's CPU,
 * so the granularity decides: 0.75 ms. B 1 ms ahead of A: 2.479 ms of vruntime, 0.811 ms.
 * Under 2.6's rules there is no such rule. */
static void catch_up_after_the_granularity(void **state)
{
	(void)state;
	struct task *a = setup(100 * MS, 5, 0);
	struct task *b = task_create("B", noop, NULL);
	b->vruntime = 100 * MS;
	make_runnable_as(b, false);
	assert_int_equal(task_slice(a), 6 * MS * 335 / 1359);
	assert_int_equal(cfs_catch_up_after(a, 0), 750 * US);
	a->vruntime += 800 * US * 1024 / 335; /* 800 us of its CPU run */
	assert_int_equal(cfs_catch_up_after(a, 800 * US), 0);
	sched_destroy();

	a = setup(100 * MS, 5, 0);
	b = task_create("B", noop, NULL);
	b->vruntime = 101 * MS;
	make_runnable_as(b, false);
	sim_time_t need = 1 * MS + 6 * MS * 335 / 1359 + 1;
	assert_int_equal(cfs_catch_up_after(a, 0), (need * 335 + 1023) / 1024);
	sched.cfs30 = false;
	assert_int_equal(cfs_catch_up_after(a, 0), UINT64_MAX);
	sched_destroy();
}

/* One CPU, HZ 1000, ticks at k ms: A (nice 0, vruntime 6 ms) and B (nice +5, 12 ms) burn CPU.
 * Turns (each ends at a tick: A's slice 6 ms x 1024 / 1359 = 4.52 ms, B's 1.479 ms): A 0-10
 * ms (re-picked at 5 ms, still leftmost), B 10-12, A 12-17, B 17-19, A 19-24, B 24-26, A
 * 26-31 ms. Then B starts 0.66 ms of vruntime behind A (30.34 against 31 ms): the catch-up
 * holds after 0.75 ms of its turn (the lead passes its slice after 0.70 ms), so the tick at
 * 32 ms ends it; its slice alone would run to the tick at 33 ms. */
static sim_time_t switch_at[40];
static const struct task *ran_last;
static int nswitch;

static void burner(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10000; i++) {
		if (ran_last != sim_current && nswitch < 40)
			switch_at[nswitch++] = local_now();
		ran_last = sim_current;
		cpu_work(10 * US);
	}
}

static void tick_ends_a_light_tasks_turn_early(void **state)
{
	(void)state;
	init30(1);
	sched_set_ticks(1, 1);
	sched.cpus[0].tick_phase = 0;
	nswitch = 0;
	ran_last = NULL;
	struct task *a = task_create("A", burner, NULL);
	struct task *b = task_create("B", burner, NULL);
	task_start(a); /* from scheduler context: min_vruntime + period(1), 6 ms */
	task_start(b); /* 12 ms; then made nice +5 in the queue */
	set_user_nice(b, 5);
	sched_run(NSEC_PER_SEC, NULL);
	assert_true(nswitch >= 9);
	/* each switch in costs 1 us, each tick 1 ns */
	const sim_time_t at_ms[9] = {0, 10, 12, 17, 19, 24, 26, 31, 32};
	for (int i = 0; i < 9; i++)
		assert_true(switch_at[i] >= at_ms[i] * MS &&
			    switch_at[i] < at_ms[i] * MS + 20 * US);
	sched_destroy();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(tunables_scale_with_cpus),
	    cmocka_unit_test(gentle_sleeper_credit),
	    cmocka_unit_test(fork_places_the_child_after_its_parent),
	    cmocka_unit_test(buddies_only_from_a_preempting_wakeup),
	    cmocka_unit_test(catch_up_after_the_granularity),
	    cmocka_unit_test(tick_ends_a_light_tasks_turn_early),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
