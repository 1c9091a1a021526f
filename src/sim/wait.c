/* Wait queues and timed sleeps (kernel/wait.c, schedule_timeout): a sleeper joins a queue at
 * its local time, a waker takes it off and makes it runnable at the waker's local time, and
 * a timer event ends the sleep if nobody wakes it first. A wakeup generation number makes a
 * timer that lost the race harmless. */
#include "sim/sched_impl.h"

static void block_current(void)
{
	flush_pending();
	sim_current->state = TASK_BLOCKED;
	sched_block();
}

void schedule_timeout(sim_time_t ns)
{
	struct task *t = sim_current;
	flush_pending();
	t->wake_gen++;
	t->timed_out = false;
	/* schedule_timeout_uninterruptible: the model's callers (the allocator's and the OOM
	 * killer's one-jiffy waits) sleep uninterruptibly */
	t->sleep_uninterruptible = true;
	t->woken_by_task = false;
	t->wake_cpu = -1; /* the timer runs on the sleeper's CPU */
	ev_push(
	    (struct event){.time = sim_clock + ns, .kind = EV_WAKE, .ptr = t, .arg = t->wake_gen});
	block_current();
}

void wq_remove(struct waitqueue *wq, struct task *t)
{
	if (t->q_prev)
		t->q_prev->q_next = t->q_next;
	else
		wq->head = t->q_next;
	if (t->q_next)
		t->q_next->q_prev = t->q_prev;
	else
		wq->tail = t->q_prev;
	t->q_next = t->q_prev = NULL;
	t->wq = NULL;
	wq->nr--;
}

static void wq_add(struct waitqueue *wq, struct task *t, bool exclusive)
{
	if (exclusive) { /* __add_wait_queue_tail */
		t->q_next = NULL;
		t->q_prev = wq->tail;
		if (wq->tail)
			wq->tail->q_next = t;
		else
			wq->head = t;
		wq->tail = t;
	} else { /* __add_wait_queue: list_add at the head */
		t->q_prev = NULL;
		t->q_next = wq->head;
		if (wq->head)
			wq->head->q_prev = t;
		else
			wq->tail = t;
		wq->head = t;
	}
	wq->nr++;
	t->wq = wq;
}

/* The task joins the queue before it lets its pending CPU time elapse, so a wakeup that
 * comes while it catches up with the clock is not lost: wake() takes it off the queue and
 * the task sees that when it resumes. */
static bool do_sleep_on(struct waitqueue *wq, sim_time_t timeout_ns, bool killable, bool exclusive)
{
	struct task *t = sim_current;
	if (killable && t->fatal_signal)
		return false;
	t->wake_gen++;
	t->timed_out = false;
	t->killable_sleep = killable;
	/* the killable sleeps are the interruptible ones (sockets, pipes, wait, nanosleep); the
	 * others are TASK_UNINTERRUPTIBLE (pages, congestion, reclaim throttles) */
	t->sleep_uninterruptible = !killable;
	t->woken_by_task = false;
	t->wake_cpu = -1; /* a timeout runs on the sleeper's CPU */
	t->wq_exclusive = exclusive;
	wq_add(wq, t, exclusive);
	if (timeout_ns)
		ev_push((struct event){.time = local_now() + timeout_ns,
				       .kind = EV_WAKE,
				       .ptr = t,
				       .arg = t->wake_gen});
	flush_pending();
	if (t->wq && !(killable && t->fatal_signal)) {
		t->state = TASK_BLOCKED;
		sched_block();
	}
	if (t->wq) /* a fatal signal arrived while catching up */
		wq_remove(t->wq, t);
	t->killable_sleep = false;
	return t->timed_out;
}

bool sleep_on(struct waitqueue *wq, sim_time_t timeout_ns, bool killable)
{
	return do_sleep_on(wq, timeout_ns, killable, false);
}

bool sleep_on_exclusive(struct waitqueue *wq, sim_time_t timeout_ns, bool killable)
{
	return do_sleep_on(wq, timeout_ns, killable, true);
}

/* Makes a sleeping task runnable at the waker's local time. */
static void wake(struct task *t)
{
	if (t->wq)
		wq_remove(t->wq, t);
	t->woken_by_task = sim_current != NULL; /* not a device callback */
	t->wake_cpu = this_cpu();		/* a device's interrupt: CPU 0 */
	t->wake_gen++;
	if (t->state != TASK_BLOCKED)
		return; /* still catching up with the clock in sleep_on: it will see wq == NULL */
	if (sim_current)
		cfs_note_wakeup(sim_current);
	if (sim_current && sim_current->pending)
		ev_push((struct event){
		    .time = local_now(), .kind = EV_WAKE, .ptr = t, .arg = t->wake_gen});
	else
		make_runnable_as(t, true);
}

void wake_up_all(struct waitqueue *wq)
{
	while (wq->head)
		wake(wq->head);
}

void wake_up_one(struct waitqueue *wq)
{
	while (wq->head) {
		struct task *t = wq->head;
		bool exclusive = t->wq_exclusive;
		wake(t);
		if (exclusive)
			break;
	}
}

void wake_up_task(struct task *t)
{
	if (t->state == TASK_BLOCKED && (t->killable_sleep || !t->wq))
		wake(t);
	else if (t->state == TASK_RUNNING && t->wq && t->killable_sleep)
		wq_remove(t->wq, t);
}

/* A timer event of generation gen: a timeout, a wakeup deferred to the waker's local time,
 * or a new task's start. */
void run_wake_event(struct task *t, uint64_t gen)
{
	if (t->wake_gen != gen)
		return;
	if (t->state == TASK_BLOCKED) {
		if (t->wq) {
			wq_remove(t->wq, t);
			t->timed_out = true;
		}
		t->wake_gen++;
		make_runnable_as(t, true);
	} else if (t->state == TASK_RUNNING && t->wq) {
		/* timed out while catching up in sleep_on */
		wq_remove(t->wq, t);
		t->timed_out = true;
		t->wake_gen++;
	} else if (t->state == TASK_NEW) {
		make_runnable_as(t, false);
	}
}
