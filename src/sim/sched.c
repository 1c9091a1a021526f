#include "sim/sched.h"

#include "sim/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ev_kind { EV_WAKE, EV_CALLBACK }; /* CPU events live in struct cpu */

struct event {
	sim_time_t time;
	uint64_t seq;
	uint8_t kind;
	void *ptr;
	void (*fn)(void *, uint64_t);
	uint64_t arg;
};

struct cpu {
	struct task *curr;
	bool event_pending; /* an EV_CPU for this CPU is due at (ev_time, ev_seq) */
	sim_time_t ev_time;
	uint64_t ev_seq;
	bool need_resched;     /* a woken task should preempt curr at its next yield point */
	sim_time_t tick_phase; /* this CPU's timer interrupts come at phase + k * jiffy */
};

struct rq_entry {
	sim_time_t vruntime;
	uint64_t seq; /* ties in vruntime go first come, first served */
	struct task *task;
};

#ifdef MMSIM_ASAN
#define TASK_STACK (512 * 1024)
#else
#define TASK_STACK (128 * 1024)
#endif

static struct {
	struct event *heap;
	size_t nr, cap;
	uint64_t seq;
	int nr_cpu_events; /* CPUs with event_pending */
	struct cpu *cpus;
	int ncpus;
	struct rq_entry *rq; /* runnable tasks waiting for a CPU: a min-heap on (vruntime, seq) */
	int nr_rq, rq_cap;
	uint64_t rq_weight; /* sum of the queued tasks' weights */
	uint64_t rq_seq;
	sim_time_t min_vruntime;
	sim_time_t sched_latency, wakeup_gran;
	bool normalized_sleeper;
	sim_time_t quantum, slice, ctxsw;
	sim_time_t tick_cost;
	struct coro sched_ctx;
	struct task *all_head, *all_tail;
	int next_pid;
	bool stop;
	void (*check)(void);
	uint64_t check_every, check_count;
	void (*observe)(sim_time_t when); /* a monitor reading state at fixed times */
	sim_time_t observe_every, observe_next;
	struct sched_stats stats;
} S;

struct task *current;
sim_time_t sim_clock;

/* ---- event heap, ordered by (time, seq) ---- */

/* The order of everything that happens: time, then the order it was queued in. */
static bool before(sim_time_t ta, uint64_t sa, sim_time_t tb, uint64_t sb)
{
	return ta < tb || (ta == tb && sa < sb);
}

static bool ev_less(const struct event *a, const struct event *b)
{
	return before(a->time, a->seq, b->time, b->seq);
}

static void ev_push(struct event e)
{
	if (S.nr == S.cap) {
		S.cap = S.cap ? S.cap * 2 : 1024;
		S.heap = realloc(S.heap, S.cap * sizeof(*S.heap));
		if (!S.heap) {
			perror("mmsim: event heap");
			exit(1);
		}
	}
	e.seq = S.seq++;
	size_t i = S.nr++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!ev_less(&e, &S.heap[p]))
			break;
		S.heap[i] = S.heap[p];
		i = p;
	}
	S.heap[i] = e;
}

static struct event ev_pop(void)
{
	struct event top = S.heap[0];
	struct event last = S.heap[--S.nr];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct event *mv = &last;
		if (l < S.nr && ev_less(&S.heap[l], mv)) {
			m = l;
			mv = &S.heap[l];
		}
		if (r < S.nr && ev_less(&S.heap[r], mv))
			m = r;
		if (m == i)
			break;
		S.heap[i] = S.heap[m];
		i = m;
	}
	if (S.nr)
		S.heap[i] = last;
	return top;
}

/* ---- run queue: CFS order ---- */

/* The key lives in the heap, not in the task: with thousands of tasks runnable, a sift
 * then touches one array instead of a task per level. A queued task's vruntime does not
 * change until it is popped. */
static bool rq_less(const struct rq_entry *a, const struct rq_entry *b)
{
	return a->vruntime < b->vruntime || (a->vruntime == b->vruntime && a->seq < b->seq);
}

static void rq_push(struct task *t)
{
	if (S.nr_rq == S.rq_cap) {
		S.rq_cap = S.rq_cap ? S.rq_cap * 2 : 64;
		S.rq = realloc(S.rq, (size_t)S.rq_cap * sizeof(*S.rq));
		if (!S.rq) {
			perror("mmsim: run queue");
			exit(1);
		}
	}
	struct rq_entry e = {.vruntime = t->vruntime, .seq = S.rq_seq++, .task = t};
	S.rq_weight += t->weight;
	int i = S.nr_rq++;
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!rq_less(&e, &S.rq[p]))
			break;
		S.rq[i] = S.rq[p];
		i = p;
	}
	S.rq[i] = e;
}

static struct task *rq_pop(void)
{
	if (!S.nr_rq)
		return NULL;
	struct task *top = S.rq[0].task;
	S.rq_weight -= top->weight;
	struct rq_entry last = S.rq[--S.nr_rq];
	int i = 0;
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		const struct rq_entry *mv = &last;
		if (l < S.nr_rq && rq_less(&S.rq[l], mv)) {
			m = l;
			mv = &S.rq[l];
		}
		if (r < S.nr_rq && rq_less(&S.rq[r], mv))
			m = r;
		if (m == i)
			break;
		S.rq[i] = S.rq[m];
		i = m;
	}
	if (S.nr_rq)
		S.rq[i] = last;
	return top;
}

/* The run queue's min_vruntime: monotonic, following the least vruntime among the tasks
 * on a CPU or waiting for one. */
static void update_min_vruntime(void)
{
	sim_time_t m = UINT64_MAX;
	for (int c = 0; c < S.ncpus; c++)
		if (S.cpus[c].curr && S.cpus[c].curr->vruntime < m)
			m = S.cpus[c].curr->vruntime;
	if (S.nr_rq && S.rq[0].vruntime < m)
		m = S.rq[0].vruntime;
	if (m != UINT64_MAX && m > S.min_vruntime)
		S.min_vruntime = m;
}

/* prio_to_weight (kernel/sched.c): each nice level is ~10% of CPU against its neighbour */
static const uint32_t prio_to_weight[40] = {
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904,
    3906,  3121,  2501,	 1991,	1586,  1277,  1024,  820,   655,   526,	  423,	335,  272,  215,
    172,   137,	  110,	 87,	70,    56,    45,    36,    29,	   23,	  18,	15,
};

void set_user_nice(struct task *t, int nice)
{
	nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
	uint32_t w = prio_to_weight[nice + 20];
	if (t->state == TASK_RUNNABLE && t->cpu < 0)
		S.rq_weight = S.rq_weight - t->weight + w; /* queued: keep the sum */
	t->weight = w;
}

/* calc_delta_fair: ns of CPU as virtual runtime */
static sim_time_t vdelta(const struct task *t, sim_time_t ns)
{
	return t->weight == NICE_0_LOAD ? ns : ns * NICE_0_LOAD / t->weight;
}

/* sched_slice, with many tasks queued: the minimum granularity times the task's share of
 * a nice-0 task's weight */
static sim_time_t task_slice(const struct task *t)
{
	return t->weight == NICE_0_LOAD ? S.slice : S.slice * t->weight / NICE_0_LOAD;
}

static void cpu_kick(int c, sim_time_t when)
{
	if (S.cpus[c].event_pending)
		return;
	/* Most events are these; each CPU has at most one, so they stay out of the heap and
	 * take their sequence number from the same counter: the order is unchanged. */
	S.cpus[c].event_pending = true;
	S.cpus[c].ev_time = when;
	S.cpus[c].ev_seq = S.seq++;
	S.nr_cpu_events++;
}

/* check_preempt_wakeup: the woken task preempts the CPU whose task is furthest ahead in
 * virtual runtime, if that lead exceeds the wakeup granularity. The preemption happens at
 * that task's next yield point (the end of its quantum or of its system call). */
static void check_preempt_wakeup(struct task *t)
{
	int best = -1;
	sim_time_t lead = 0;
	for (int c = 0; c < S.ncpus; c++) {
		struct task *curr = S.cpus[c].curr;
		if (!curr)
			continue;
		sim_time_t v = curr->vruntime + (curr == current ? vdelta(curr, curr->pending) : 0);
		/* the granularity in the running task's virtual time */
		sim_time_t gran = vdelta(curr, S.wakeup_gran);
		if (v > t->vruntime + gran && v - t->vruntime > lead) {
			lead = v - t->vruntime;
			best = c;
		}
	}
	if (best >= 0)
		S.cpus[best].need_resched = true;
}

/* cfs_rq->load as place_entity sees it: the queued tasks, the running ones, and the waking
 * task itself (2.6.25's enqueue_entity accounts it first; 2.6.24's after, which with
 * hundreds of tasks queued differs by well under 1 %). One run queue for all CPUs here, so
 * on more than one CPU this is the machine's load, not one CPU's. */
static uint64_t rq_load(const struct task *waking)
{
	uint64_t load = waking->weight + S.rq_weight;
	for (int c = 0; c < S.ncpus; c++)
		if (S.cpus[c].curr)
			load += S.cpus[c].curr->weight;
	return load;
}

void sched_set_normalized_sleeper(bool on)
{
	S.normalized_sleeper = on;
}

/* A task becomes runnable now: give it an idle CPU or queue it. A task woken from a sleep
 * is placed at most one scheduling latency behind min_vruntime (the sleeper credit of
 * place_entity); a new task starts one slice after it (START_DEBIT), so a fork storm
 * cannot starve the tasks already queued. */
static void make_runnable_as(struct task *t, bool wakeup)
{
	t->state = TASK_RUNNABLE;
	update_min_vruntime();
	if (wakeup) {
		sim_time_t floor = S.min_vruntime, credit = S.sched_latency;
		if (S.normalized_sleeper)
			credit = credit * NICE_0_LOAD / rq_load(t);
		floor = floor > credit ? floor - credit : 0;
		if (t->vruntime < floor)
			t->vruntime = floor;
	}
	for (int c = 0; c < S.ncpus; c++) {
		if (!S.cpus[c].curr) {
			S.cpus[c].curr = t;
			t->cpu = c;
			t->slice_used = 0;
			cpu_kick(c, sim_clock);
			return;
		}
	}
	rq_push(t);
	if (wakeup)
		check_preempt_wakeup(t);
}

static void make_runnable(struct task *t)
{
	make_runnable_as(t, true);
}

void sched_init(int ncpus, sim_time_t quantum_ns, sim_time_t slice_ns, sim_time_t ctxsw_ns)
{
	memset(&S, 0, sizeof(S));
	S.ncpus = ncpus;
	S.cpus = calloc((size_t)ncpus, sizeof(*S.cpus));
	S.quantum = quantum_ns;
	S.slice = slice_ns;
	/* CFS tunables of the 2.6.24-era sched_fair.c, scaled by 1 + ilog2(ncpus) as
	 * sched_init_granularity does: sched_latency 20 ms (the sleeper credit), wakeup
	 * granularity 10 ms */
	int factor = 1;
	for (int n = ncpus; n > 1; n >>= 1)
		factor++;
	S.sched_latency = 20 * NSEC_PER_MSEC * (sim_time_t)factor;
	S.wakeup_gran = 10 * NSEC_PER_MSEC * (sim_time_t)factor;
	S.ctxsw = ctxsw_ns;
	S.next_pid = 1;
	current = NULL;
	sim_clock = 0;
}

void sched_set_ticks(sim_time_t tick_cost, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed, 0x71c4);
	S.tick_cost = tick_cost;
	for (int c = 0; c < S.ncpus; c++)
		S.cpus[c].tick_phase = rng_below(&r, JIFFY_NS);
}

void sched_destroy(void)
{
	struct task *t = S.all_head;
	while (t) {
		struct task *n = t->next_all;
		coro_destroy(&t->co);
		free(t);
		t = n;
	}
	free(S.heap);
	free(S.rq);
	free(S.cpus);
	memset(&S, 0, sizeof(S));
	current = NULL;
	sim_clock = 0;
}

static void task_entry(void *arg)
{
	struct task *t = arg;
	t->fn(t->arg);
	task_exit();
}

struct task *task_create(const char *comm, void (*fn)(void *), void *arg, bool kthread)
{
	struct task *t = calloc(1, sizeof(*t));
	if (!t || coro_init(&t->co, TASK_STACK, task_entry, t) != 0) {
		perror("mmsim: task");
		exit(1);
	}
	t->pid = S.next_pid++;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->state = TASK_NEW;
	t->cpu = -1;
	t->fn = fn;
	t->arg = arg;
	t->is_kthread = kthread;
	t->weight = NICE_0_LOAD;
	if (kthread)
		t->flags |= PF_KTHREAD;
	t->start_time = local_now();
	if (S.all_tail)
		S.all_tail->next_all = t;
	else
		S.all_head = t;
	S.all_tail = t;
	S.stats.tasks_created++;
	return t;
}

/* task_new_fair: a new task starts one slice after min_vruntime (START_DEBIT); with
 * child-runs-first (the 2.6.2x default), a child that would start behind its parent takes the
 * parent's place instead, and the parent is asked to give it the CPU. */
void task_start(struct task *t)
{
	update_min_vruntime();
	sim_time_t child = S.min_vruntime + S.slice;
	if (t->vruntime > child)
		child = t->vruntime;
	t->vruntime = child;
	if (current && current->cpu >= 0) {
		sim_time_t parent = current->vruntime + vdelta(current, current->pending);
		if (parent < child) {
			t->vruntime = parent;
			current->vruntime = child - vdelta(current, current->pending);
		}
		S.cpus[current->cpu].need_resched = true;
	}
	t->wake_gen++;
	if (current && current->pending)
		ev_push((struct event){
		    .time = local_now(), .kind = EV_WAKE, .ptr = t, .arg = t->wake_gen});
	else
		make_runnable_as(t, false);
}

/* ---- task side: give control back to the scheduler ---- */

static void switch_to_sched(int finishing)
{
	struct task *t = current;
	coro_switch(&t->co, &S.sched_ctx, finishing);
}

/* Turns pending CPU time into elapsed time: the task's CPU is busy until clock + pending. */
/* Turns pending CPU time into elapsed time: the task's CPU is busy until clock + pending.
 * With force, the task yields even with nothing pending, so the scheduler can preempt it. */
static void yield_cpu(bool force)
{
	struct task *t = current;
	if (!t->pending && !force)
		return;
	sim_time_t used0 = t->slice_used;
	t->slice_used += t->pending;
	t->vruntime += vdelta(t, t->pending);
	sim_time_t when = sim_clock + t->pending;
	if (S.tick_cost) {
		sim_time_t ph = S.cpus[t->cpu].tick_phase;
		/* scheduler_tick -> check_preempt_tick: a slice ends at the first timer interrupt
		 * after it is used up (delta_exec > ideal_runtime), not the instant it is */
		sim_time_t slice = task_slice(t);
		if (t->slice_used > slice) {
			sim_time_t expire = sim_clock + (slice > used0 ? slice - used0 : 0);
			sim_time_t first = (expire + JIFFY_NS - ph) / JIFFY_NS * JIFFY_NS + ph;
			if (first <= when)
				S.cpus[t->cpu].need_resched = true;
		}
		/* the timer interrupts that land in this stretch steal their cost from it */
		uint64_t ticks =
		    (when + JIFFY_NS - ph) / JIFFY_NS - (sim_clock + JIFFY_NS - ph) / JIFFY_NS;
		when += ticks * S.tick_cost;
		t->stime += ticks * S.tick_cost;
	}
	t->pending = 0;
	t->state = TASK_RUNNING;
	cpu_kick(t->cpu, when);
	switch_to_sched(0);
}

static void flush_pending(void)
{
	yield_cpu(false);
}

void preempt_point(void)
{
	if (current && current->cpu >= 0 && S.cpus[current->cpu].need_resched)
		yield_cpu(true);
}

void sched_sync(void)
{
	if (current)
		flush_pending();
}

static inline void account(sim_time_t ns, bool sys)
{
	struct task *t = current;
	if (!t)
		return; /* scheduler context (device callbacks, unit tests): no task to charge */
	t->pending += ns;
	if (sys || t->in_kernel) {
		/* Kernel code is not preemptible: it yields only where it calls cond_resched()
		 * or blocks, so no simulated kernel path is interleaved at an arbitrary point. */
		t->stime += ns;
		return;
	}
	t->utime += ns;
	if (t->pending >= S.quantum)
		flush_pending();
}

void cpu_work(sim_time_t ns)
{
	account(ns, false);
}

void cpu_work_sys(sim_time_t ns)
{
	account(ns, true);
}

void cond_resched(void)
{
	if (current && current->pending >= S.quantum)
		flush_pending();
}

static void block_current(void)
{
	flush_pending();
	current->state = TASK_BLOCKED;
	switch_to_sched(0);
}

void schedule_timeout(sim_time_t ns)
{
	struct task *t = current;
	flush_pending();
	t->wake_gen++;
	t->timed_out = false;
	ev_push(
	    (struct event){.time = sim_clock + ns, .kind = EV_WAKE, .ptr = t, .arg = t->wake_gen});
	block_current();
}

static void wq_remove(struct waitqueue *wq, struct task *t)
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

/* The task joins the queue before it lets its pending CPU time elapse, so a wakeup that
 * comes while it catches up with the clock is not lost: wake() takes it off the queue and
 * the task sees that when it resumes. */
static bool do_sleep_on(struct waitqueue *wq, sim_time_t timeout_ns, bool killable, bool exclusive)
{
	struct task *t = current;
	if (killable && (t->tif & TIF_SIGKILL))
		return false;
	t->wake_gen++;
	t->timed_out = false;
	t->killable_sleep = killable;
	t->wq_exclusive = exclusive;
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
	if (timeout_ns)
		ev_push((struct event){.time = local_now() + timeout_ns,
				       .kind = EV_WAKE,
				       .ptr = t,
				       .arg = t->wake_gen});
	flush_pending();
	if (t->wq && !(killable && (t->tif & TIF_SIGKILL))) {
		t->state = TASK_BLOCKED;
		switch_to_sched(0);
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
	t->wake_gen++;
	if (t->state != TASK_BLOCKED)
		return; /* still catching up with the clock in sleep_on: it will see wq == NULL */
	if (current && current->pending)
		ev_push((struct event){
		    .time = local_now(), .kind = EV_WAKE, .ptr = t, .arg = t->wake_gen});
	else
		make_runnable(t);
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

_Noreturn void task_exit(void)
{
	struct task *t = current;
	flush_pending();
	t->flags |= PF_EXITING;
	if (t->on_exit)
		t->on_exit(t);
	flush_pending();
	t->state = TASK_DEAD;
	t->exit_time = sim_clock;
	switch_to_sched(1);
	abort();
}

void spin_lock_hold(struct spinlock *lock, sim_time_t hold_ns)
{
	sim_time_t t = local_now();
	lock->acquisitions++;
	if (lock->free_at > t) {
		sim_time_t wait = lock->free_at - t;
		lock->contended++;
		lock->spin_ns += wait;
		t = lock->free_at;
		lock->free_at = t + hold_ns;
		cpu_work_sys(wait + hold_ns);
	} else {
		lock->free_at = t + hold_ns;
		cpu_work_sys(hold_ns);
	}
}

void sched_callback_at(sim_time_t when, void (*fn)(void *, uint64_t), void *arg, uint64_t arg2)
{
	ev_push(
	    (struct event){.time = when, .kind = EV_CALLBACK, .fn = fn, .ptr = arg, .arg = arg2});
}

void sched_set_check_hook(void (*fn)(void), uint64_t every)
{
	S.check = fn;
	S.check_every = every ? every : 1;
	S.check_count = 0;
}

void sched_set_observer(void (*fn)(sim_time_t when), sim_time_t every)
{
	S.observe = every ? fn : NULL;
	S.observe_every = every;
	S.observe_next = 0;
}

/* State only changes at events, so what holds just before the first event due at or after
 * a multiple of the interval is the state at that instant. */
static void observe_until(sim_time_t t)
{
	sim_time_t saved = sim_clock;
	while (S.observe_next <= t) {
		sim_clock = S.observe_next;
		S.observe(S.observe_next);
		S.observe_next += S.observe_every;
	}
	sim_clock = saved;
}

void sched_request_stop(void)
{
	S.stop = true;
}

/* ---- scheduler side ---- */

static void run_on_cpu(int c)
{
	struct task *t = S.cpus[c].curr;
	if (!t)
		return;
	/* A task that used its slice, or that a wakeup asked to preempt, goes back to the run
	 * queue and the least-run task takes the CPU (not a task that is catching up in
	 * sleep_on: it is about to block, and it sits on a wait queue). */
	bool resched = S.cpus[c].need_resched || (!S.tick_cost && t->slice_used >= task_slice(t));
	S.cpus[c].need_resched = false;
	if (t->state == TASK_RUNNING && !t->wq && S.nr_rq && resched) {
		t->state = TASK_RUNNABLE;
		rq_push(t);
		struct task *n = rq_pop();
		if (n != t) {
			S.cpus[c].curr = n;
			n->cpu = c;
			n->slice_used = 0;
			t->cpu = -1;
			t = n;
		} else {
			t->state = TASK_RUNNING;
			t->slice_used = 0;
		}
	}
	if (t->state == TASK_RUNNABLE && t->co.sp) {
		S.stats.context_switches++;
		t->nr_switched_in++;
		t->pending += S.ctxsw;
		t->stime += S.ctxsw;
	}
	t->state = TASK_RUNNING;
	t->cpu = c;
	current = t;
	coro_switch(&S.sched_ctx, &t->co, 0);
	current = NULL;
	if (t->state == TASK_DEAD) {
		coro_destroy(&t->co);
	}
	if (t->state == TASK_BLOCKED || t->state == TASK_DEAD) {
		t->cpu = -1;
		struct task *n = rq_pop();
		S.cpus[c].curr = n;
		if (n) {
			n->cpu = c;
			n->slice_used = 0;
			cpu_kick(c, sim_clock);
		}
	}
}

/* The CPU whose event is due first, or -1. */
static int earliest_cpu_event(void)
{
	int c = -1;
	for (int i = 0; S.nr_cpu_events && i < S.ncpus; i++) {
		const struct cpu *cp = &S.cpus[i];
		if (cp->event_pending &&
		    (c < 0 || before(cp->ev_time, cp->ev_seq, S.cpus[c].ev_time, S.cpus[c].ev_seq)))
			c = i;
	}
	return c;
}

static void run_event(struct event e)
{
	switch (e.kind) {
	case EV_WAKE: {
		struct task *t = e.ptr;
		if (t->wake_gen != e.arg)
			break;
		if (t->state == TASK_BLOCKED) {
			if (t->wq) {
				wq_remove(t->wq, t);
				t->timed_out = true;
			}
			t->wake_gen++;
			make_runnable(t);
		} else if (t->state == TASK_RUNNING && t->wq) {
			/* timed out while catching up in sleep_on */
			wq_remove(t->wq, t);
			t->timed_out = true;
			t->wake_gen++;
		} else if (t->state == TASK_NEW) {
			make_runnable_as(t, false);
		}
		break;
	}
	case EV_CALLBACK:
		e.fn(e.ptr, e.arg);
		break;
	}
}

sim_time_t sched_run(sim_time_t until, bool (*keep_going)(void))
{
	S.stop = false;
	while ((S.nr || S.nr_cpu_events) && !S.stop) {
		int c = earliest_cpu_event();
		bool cpu_first = c >= 0 && (!S.nr || before(S.cpus[c].ev_time, S.cpus[c].ev_seq,
							    S.heap[0].time, S.heap[0].seq));
		sim_time_t due = cpu_first ? S.cpus[c].ev_time : S.heap[0].time;
		if (due > until) {
			if (S.observe)
				observe_until(until);
			sim_clock = until;
			break;
		}
		if (S.observe && due >= S.observe_next)
			observe_until(due);
		sim_clock = due;
		S.stats.events++;
		if (cpu_first) {
			S.cpus[c].event_pending = false;
			S.nr_cpu_events--;
			run_on_cpu(c);
		} else {
			run_event(ev_pop());
		}
		if (S.check && ++S.check_count >= S.check_every) {
			S.check_count = 0;
			S.check();
		}
		if (keep_going && !keep_going())
			break;
	}
	return sim_clock;
}

struct task *sched_first_task(void)
{
	return S.all_head;
}

const struct sched_stats *sched_get_stats(void)
{
	return &S.stats;
}

int sched_ncpus(void)
{
	return S.ncpus;
}

int sched_nr_running(void)
{
	int n = S.nr_rq;
	for (int c = 0; c < S.ncpus; c++)
		n += S.cpus[c].curr != NULL;
	return n;
}

void sched_dump(FILE *out)
{
	fprintf(out, "clock %llu, %zu events queued (+%d CPU events), %d on the run queue\n",
		(unsigned long long)sim_clock, S.nr, S.nr_cpu_events, S.nr_rq);
	for (int c = 0; c < S.ncpus; c++)
		fprintf(out, "cpu %d: curr %d, event pending %d\n", c,
			S.cpus[c].curr ? S.cpus[c].curr->pid : -1, S.cpus[c].event_pending);
	for (int i = 0; i < S.nr_rq; i++)
		fprintf(out, "  rq: %d vruntime %llu\n", S.rq[i].task->pid,
			(unsigned long long)S.rq[i].vruntime);
	for (int c = 0; c < S.ncpus; c++)
		if (S.cpus[c].event_pending)
			fprintf(out, "  event t=%llu cpu %d\n",
				(unsigned long long)S.cpus[c].ev_time, c);
	for (size_t i = 0; i < S.nr; i++)
		fprintf(out, "  event t=%llu %s task %d arg %llu\n",
			(unsigned long long)S.heap[i].time,
			S.heap[i].kind == EV_WAKE ? "wake" : "callback",
			S.heap[i].kind == EV_WAKE ? ((struct task *)S.heap[i].ptr)->pid : -1,
			(unsigned long long)S.heap[i].arg);
}
