/* The CFS wakeup buddies on hand-built run queues (kernel/sched_fair.c: check_preempt_wakeup,
 * pick_next / pick_next_entity, wakeup_preempt_entity, clear_buddies; 2.6.25, 2.6.26, 2.6.28).
 * One CPU, wakeup granularity 5 ms (the factor 1 + log2(1) is 1, sched_latency 20 ms): A runs
 * on CPU 0, L is queued at 50 ms, B is woken with a vruntime of its own, then CPU 0 picks. No
 * task runs: the scheduler's own functions are called from scheduler context. */
#include "sim/sched_impl.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define MS NSEC_PER_MSEC
#define US NSEC_PER_USEC

static struct task *A, *L, *B;

static void noop(void *arg)
{
	(void)arg;
}

/* A running at a_v, L queued at 50 ms, then B woken at b_v (above the sleeper floor,
 * min_vruntime - 20 ms). */
static void setup(enum sched_buddies rules, sim_time_t a_v, sim_time_t b_v)
{
	sched_init(1, 50000, 4000000, 1000);
	sched_set_wakeup_rules(rules, 5 * MS, true);
	A = task_create("A", noop, NULL);
	L = task_create("L", noop, NULL);
	B = task_create("B", noop, NULL);
	A->vruntime = a_v;
	make_runnable_as(A, false); /* the idle CPU takes it */
	A->state = TASK_RUNNING;
	assert_ptr_equal(sched.cpus[0].curr, A);
	L->vruntime = 50 * MS;
	make_runnable_as(L, false);
	/* min_vruntime as if L had waited since before A ran: the least of the three */
	sched.min_vruntime = (a_v < 50 * MS ? a_v : 50 * MS);
	B->vruntime = b_v;
	make_runnable_as(B, true);
	assert_int_equal(B->vruntime, b_v);
}

/* CPU 0 reschedules (A back on the queue) and picks. */
static struct task *pick(void)
{
	set_need_resched(0, true);
	struct task *n = cpu_dispatch(0);
	sim_current = NULL;
	return n;
}

/* 2.6.25: the wakeup makes B the next buddy (A leads it by 48 ms > 5 ms: A is also asked to
 * resched). pick_next takes B unless it is more than 5 ms x 1024 / cfs_rq->load behind the
 * leftmost L; the load is A, L and B, 3072: 1.666 ms. B at 51 ms (1 ms behind): B, and the
 * buddy is cleared (__dequeue_entity); B at 52 ms (2 ms behind): L, and B stays the buddy. */
static void next_buddy_2625(void **state)
{
	(void)state;
	setup(SCHED_BUDDIES_2625, 100 * MS, 51 * MS);
	assert_ptr_equal(sched.cpus[0].next_buddy, B);
	assert_true(sched.cpus[0].need_resched);
	assert_ptr_equal(pick(), B);
	assert_null(sched.cpus[0].next_buddy);
	assert_int_equal(B->next_of, 0);
	sched_destroy();

	setup(SCHED_BUDDIES_2625, 100 * MS, 52 * MS);
	assert_ptr_equal(pick(), L);
	assert_ptr_equal(sched.cpus[0].next_buddy, B);
	/* L blocks (cpu_release): CPU 0 picks again from A and B: B, the leftmost now */
	L->state = TASK_BLOCKED;
	cpu_release(0, L);
	assert_ptr_equal(sched.cpus[0].curr, B);
	assert_null(sched.cpus[0].next_buddy);
	sched_destroy();
}

/* Without buddies (2.6.24, 2.6.25-rc1..rc5) the leftmost L runs, however close B is. */
static void no_buddy(void **state)
{
	(void)state;
	setup(SCHED_BUDDIES_NONE, 100 * MS, 51 * MS);
	assert_null(sched.cpus[0].next_buddy);
	assert_ptr_equal(pick(), L);
	sched_destroy();
}

/* 2.6.26: pick_next takes the buddy if wakeup_preempt_entity(B, L) is 0: B ahead of L by at
 * most B's own wakeup granularity, 5 ms, whatever the load. B 2 ms behind L: B (2.6.25's
 * rule would take L); 6 ms behind: L. */
static void next_buddy_2626(void **state)
{
	(void)state;
	setup(SCHED_BUDDIES_2626, 100 * MS, 52 * MS);
	assert_ptr_equal(pick(), B);
	assert_null(sched.cpus[0].next_buddy);
	sched_destroy();
	setup(SCHED_BUDDIES_2626, 100 * MS, 56 * MS);
	assert_ptr_equal(pick(), L);
	sched_destroy();
}

/* 2.6.28: the wakeup makes B the next buddy and A, running, the last. A at 54 ms does not
 * lead B at 58 ms (no preemption; CPU 0 reschedules anyway). pick_next_entity: B is 8 ms
 * ahead of L, more than 5 ms; A is 4 ms ahead: A, the last buddy, keeps the CPU. With A at
 * 56 ms (6 ms ahead): L. A buddy is kept when picked (cleared only when it sleeps): B at
 * 52 ms is taken and stays CPU 0's next buddy. */
static void last_buddy_2628(void **state)
{
	(void)state;
	setup(SCHED_BUDDIES_2628, 54 * MS, 58 * MS);
	assert_false(sched.cpus[0].need_resched);
	assert_ptr_equal(sched.cpus[0].next_buddy, B);
	assert_ptr_equal(sched.cpus[0].last_buddy, A);
	assert_ptr_equal(pick(), A);
	sched_destroy();

	setup(SCHED_BUDDIES_2628, 56 * MS, 58 * MS);
	assert_ptr_equal(pick(), L);
	sched_destroy();

	setup(SCHED_BUDDIES_2628, 100 * MS, 52 * MS);
	assert_ptr_equal(pick(), B);
	assert_ptr_equal(sched.cpus[0].next_buddy, B);
	/* B blocks (dequeue_entity): its buddy slot goes */
	B->state = TASK_BLOCKED;
	cpu_release(0, B);
	assert_null(sched.cpus[0].next_buddy);
	sched_destroy();
}

/* The wakeup granularity check_preempt_wakeup measures a running task's lead against: for
 * a nice +5 task (weight 335) 2.6.25 on keep 5 ms; 2.6.24 scaled it to 5 ms x 1024 / 335 =
 * 15.28 ms. A +5 task 10 ms ahead of the woken task is preempted by 2.6.25's rule only. */
static void asym_gran(void **state)
{
	(void)state;
	for (int asym = 0; asym <= 1; asym++) {
		sched_init(1, 50000, 4000000, 1000);
		sched_set_wakeup_rules(SCHED_BUDDIES_NONE, 5 * MS, asym);
		A = task_create("A", noop, NULL);
		B = task_create("B", noop, NULL);
		set_user_nice(A, 5);
		A->vruntime = 60 * MS;
		make_runnable_as(A, false);
		A->state = TASK_RUNNING;
		B->vruntime = 50 * MS;
		make_runnable_as(B, true);
		assert_int_equal(sched.cpus[0].need_resched, asym);
		sched_destroy();
	}
}

/* 2.6.30-2.6.33's ADAPTIVE_GRAN (one CPU, wakeup granularity 5 ms): the granularity a wakeup
 * is measured against is 2 x the woken task's avg_wakeup x the run queue's tasks, less the
 * running task's run of its turn, at most 5 ms, then in the woken task's weight (ASYM_GRAN).
 * A at 60 ms; B woken at 57 ms with avg_wakeup 0.5 ms, two tasks: 2 ms, so B preempts (3 ms
 * behind), where the plain 5 ms would not; with A 1.5 ms into its turn 0.5 ms; with
 * avg_wakeup 5 ms the cap, 5 ms; B at nice +5: 2 ms x 1024 / 335 = 6.1 ms, no preemption. */
static bool adaptive_preempts(bool adaptive, sim_time_t a_run, sim_time_t b_avg, int b_nice)
{
	sched_init(1, 50000, 4000000, 1000);
	sched_set_wakeup_rules(SCHED_BUDDIES_2628, 5 * MS, true);
	sched_set_adaptive_gran(adaptive);
	A = task_create("A", noop, NULL);
	B = task_create("B", noop, NULL);
	A->vruntime = 60 * MS;
	make_runnable_as(A, false);
	A->state = TASK_RUNNING;
	A->slice_used = a_run;
	set_user_nice(B, b_nice);
	B->vruntime = 57 * MS;
	B->avg_wakeup = b_avg;
	B->state = TASK_BLOCKED;
	make_runnable_as(B, true);
	bool preempted = sched.cpus[0].need_resched;
	sched_destroy();
	return preempted;
}

static void adaptive_gran_2630(void **state)
{
	(void)state;
	assert_true(adaptive_preempts(true, 0, 500 * US, 0));
	assert_false(adaptive_preempts(false, 0, 500 * US, 0));
	assert_true(adaptive_preempts(true, 1500 * US, 500 * US, 0));	/* 0.5 ms */
	assert_false(adaptive_preempts(true, 1500 * US, 1500 * US, 0)); /* 4.5 ms */
	assert_true(adaptive_preempts(true, 1900 * US, 1000 * US, 0));	/* 4 - 1.9 = 2.1 ms */
	assert_false(adaptive_preempts(true, 0, 5 * MS, 0));
	assert_false(adaptive_preempts(true, 0, 500 * US, 5));
}

/* avg_wakeup: a task that wakes another after 1 ms of CPU since it was woken moves its mean
 * from 5 ms an eighth of the way, to 4.5 ms; after 0.8 ms more to 4.0375 ms. Going to sleep
 * after waking a task only forgets last_wakeup; going to sleep without having woken one
 * moves the mean an eighth of the way back to the granularity: 4.1578125 ms. */
static void avg_wakeup_follows_the_runs_between_wakeups(void **state)
{
	(void)state;
	sched_init(1, 50000, 4000000, 1000);
	sched_set_wakeup_rules(SCHED_BUDDIES_2628, 5 * MS, true);
	sched_set_adaptive_gran(true);
	A = task_create("A", noop, NULL);
	task_start(A);
	A->state = TASK_RUNNING;
	assert_int_equal(A->avg_wakeup, 5 * MS);
	A->utime = 1 * MS;
	cfs_note_wakeup(A);
	assert_int_equal(A->avg_wakeup, 4500 * US);
	A->utime = 1800 * US;
	cfs_note_wakeup(A);
	assert_int_equal(A->avg_wakeup, 4037500);
	A->state = TASK_BLOCKED;
	cpu_release(0, A);
	assert_int_equal(A->avg_wakeup, 4037500);
	assert_int_equal(A->last_wakeup, 0);
	A->state = TASK_RUNNABLE;
	make_runnable_as(A, true);
	A->state = TASK_RUNNING;
	assert_int_equal(A->start_runtime, 1800 * US);
	A->state = TASK_BLOCKED;
	cpu_release(0, A);
	assert_int_equal(A->avg_wakeup, 4037500 + (5 * MS - 4037500) / 8);
	sched_destroy();

	/* the same sample through a real wakeup (sim/wait.c, try_to_wake_up) */
	sched_init(1, 50000, 4000000, 1000);
	sched_set_wakeup_rules(SCHED_BUDDIES_2628, 5 * MS, true);
	sched_set_adaptive_gran(true);
	A = task_create("A", noop, NULL);
	B = task_create("B", noop, NULL);
	task_start(A);
	A->state = TASK_RUNNING;
	A->utime = 1 * MS;
	B->state = TASK_BLOCKED;
	sim_current = A;
	wake_up_task(B);
	sim_current = NULL;
	assert_int_equal(B->state, TASK_RUNNABLE);
	assert_int_equal(A->avg_wakeup, 4500 * US);
	assert_int_equal(A->last_wakeup, 1 * MS);
	sched_destroy();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(next_buddy_2625),
	    cmocka_unit_test(no_buddy),
	    cmocka_unit_test(next_buddy_2626),
	    cmocka_unit_test(last_buddy_2628),
	    cmocka_unit_test(asym_gran),
	    cmocka_unit_test(adaptive_gran_2630),
	    cmocka_unit_test(avg_wakeup_follows_the_runs_between_wakeups),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
