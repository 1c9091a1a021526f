/* The O(1) scheduler of 2.6.8 (kernel/sched.c), for the kernels before CFS: two priority
 * arrays of 140 lists with a bitmap, the active one served first, a task that uses up its
 * timeslice moved to the expired one unless it is interactive; dynamic priority from the
 * sleep average (effective_prio, recalc_task_prio), the timeslice by static priority
 * (task_timeslice: 102 ms at nice 0 and HZ 1000), the interactive round robin
 * (TIMESLICE_GRANULARITY), the starvation limit, the fork split of the parent's timeslice
 * with the child queued ahead of it, and sched_exit. One runqueue for all CPUs, as the
 * CFS model (docs/model.md "Scheduler"): per-CPU runqueues and their load balancing are
 * not modelled. Every operation is O(1). */
#include "sim/sched_impl.h"

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

/* ---- the priority arrays ---- */

static struct o1_array *array_of(uint32_t epoch)
{
	return &sched.o1_arrays[epoch & 1];
}

/* A task belongs to the active array unless it expired after the last switch of arrays;
 * a running task that was active when another CPU switched them stays active (its own
 * CPU's runqueue would not have switched). */
static bool in_active(const struct task *p)
{
	return (int32_t)(p->o1_epoch - sched.o1_active_epoch) <= 0;
}

static struct o1_array *task_array(const struct task *p)
{
	return array_of(in_active(p) ? sched.o1_active_epoch : sched.o1_active_epoch + 1);
}

enum { REQUEUE_HEAD, REQUEUE_TAIL };

static void list_link(struct o1_array *a, struct task *p, struct task *prev, struct task *next)
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
}

/* enqueue_task (tail), enqueue_task_head, or just behind `after` in its list */
static void enqueue(struct task *p, int where, struct task *after)
{
	struct o1_array *a = task_array(p);
	if (after)
		list_link(a, p, after, after->o1_next);
	else if (where == REQUEUE_HEAD)
		list_link(a, p, NULL, a->head[p->prio]);
	else
		list_link(a, p, a->tail[p->prio], NULL);
}

static void dequeue(struct task *p)
{
	struct o1_array *a = task_array(p);
	int q = p->prio;
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
}

static int first_bit(const struct o1_array *a)
{
	for (int w = 0; w < (MAX_PRIO + 63) / 64; w++)
		if (a->bitmap[w])
			return w * 64 + __builtin_ctzll(a->bitmap[w]);
	return -1;
}

int o1_nr_queued(void)
{
	return sched.o1_arrays[0].nr_active + sched.o1_arrays[1].nr_active;
}

static bool queued(const struct task *p)
{
	return p->state == TASK_RUNNABLE && p->cpu < 0;
}

/* jiffies, as rq->expired_timestamp counts them: CPU 0's timer interrupts so far */
static uint64_t jiffies_now(void)
{
	return jiffies_between(0, local_now());
}

/* rq->nr_running of one CPU: its running task and its share of the queued ones */
static uint64_t nr_running_per_cpu(void)
{
	int running = sched.ncpus - sched.nr_idle;
	uint64_t n = ((uint64_t)o1_nr_queued() + (uint64_t)running) / (uint64_t)sched.ncpus;
	return n ? n : 1;
}

/* EXPIRED_STARVING: the expired tasks have waited STARVATION_LIMIT per task on the
 * runqueue, or one of them has a better static priority than the running task */
static bool expired_starving(const struct task *curr)
{
	if (sched.o1_expired_since && jiffies_now() - sched.o1_expired_timestamp >=
					  (uint64_t)max_sleep_avg() * nr_running_per_cpu() + 1)
		return true;
	return curr->static_prio > sched.o1_best_expired_prio;
}

/* schedule()'s pick: the first task of the best priority in the active array, the arrays
 * switched first when the active one is empty */
static struct task *pick_first(void)
{
	if (!o1_nr_queued()) {
		if (sched.nr_idle == sched.ncpus)
			sched.o1_expired_since = false; /* rq->nr_running 0 */
		return NULL;
	}
	struct o1_array *a = array_of(sched.o1_active_epoch);
	if (!a->nr_active) {
		sched.o1_active_epoch++;
		a = array_of(sched.o1_active_epoch);
		sched.o1_expired_since = false;
		sched.o1_best_expired_prio = MAX_PRIO;
	}
	struct task *next = a->head[first_bit(a)];
	dequeue(next);
	return next;
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

static void give_cpu(int c, struct task *t)
{
	set_curr(c, t);
	t->cpu = c;
	t->slice_used = 0;
	picked(t, sim_clock);
	cpu_kick(c, sim_clock);
}

static int idle_cpu(void)
{
	for (int c = 0; sched.nr_idle && c < sched.ncpus; c++)
		if (!sched.cpus[c].curr)
			return c;
	return -1;
}

/* ---- the entry points ---- */

void o1_task_init(struct task *t)
{
	t->static_prio = NICE_TO_PRIO(0);
	t->prio = effective_prio(t);
	t->time_slice = (int)task_timeslice(t);
	t->o1_epoch = sched.o1_active_epoch;
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

/* try_to_wake_up + activate_task (wakeup), or a new task joining the runqueue. A woken
 * task goes to the tail of its priority in the active array and preempts the CPU running
 * the task of the worst priority, if its own is better (TASK_PREEMPTS_CURR). */
void o1_make_runnable(struct task *t, bool wakeup)
{
	t->state = TASK_RUNNABLE;
	int where = REQUEUE_TAIL;
	if (wakeup) {
		sim_time_t now = sim_clock;
		if (t->sleep_uninterruptible)
			t->activated = -1;
		recalc_task_prio(t, now);
		if (!t->activated)
			t->activated = t->woken_by_task ? 1 : 2;
		t->timestamp = now;
		t->o1_epoch = sched.o1_active_epoch;
	} else if (t->o1_requeue == REQUEUE_HEAD) {
		where = REQUEUE_HEAD; /* a child forked by a running parent, ahead of it */
	}
	int c = idle_cpu();
	if (c >= 0) {
		give_cpu(c, t);
		return;
	}
	enqueue(t, where, NULL);
	if (!wakeup)
		return;
	int worst = -1;
	for (int i = 0; i < sched.ncpus; i++) {
		const struct task *curr = sched.cpus[i].curr;
		if (curr && curr->prio > t->prio &&
		    (worst < 0 || curr->prio > sched.cpus[worst].curr->prio))
			worst = i;
	}
	if (worst >= 0)
		set_need_resched(worst, true);
}

/* sched_fork + wake_up_forked_process + do_fork's set_need_resched: the child takes half
 * the parent's timeslice, both lose sleep average (the child 5 % of its bonus), and a
 * parent on a CPU has the child queued just ahead of itself at its own priority, then
 * gives up the CPU, so the child runs first. */
void o1_task_start(struct task *parent, struct task *child)
{
	sim_time_t now = local_now();
	child->timestamp = now;
	child->first_time_slice = true;
	child->interactive_credit = 0;
	if (!parent) {
		child->prio = effective_prio(child);
		child->o1_requeue = REQUEUE_TAIL;
		return;
	}
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
	if (after &&
	    !(queued(after) && after->prio == t->prio && task_array(after) == task_array(t)))
		after = NULL;
	enqueue(t, t->o1_requeue, after);
	t->o1_requeue = REQUEUE_HEAD;
}

/* pick_next: schedule() with the task still runnable, when it was asked to give up the
 * CPU (its timeslice ended, a better task woke, it forked). */
struct task *o1_pick_next(int c, struct task *t)
{
	bool resched = sched.cpus[c].need_resched;
	set_need_resched(c, false);
	if (t->state != TASK_RUNNING || t->wq || !resched)
		return t;
	charge_run_time(t, sim_clock);
	t->state = TASK_RUNNABLE;
	requeue(t);
	struct task *n = pick_first();
	if (n == t) {
		t->state = TASK_RUNNING; /* not switched out: no context switch */
	} else {
		set_curr(c, n);
		n->cpu = c;
		t->cpu = -1;
	}
	n->slice_used = 0;
	picked(n, sim_clock);
	return n;
}

/* schedule() for a task that blocked or died: deactivate_task, then the next one */
void o1_cpu_release(int c, struct task *t)
{
	charge_run_time(t, sim_clock);
	t->cpu = -1;
	t->o1_after = NULL;
	t->o1_requeue = REQUEUE_HEAD;
	set_curr(c, NULL);
	struct task *n = pick_first();
	if (n)
		give_cpu(c, n);
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
 * a granularity's worth used goes to the tail of its priority */
void o1_ticks(struct task *t, uint64_t ticks)
{
	for (; ticks; ticks--) {
		if (!in_active(t)) {
			set_need_resched(t->cpu, true);
			continue;
		}
		if (!--t->time_slice) {
			requeue_at_tail(t);
			t->time_slice = (int)task_timeslice(t);
			t->first_time_slice = false;
			if (!sched.o1_expired_since) {
				sched.o1_expired_since = true;
				sched.o1_expired_timestamp = jiffies_now();
			}
			if (!task_interactive(t) || expired_starving(t)) {
				t->o1_epoch = sched.o1_active_epoch + 1;
				if (t->static_prio < sched.o1_best_expired_prio)
					sched.o1_best_expired_prio = t->static_prio;
			}
		} else {
			long g = timeslice_granularity(t);
			if (task_interactive(t) && !((task_timeslice(t) - t->time_slice) % g) &&
			    t->time_slice >= g)
				requeue_at_tail(t);
		}
	}
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
	sched.o1_best_expired_prio = MAX_PRIO;
}
