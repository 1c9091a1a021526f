/* The O(1) scheduler of 2.6.8 (kernel/sched.c), for the kernels before CFS: per CPU a runqueue
 * of two priority arrays of 140 lists with a bitmap, the active one served first, a task that
 * uses up its timeslice moved to the expired one unless it is interactive; dynamic priority
 * from the sleep average (effective_prio, recalc_task_prio), the timeslice by static priority
 * (task_timeslice: 102 ms at nice 0 and HZ 1000), the interactive round robin
 * (TIMESLICE_GRANULARITY), the starvation limit, the fork split of the parent's timeslice
 * with the child queued ahead of it, and sched_exit. Which runqueue a task is on, and how
 * the runqueues are balanced, is sched_o1_balance.c. Every operation on a runqueue is O(1). */
#include "sim/sched_impl.h"
#include "sim/xalloc.h"

#include <stdlib.h>

/* ---- 2.6.8's tuning knobs (kernel/sched.c), in jiffies of the machine's HZ ---- */

#define MAX_RT_PRIO	   100
#define MAX_PRIO	   O1_MAX_PRIO
#define NICE_TO_PRIO(n)	   (MAX_RT_PRIO + (n) + 20)
#define MAX_USER_PRIO	   (MAX_PRIO - MAX_RT_PRIO)
#define ON_RUNQUEUE_WEIGHT 30
#define CHILD_PENALTY	   95
#define PARENT_PENALTY	   100
#define EXIT_WEIGHT	   3
#define PRIO_BONUS_RATIO   25
#define MAX_BONUS	   (MAX_USER_PRIO * PRIO_BONUS_RATIO / 100)
#define INTERACTIVE_DELTA  2
#define CREDIT_LIMIT	   100

static long min_timeslice(void)
{
	long j = 10 * (long)HZ / 1000;
	return j ? j : 1;
}

static long max_timeslice(void)
{
	return 200 * (long)HZ / 1000;
}

/* BASE_TIMESLICE */
static long task_timeslice(const struct task *p)
{
	return min_timeslice() + (max_timeslice() - min_timeslice()) *
				     (MAX_PRIO - 1 - p->static_prio) / (MAX_USER_PRIO - 1);
}

static long avg_timeslice(void)
{
	return min_timeslice() + (max_timeslice() - min_timeslice()) *
				     (MAX_PRIO - 1 - NICE_TO_PRIO(0)) / (MAX_USER_PRIO - 1);
}

static long max_sleep_avg(void) /* jiffies */
{
	return avg_timeslice() * MAX_BONUS;
}

static sim_time_t ns_max_sleep_avg(void)
{
	return (sim_time_t)max_sleep_avg() * JIFFY_NS;
}

static long current_bonus(const struct task *p)
{
	return (long)(p->sleep_avg / JIFFY_NS) * MAX_BONUS / max_sleep_avg();
}

static int task_nice(const struct task *p)
{
	return p->static_prio - MAX_RT_PRIO - 20;
}

/* DELTA(p): SCALE(TASK_NICE(p), 40, MAX_BONUS) + INTERACTIVE_DELTA, C's division */
static int delta(const struct task *p)
{
	return task_nice(p) * MAX_BONUS / 40 + INTERACTIVE_DELTA;
}

static bool task_interactive(const struct task *p)
{
	return p->prio <= p->static_prio - delta(p);
}

static sim_time_t interactive_sleep(const struct task *p)
{
	return (sim_time_t)(max_sleep_avg() * (MAX_BONUS / 2 + delta(p) + 1) / MAX_BONUS - 1) *
	       JIFFY_NS;
}

static bool high_credit(const struct task *p)
{
	return p->interactive_credit > CREDIT_LIMIT;
}

static bool low_credit(const struct task *p)
{
	return p->interactive_credit < -CREDIT_LIMIT;
}

/* TIMESLICE_GRANULARITY, CONFIG_SMP: scaled by the online CPUs */
static long timeslice_granularity(const struct task *p)
{
	long b = MAX_BONUS - current_bonus(p);
	return min_timeslice() * (1L << ((b ? b : 1) - 1)) * sched.ncpus;
}

static int effective_prio(const struct task *p)
{
	int prio = p->static_prio - (int)(current_bonus(p) - MAX_BONUS / 2);
	return prio < MAX_RT_PRIO ? MAX_RT_PRIO : prio > MAX_PRIO - 1 ? MAX_PRIO - 1 : prio;
}

/* recalc_task_prio: the sleep since p->timestamp raises the sleep average, the more the
 * lower it is; a long sleep of a user task makes it just interactive; an uninterruptible
 * sleep (activated -1) raises it no further than that */
static void recalc_task_prio(struct task *p, sim_time_t now)
{
	sim_time_t sleep_time = now > p->timestamp ? now - p->timestamp : 0;
	if (sleep_time > ns_max_sleep_avg())
		sleep_time = ns_max_sleep_avg();
	if (sleep_time > 0) {
		bool user = p->mem_context != 0; /* p->mm */
		if (user && p->activated != -1 && sleep_time > interactive_sleep(p)) {
			p->sleep_avg = (sim_time_t)(max_sleep_avg() - avg_timeslice()) * JIFFY_NS;
			if (!high_credit(p))
				p->interactive_credit++;
		} else {
			long b = MAX_BONUS - current_bonus(p);
			sleep_time *= (sim_time_t)(b ? b : 1);
			sim_time_t slice = (sim_time_t)task_timeslice(p) * JIFFY_NS;
			if (low_credit(p) && sleep_time > slice)
				sleep_time = slice;
			if (p->activated == -1 && !high_credit(p) && user) {
				if (p->sleep_avg >= interactive_sleep(p)) {
					sleep_time = 0;
				} else if (p->sleep_avg + sleep_time >= interactive_sleep(p)) {
					p->sleep_avg = interactive_sleep(p);
					sleep_time = 0;
				}
			}
			p->sleep_avg += sleep_time;
			if (p->sleep_avg > ns_max_sleep_avg()) {
				p->sleep_avg = ns_max_sleep_avg();
				if (!high_credit(p))
					p->interactive_credit++;
			}
		}
	}
	p->prio = effective_prio(p);
}

/* schedule(), for the task leaving the CPU: its run since it last got it (or was last
 * scheduled) is taken off its sleep average */
static void charge_run_time(struct task *prev, sim_time_t now)
{
	sim_time_t run = now > prev->timestamp ? now - prev->timestamp : 0;
	if (run > ns_max_sleep_avg())
		run = ns_max_sleep_avg();
	if (high_credit(prev)) {
		long b = current_bonus(prev);
		run /= (sim_time_t)(b ? b : 1);
	}
	if (prev->sleep_avg <= run) {
		prev->sleep_avg = 0;
		if (!(high_credit(prev) || low_credit(prev)))
			prev->interactive_credit--;
	} else {
		prev->sleep_avg -= run;
	}
	prev->timestamp = now;
}

/* schedule(), for the task taking the CPU: a task woken since it last ran is credited
 * with its time waiting on the runqueue, 30 % of it if a task woke it */
static void picked(struct task *next, sim_time_t now)
{
	if (next->activated > 0) {
		sim_time_t d = now > next->timestamp ? now - next->timestamp : 0;
		if (next->activated == 1)
			d = d * (ON_RUNQUEUE_WEIGHT * 128 / 100) / 128;
		recalc_task_prio(next, next->timestamp + d);
	}
	next->activated = 0;
	next->timestamp = now;
}

/* ---- the priority arrays ---- */

static struct o1_array *array_of(struct o1_rq *rq, uint32_t epoch)
{
	return &rq->arrays[epoch & 1];
}

/* A task belongs to its runqueue's active array unless it expired after that runqueue last
 * switched its arrays. */
static bool in_active(const struct task *p)
{
	return (int32_t)(p->o1_epoch - o1_rq_of(p->o1_cpu)->active_epoch) <= 0;
}

static struct o1_array *task_array(const struct task *p)
{
	struct o1_rq *rq = o1_rq_of(p->o1_cpu);
	return array_of(rq, in_active(p) ? rq->active_epoch : rq->active_epoch + 1);
}

enum { REQUEUE_HEAD, REQUEUE_TAIL };

/* rq->nr_running: the queued tasks and the one running */
int o1_nr_running(int c)
{
	return o1_rq_of(c)->nr_queued + (sched.cpus[c].curr != NULL);
}

/* jiffies: CPU 0's timer interrupts so far (every CPU's rebalance_tick reads them) */
uint64_t o1_jiffies(void)
{
	return jiffies_between(0, local_now());
}

/* rebalance_tick's load average, brought up to now: at each tick cpu_load becomes the mean
 * of itself (rounded up while the load rises) and nr_running x SCHED_LOAD_SCALE. Called
 * before nr_running changes, so over the ticks since the last call it was constant; the
 * average reaches it within a few dozen ticks and stays. */
void o1_load_sync(int c)
{
	if (sched.ncpus < 2)
		return; /* read only by the balancing, which one CPU has none of */
	struct o1_rq *rq = o1_rq_of(c);
	uint64_t j = o1_jiffies();
	if (j <= rq->load_jiffy)
		return;
	uint64_t k = j - rq->load_jiffy;
	rq->load_jiffy = j;
	uint64_t target = (uint64_t)o1_nr_running(c) * 128; /* SCHED_LOAD_SCALE */
	for (k = k < 64 ? k : 64; k; k--) {
		uint64_t old = rq->cpu_load;
		if (target > old)
			old++;
		uint64_t next = (old + target) / 2;
		if (next == rq->cpu_load)
			break;
		rq->cpu_load = next;
	}
}

static void list_link(struct o1_rq *rq, struct o1_array *a, struct task *p, struct task *prev,
		      struct task *next)
{
	int q = p->prio;
	p->o1_prev = prev;
	p->o1_next = next;
	if (prev)
		prev->o1_next = p;
	else
		a->head[q] = p;
	if (next)
		next->o1_prev = p;
	else
		a->tail[q] = p;
	a->bitmap[q / 64] |= 1ull << (q % 64);
	a->nr_active++;
	rq->nr_queued++;
}

/* enqueue_task (tail), enqueue_task_head, or just behind `after` in its list, on the task's
 * runqueue */
static void enqueue(struct task *p, int where, struct task *after)
{
	struct o1_rq *rq = o1_rq_of(p->o1_cpu);
	struct o1_array *a = task_array(p);
	o1_load_sync(p->o1_cpu);
	if (after)
		list_link(rq, a, p, after, after->o1_next);
	else if (where == REQUEUE_HEAD)
		list_link(rq, a, p, NULL, a->head[p->prio]);
	else
		list_link(rq, a, p, a->tail[p->prio], NULL);
}

static void dequeue(struct task *p)
{
	struct o1_rq *rq = o1_rq_of(p->o1_cpu);
	struct o1_array *a = task_array(p);
	int q = p->prio;
	o1_load_sync(p->o1_cpu);
	if (p->o1_prev)
		p->o1_prev->o1_next = p->o1_next;
	else
		a->head[q] = p->o1_next;
	if (p->o1_next)
		p->o1_next->o1_prev = p->o1_prev;
	else
		a->tail[q] = p->o1_prev;
	if (!a->head[q])
		a->bitmap[q / 64] &= ~(1ull << (q % 64));
	p->o1_next = p->o1_prev = NULL;
	a->nr_active--;
	rq->nr_queued--;
}

static int next_bit(const struct o1_array *a, int from)
{
	for (int w = from / 64; w < (MAX_PRIO + 63) / 64; w++) {
		uint64_t bits = a->bitmap[w];
		if (w == from / 64)
			bits &= ~0ull << (from % 64);
		if (bits)
			return w * 64 + __builtin_ctzll(bits);
	}
	return MAX_PRIO;
}

int o1_nr_queued(void)
{
	int n = 0;
	for (int c = 0; c < sched.ncpus; c++)
		n += o1_rq_of(c)->nr_queued;
	return n;
}

static bool queued(const struct task *p)
{
	return p->state == TASK_RUNNABLE && p->cpu < 0;
}

/* CPU c runs t now (or goes idle, t NULL) */
static void o1_set_curr(int c, struct task *t)
{
	struct o1_rq *rq = o1_rq_of(c);
	o1_load_sync(c);
	set_curr(c, t);
	if (t && rq->idle_armed) { /* the idle CPU's pending rebalance_tick is void */
		rq->idle_armed = false;
		rq->idle_gen++;
	}
}

/* EXPIRED_STARVING: the expired tasks have waited STARVATION_LIMIT per task on the
 * runqueue, or one of them has a better static priority than the running task */
static bool expired_starving(const struct task *curr)
{
	struct o1_rq *rq = o1_rq_of(curr->cpu);
	if (rq->expired_since &&
	    o1_jiffies() - rq->expired_timestamp >=
		(uint64_t)max_sleep_avg() * (uint64_t)o1_nr_running(curr->cpu) + 1)
		return true;
	return curr->static_prio > rq->best_expired_prio;
}

/* schedule()'s pick on CPU c: the first task of the best priority in its active array, the
 * arrays switched first when the active one is empty; NULL when the runqueue is empty */
struct task *o1_pick_first(int c)
{
	struct o1_rq *rq = o1_rq_of(c);
	if (!rq->nr_queued)
		return NULL;
	struct o1_array *a = array_of(rq, rq->active_epoch);
	if (!a->nr_active) {
		rq->active_epoch++;
		a = array_of(rq, rq->active_epoch);
		rq->expired_since = false;
		rq->best_expired_prio = MAX_PRIO;
	}
	struct task *next = a->head[next_bit(a, 0)];
	dequeue(next);
	return next;
}

/* schedule() with nothing queued: idle_balance, then the pick, or the idle task */
static struct task *pick_or_idle(int c)
{
	struct task *n = o1_pick_first(c);
	if (!n && sched.ncpus > 1) {
		o1_rq_of(c)->in_schedule = true; /* what it pulls waits for the pick below */
		o1_idle_balance(c);
		o1_rq_of(c)->in_schedule = false;
		n = o1_pick_first(c);
	}
	if (!n)
		o1_rq_of(c)->expired_since = false; /* rq->expired_timestamp = 0 */
	return n;
}

/* move_tasks: up to max_nr_move queued tasks of CPU busiest go to this_cpu's runqueue, the
 * expired array's first (they will not run soon), each list from its tail, the best
 * priority first; can_migrate_task skips a cache-hot one (run or woken within
 * cache_hot_time, 2.5 ms) when check_hot. The running task is never queued. */
int o1_move_tasks(int busiest, int this_cpu, unsigned long max_nr_move, bool check_hot)
{
	struct o1_rq *src = o1_rq_of(busiest), *dst = o1_rq_of(this_cpu);
	int pulled = 0;
	if (!max_nr_move || o1_nr_running(busiest) <= 1)
		return 0;
	/* the expired array first, if it has tasks, then the active one */
	bool expired = src->arrays[(src->active_epoch + 1) & 1].nr_active > 0;
	sim_time_t now = local_now();
	for (;;) {
		struct o1_array *a = array_of(src, src->active_epoch + (expired ? 1 : 0));
		for (int idx = next_bit(a, 0); idx < MAX_PRIO; idx = next_bit(a, idx + 1)) {
			struct task *p = a->tail[idx];
			while (p) {
				struct task *prev = p->o1_prev;
				bool hot = o1_task_hot(p, now);
				if (!(check_hot && hot)) {
					/* pull_task: to the same array of this runqueue */
					dequeue(p);
					p->o1_cpu = this_cpu;
					p->o1_epoch = dst->active_epoch + (expired ? 1 : 0);
					enqueue(p, REQUEUE_TAIL, NULL);
					o1_activate_on(p, this_cpu, true);
					if ((unsigned long)++pulled >= max_nr_move)
						return pulled;
				}
				p = prev;
			}
		}
		if (!expired || !array_of(src, src->active_epoch)->nr_active)
			break;
		expired = false;
	}
	return pulled;
}

static void give_cpu(int c, struct task *t)
{
	o1_set_curr(c, t);
	t->cpu = c;
	t->o1_cpu = c;
	t->slice_used = 0;
	picked(t, sim_clock);
	cpu_kick(c, sim_clock);
}

/* A task just queued on CPU c's runqueue: TASK_PREEMPTS_CURR asks the running task to
 * reschedule; an idle CPU takes it at once (the idle task is always preempted). */
void o1_activate_on(struct task *p, int c, bool preempt)
{
	const struct task *curr = sched.cpus[c].curr;
	if (!curr) {
		if (o1_rq_of(c)->in_schedule)
			return;
		dequeue(p);
		give_cpu(c, p);
		return;
	}
	if (preempt && curr->prio > p->prio)
		set_need_resched(c, true);
	if (o1_nr_running(c) >= 2)
		o1_maybe_arm_idle(c);
}

/* ---- the entry points ---- */

void o1_task_init(struct task *t)
{
	t->static_prio = NICE_TO_PRIO(0);
	t->prio = effective_prio(t);
	t->time_slice = (int)task_timeslice(t);
	t->o1_cpu = 0;
	t->wake_cpu = -1;
	t->o1_epoch = sched.o1_rqs ? o1_rq_of(0)->active_epoch : 0;
}

void o1_set_nice(struct task *t, int nice)
{
	bool q = queued(t);
	if (q)
		dequeue(t);
	int old = t->static_prio;
	t->static_prio = NICE_TO_PRIO(nice);
	t->prio += t->static_prio - old;
	if (q)
		enqueue(t, REQUEUE_TAIL, NULL);
}

/* try_to_wake_up + activate_task (wakeup), or a new task joining its runqueue. A woken task
 * goes to the runqueue sched_o1_balance.c chooses (its own, or the waker's CPU), at the tail
 * of its priority in the active array, and preempts that CPU's task if its own priority is
 * better (TASK_PREEMPTS_CURR). */
void o1_make_runnable(struct task *t, bool wakeup)
{
	t->state = TASK_RUNNABLE;
	int where = REQUEUE_TAIL;
	if (wakeup) {
		sim_time_t now = sim_clock;
		int this = t->wake_cpu < 0 ? t->o1_cpu : t->wake_cpu;
		if (sched.ncpus > 1 && this != t->o1_cpu)
			t->o1_cpu = o1_wake_cpu(t, t->o1_cpu, this);
		if (t->sleep_uninterruptible)
			t->activated = -1;
		recalc_task_prio(t, now);
		if (!t->activated)
			t->activated = t->woken_by_task ? 1 : 2;
		t->timestamp = now;
		t->o1_epoch = o1_rq_of(t->o1_cpu)->active_epoch;
	} else if (t->o1_requeue == REQUEUE_HEAD) {
		where = REQUEUE_HEAD; /* a child forked by a running parent, ahead of it */
	}
	enqueue(t, where, NULL);
	o1_activate_on(t, t->o1_cpu, wakeup);
}

/* sched_fork + wake_up_forked_process + do_fork's set_need_resched: the child takes half
 * the parent's timeslice, both lose sleep average (the child 5 % of its bonus), and a
 * parent on a CPU has the child queued on its runqueue just ahead of itself at its own
 * priority, then gives up the CPU, so the child runs first. */
void o1_task_start(struct task *parent, struct task *child)
{
	sim_time_t now = local_now();
	child->timestamp = now;
	child->first_time_slice = true;
	child->interactive_credit = 0;
	if (!parent) {
		child->prio = effective_prio(child);
		child->o1_requeue = REQUEUE_TAIL;
		child->o1_cpu = o1_fork_cpu();
		child->o1_epoch = o1_rq_of(child->o1_cpu)->active_epoch;
		return;
	}
	child->o1_cpu = parent->cpu;
	child->static_prio = parent->static_prio;
	child->sleep_avg = parent->sleep_avg; /* dup_task_struct */
	child->time_slice = (parent->time_slice + 1) >> 1;
	parent->time_slice >>= 1;
	if (!parent->time_slice) {
		parent->time_slice = 1;
		o1_ticks(parent, 1); /* scheduler_tick(0, 0): the parent's slice ends */
	}
	long msa = max_sleep_avg();
	parent->sleep_avg =
	    (sim_time_t)(current_bonus(parent) * PARENT_PENALTY / 100 * msa / MAX_BONUS) * JIFFY_NS;
	child->sleep_avg =
	    (sim_time_t)(current_bonus(child) * CHILD_PENALTY / 100 * msa / MAX_BONUS) * JIFFY_NS;
	child->prio = parent->prio;
	child->o1_epoch = parent->o1_epoch;
	child->o1_requeue = REQUEUE_HEAD;
	parent->o1_after = child;
	if (parent->o1_requeue != REQUEUE_TAIL)
		parent->o1_requeue = REQUEUE_HEAD;
	set_need_resched(parent->cpu, true);
}

/* Puts a task that leaves its CPU still runnable back in its array: at the tail if its
 * timeslice (or its interactive share of it) ended at a tick, behind the child it just
 * forked, else where it was, at the head of its priority. */
static void requeue(struct task *t)
{
	struct task *after = t->o1_after;
	t->o1_after = NULL;
	if (after && !(queued(after) && after->o1_cpu == t->o1_cpu && after->prio == t->prio &&
		       task_array(after) == task_array(t)))
		after = NULL;
	enqueue(t, t->o1_requeue, after);
	t->o1_requeue = REQUEUE_HEAD;
}

/* sched_balance_exec's migration (the migration thread's __migrate_task: deactivate here,
 * activate_task on the other runqueue, as a task's wakeup, at the tail) */
static void migrate_running(struct task *t, int dest)
{
	t->o1_migrate = 0;
	t->o1_cpu = dest;
	recalc_task_prio(t, sim_clock);
	if (!t->activated)
		t->activated = 1;
	t->timestamp = sim_clock;
	t->o1_epoch = o1_rq_of(dest)->active_epoch;
	t->o1_after = NULL;
	t->o1_requeue = REQUEUE_HEAD;
	enqueue(t, REQUEUE_TAIL, NULL);
	o1_activate_on(t, dest, true);
}

/* pick_next: schedule() with the task still runnable, when it was asked to give up the
 * CPU (its timeslice ended, a better task woke, it forked, it is moving to another CPU).
 * NULL: CPU c goes idle. */
struct task *o1_pick_next(int c, struct task *t)
{
	bool resched = sched.cpus[c].need_resched;
	set_need_resched(c, false);
	if (t->state != TASK_RUNNING || t->wq || !resched)
		return t;
	charge_run_time(t, sim_clock);
	t->state = TASK_RUNNABLE;
	struct task *n;
	if (t->o1_migrate) {
		int dest = t->o1_migrate - 1;
		t->nvcsw++; /* sched_migrate_task waits for the migration thread asleep */
		t->cpu = -1;
		o1_set_curr(c, NULL);
		migrate_running(t, dest);
		n = pick_or_idle(c);
		if (!n) {
			o1_idle_arm(c);
			return NULL;
		}
		o1_set_curr(c, n);
		n->cpu = c;
		n->o1_cpu = c;
	} else {
		requeue(t);
		n = o1_pick_first(c);
		if (n == t) {
			t->state = TASK_RUNNING; /* not switched out: no context switch */
		} else {
			o1_set_curr(c, n);
			n->cpu = c;
			t->cpu = -1;
			t->nivcsw++;
		}
	}
	n->slice_used = 0;
	picked(n, sim_clock);
	return n;
}

/* schedule() for a task that blocked or died: deactivate_task, then the next one, or
 * idle_balance, or the idle task */
void o1_cpu_release(int c, struct task *t)
{
	charge_run_time(t, sim_clock);
	t->cpu = -1;
	t->o1_after = NULL;
	t->o1_requeue = REQUEUE_HEAD;
	t->o1_migrate = 0;
	o1_set_curr(c, NULL);
	struct task *n = pick_or_idle(c);
	if (n)
		give_cpu(c, n);
	else
		o1_idle_arm(c);
}

/* scheduler_tick's dequeue_task + enqueue_task at the tail: t leaves its CPU at its next
 * yield and goes to the tail of its (new) priority */
static void requeue_at_tail(struct task *t)
{
	set_need_resched(t->cpu, true);
	t->prio = effective_prio(t);
	t->o1_requeue = REQUEUE_TAIL;
	t->o1_after = NULL;
}

/* scheduler_tick, once per timer interrupt that found t running: its timeslice counts
 * down; used up, it gets a new one and goes to the expired array, or back to the active
 * one if interactive and the expired tasks are not starving; an interactive task with
 * a granularity's worth used goes to the tail of its priority. Then rebalance_tick. */
void o1_ticks(struct task *t, uint64_t ticks)
{
	struct o1_rq *rq = o1_rq_of(t->cpu);
	for (uint64_t n = ticks; n; n--) {
		if (!in_active(t)) {
			set_need_resched(t->cpu, true);
			continue;
		}
		if (!--t->time_slice) {
			requeue_at_tail(t);
			t->time_slice = (int)task_timeslice(t);
			t->first_time_slice = false;
			if (!rq->expired_since) {
				rq->expired_since = true;
				rq->expired_timestamp = o1_jiffies();
			}
			if (!task_interactive(t) || expired_starving(t)) {
				t->o1_epoch = rq->active_epoch + 1;
				if (t->static_prio < rq->best_expired_prio)
					rq->best_expired_prio = t->static_prio;
			}
		} else {
			long g = timeslice_granularity(t);
			if (task_interactive(t) && !((task_timeslice(t) - t->time_slice) % g) &&
			    t->time_slice >= g)
				requeue_at_tail(t);
		}
	}
	if (ticks && sched.ncpus > 1)
		o1_rebalance_busy(t->cpu, ticks);
}

/* sched_balance_exec: at exec, a task whose runqueue has others queued moves to the idlest
 * CPU when that is clearly less loaded (sched_o1_balance.c), through the migration thread:
 * it gives up its CPU at once and runs next on the other one. */
void sched_exec(void)
{
	struct task *t = sim_current;
	if (!sched.o1 || sched.ncpus < 2 || !t || t->cpu < 0)
		return;
	int dest = o1_exec_cpu(t->cpu);
	if (dest == t->cpu)
		return;
	t->o1_migrate = dest + 1;
	set_need_resched(t->cpu, true);
	preempt_point();
}

void sched_exit(struct task *child, struct task *parent)
{
	if (!sched.o1 || !parent)
		return;
	if (child->first_time_slice) {
		parent->time_slice += child->time_slice;
		if (parent->time_slice > max_timeslice())
			parent->time_slice = (int)max_timeslice();
	}
	if (child->sleep_avg < parent->sleep_avg)
		parent->sleep_avg = parent->sleep_avg / (EXIT_WEIGHT + 1) * EXIT_WEIGHT +
				    child->sleep_avg / (EXIT_WEIGHT + 1);
}

void sched_set_o1(bool on)
{
	sched.o1 = on;
	free(sched.o1_rqs);
	sched.o1_rqs = NULL;
	if (!on)
		return;
	sched.o1_rqs = xcalloc((size_t)sched.ncpus, sizeof(*sched.o1_rqs));
	for (int c = 0; c < sched.ncpus; c++) {
		struct o1_rq *rq = o1_rq_of(c);
		rq->best_expired_prio = MAX_PRIO;
		rq->balance_interval = 1; /* SD_CPU_INIT */
		rq->last_balance = 0;	  /* jiffies at boot */
	}
	for (struct task *t = sched.all_head; t; t = t->next_all)
		t->o1_epoch = 0;
}

/* The runqueues' invariant: every queued task is in the array its runqueue and epoch say, at
 * its priority, and counted there; an idle CPU has nothing queued; a CPU's task runs there.
 * The tasks queued, or -1. O(tasks). */
int o1_check(void)
{
	int queued_total = 0;
	for (int c = 0; c < sched.ncpus; c++) {
		struct o1_rq *rq = o1_rq_of(c);
		int n = 0;
		for (int e = 0; e < 2; e++) {
			const struct o1_array *a = &rq->arrays[e];
			int in_a = 0;
			for (int q = 0; q < MAX_PRIO; q++) {
				bool bit = a->bitmap[q / 64] >> (q % 64) & 1;
				if (bit != (a->head[q] != NULL))
					return sched_invariant_failed("o1_bitmap", "cpu %d prio %d",
								      c, q);
				for (const struct task *t = a->head[q]; t; t = t->o1_next) {
					if (t->o1_cpu != c || t->prio != q || task_array(t) != a ||
					    !queued(t))
						return sched_invariant_failed(
						    "o1_queued", "pid %d on cpu %d's list %d",
						    t->pid, c, q);
					in_a++;
				}
			}
			if (in_a != a->nr_active)
				return sched_invariant_failed("o1_nr_active", "cpu %d", c);
			n += in_a;
		}
		if (n != rq->nr_queued)
			return sched_invariant_failed("o1_nr_queued", "cpu %d: %d, counted %d", c,
						      rq->nr_queued, n);
		const struct task *curr = sched.cpus[c].curr;
		if (!curr && n)
			return sched_invariant_failed("o1_idle_with_queue", "cpu %d", c);
		if (curr && (curr->cpu != c || curr->o1_cpu != c))
			return sched_invariant_failed("o1_curr", "cpu %d runs pid %d", c,
						      curr->pid);
		queued_total += n;
	}
	return queued_total;
}
