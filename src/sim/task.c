/* Tasks as coroutines and the CPU time they consume: creation, the run-ahead time model of
 * sched.h (pending time, quanta, timer ticks that end a slice and steal their cost), the
 * yield back to the scheduler, exit; and the machine's lifecycle. */
#include "sim/sched_impl.h"

#include "sim/rng.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MMSIM_ASAN
#define TASK_STACK (512 * 1024)
#else
#define TASK_STACK (128 * 1024)
#endif

struct sched_state sched;
struct task *sim_current;
sim_time_t sim_clock;
void (*task_io_exit)(struct task *t);
sim_time_t sim_quantum;
unsigned sim_hz = 1000;
int sim_nr_need_resched;

/* ---- the machine ---- */

void sched_init(int ncpus, sim_time_t quantum_ns, sim_time_t slice_ns, sim_time_t ctxsw_ns)
{
	memset(&sched, 0, sizeof(sched));
	sched.ncpus = ncpus;
	sched.nr_idle = ncpus;
	sched.cpus = xcalloc((size_t)ncpus, sizeof(*sched.cpus));
	sched.cpu_heap = xcalloc((size_t)ncpus, sizeof(*sched.cpu_heap));
	sim_quantum = quantum_ns;
	sim_hz = 1000;
	/* CFS tunables of the 2.6.24-era sched_fair.c, scaled by 1 + ilog2(ncpus) as
	 * sched_init_granularity (2.6.25, 2.6.28 kernel/sched.c) does, the first two capped
	 * at 200 ms: the minimum granularity (the profile's slice), sched_latency 20 ms (the
	 * sleeper credit), wakeup granularity 10 ms (2.6.24's; sched_set_wakeup_rules sets a
	 * kernel's own) */
	int factor = 1;
	for (int n = ncpus; n > 1; n >>= 1)
		factor++;
	const sim_time_t limit = 200 * NSEC_PER_MSEC;
	sched.slice = slice_ns * (sim_time_t)factor;
	if (sched.slice > limit)
		sched.slice = limit;
	sched.sched_latency = 20 * NSEC_PER_MSEC * (sim_time_t)factor;
	if (sched.sched_latency > limit)
		sched.sched_latency = limit;
	sched.gran_factor = factor;
	sched.nr_latency = 5; /* 20 ms / 4 ms */
	sched.wakeup_gran = 10 * NSEC_PER_MSEC * (sim_time_t)factor;
	sched.ctxsw = ctxsw_ns;
	sched.next_pid = 1;
	sim_current = NULL;
	sim_clock = 0;
	sim_nr_need_resched = 0;
}

void sched_set_mem_context_cost(sim_time_t ns)
{
	sched.switch_mm = ns;
}

void task_set_mem_context(struct task *t, uint64_t ctx)
{
	t->mem_context = ctx;
	if (ctx && t->cpu >= 0 && sched.cpus[t->cpu].curr == t)
		sched.cpus[t->cpu].active_context = ctx;
}

uint64_t sched_active_context(void)
{
	return sched.cpus ? sched.cpus[this_cpu()].active_context : 0;
}

void sched_set_hz(unsigned hz)
{
	sim_hz = hz ? hz : 1000;
}

void sched_set_ticks(sim_time_t tick_cost, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed, 0x71c4);
	sched.tick_cost = tick_cost;
	for (int c = 0; c < sched.ncpus; c++)
		sched.cpus[c].tick_phase = rng_below(&r, JIFFY_NS);
}

void sched_destroy(void)
{
	struct task *t = sched.all_head;
	while (t) {
		struct task *n = t->next_all;
		coro_destroy(&t->co);
		if (t->release)
			t->release(t);
		t = n;
	}
	free(sched.heap);
	free(sched.rq);
	free(sched.cpus);
	free(sched.cpu_heap);
	free(sched.o1_rqs);
	memset(&sched, 0, sizeof(sched));
	sim_current = NULL;
	sim_clock = 0;
	sim_quantum = 0;
	sim_nr_need_resched = 0;
}

/* ---- creation ---- */

static void task_entry(void *arg)
{
	struct task *t = arg;
	t->fn(t->arg);
	task_exit();
}

void task_init(struct task *t, const char *comm, void (*fn)(void *), void *arg)
{
	if (coro_init(&t->co, TASK_STACK, task_entry, t) != 0)
		xalloc_die(TASK_STACK); /* the stack's mapping: host memory, as xmalloc's */
	t->pid = sched.next_pid++;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->state = TASK_NEW;
	t->cpu = -1;
	t->fn = fn;
	t->arg = arg;
	t->weight = NICE_0_LOAD;
	t->next_of = t->last_of = 0;
	o1_task_init(t);
	t->start_time = local_now();
	if (sched.all_tail)
		sched.all_tail->next_all = t;
	else
		sched.all_head = t;
	sched.all_tail = t;
	sched.stats.tasks_created++;
}

static void task_free(struct task *t)
{
	free(t);
}

struct task *task_create(const char *comm, void (*fn)(void *), void *arg)
{
	struct task *t = xcalloc(1, sizeof(*t));
	task_init(t, comm, fn, arg);
	t->release = task_free;
	return t;
}

/* ---- task side: give control back to the scheduler ---- */

void switch_to_sched(int finishing)
{
	sched.switched_back = sim_current;
	coro_switch(&sim_current->co, &sched.sched_ctx, finishing);
}

/* The first timer interrupt of a CPU with tick phase ph after time t (ticks at ph + k x jiffy) */
static sim_time_t tick_after(sim_time_t ph, sim_time_t t)
{
	return (t + JIFFY_NS - ph) / JIFFY_NS * JIFFY_NS + ph;
}

/* Turns pending CPU time into elapsed time: the task's CPU is busy until clock + pending.
 * With force, the task yields even with nothing pending, so the scheduler can preempt it. */
void yield_cpu(bool force)
{
	struct task *t = sim_current;
	if (!t->pending && !force)
		return;
	sim_time_t used0 = t->slice_used;
	sim_time_t when = sim_clock + t->pending;
	sim_time_t charge = t->pending; /* update_curr's delta_exec for this stretch */
	if (sched.o1 || sched.tick_cost) {
		uint64_t ticks = ticks_between(t->cpu, sim_clock, when);
		if (sched.o1) {
			o1_ticks(t,
				 ticks); /* scheduler_tick at each timer interrupt of the stretch */
		} else {
			sim_time_t ph = sched.cpus[t->cpu].tick_phase;
			if (sched.jiffy_clock)
				charge = ticks * JIFFY_NS;
			/* scheduler_tick -> check_preempt_tick: a slice ends at the first timer
			 * interrupt after it is used up (delta_exec > ideal_runtime), not the
			 * instant it is; with a jiffy sched_clock delta_exec grows only at the
			 * ticks, so that tick is in this stretch */
			sim_time_t slice = task_slice(t);
			if (used0 + charge > slice) {
				sim_time_t expire = sim_clock + (slice > used0 ? slice - used0 : 0);
				if (sched.jiffy_clock || tick_after(ph, expire) <= when) {
					set_need_resched(t->cpu, true);
					cfs_slice_used_up(t);
				}
			}
			/* 3.0's catch-up rule, at the first tick once it holds (ns clock) */
			sim_time_t after = cfs_catch_up_after(t, used0);
			if (!sched.jiffy_clock && after != UINT64_MAX && after <= charge &&
			    tick_after(ph, sim_clock + after) <= when)
				set_need_resched(t->cpu, true);
		}
		/* the timer interrupts that land in this stretch steal their cost from it */
		when += ticks * sched.tick_cost;
		t->stime += ticks * sched.tick_cost;
	}
	t->slice_used = used0 + charge;
	t->vruntime += vdelta(t, charge);
	t->pending = 0;
	t->state = TASK_RUNNING;
	sched_yield_cpu(when);
}

/* Timer interrupts of CPU c in (from, to]: they come at tick_phase + k x jiffy */
uint64_t ticks_between(int c, sim_time_t from, sim_time_t to)
{
	sim_time_t ph = sched.cpus[c].tick_phase;
	return (to + JIFFY_NS - ph) / JIFFY_NS - (from + JIFFY_NS - ph) / JIFFY_NS;
}

uint64_t jiffies_between(sim_time_t from, sim_time_t to)
{
	return ticks_between(0, from, to);
}

/* The CPU time update_curr would have accounted to running task t for its pending time:
 * that time, or with a jiffy sched_clock the jiffies its timer ticked meanwhile. */
sim_time_t pending_charge(const struct task *t)
{
	if (!sched.jiffy_clock || !sched.tick_cost || t->cpu < 0)
		return t->pending;
	return ticks_between(t->cpu, sim_clock, sim_clock + t->pending) * JIFFY_NS;
}

void sched_set_jiffy_clock(bool on)
{
	sched.jiffy_clock = on;
}

void flush_pending(void)
{
	yield_cpu(false);
}

void preempt_point_slow(void)
{
	if (sim_current && sim_current->cpu >= 0 && sched.cpus[sim_current->cpu].need_resched)
		yield_cpu(true);
}

void sched_sync(void)
{
	if (sim_current)
		flush_pending();
}

void cpu_work_yield(sim_time_t ns)
{
	struct task *t = sim_current;
	if (!t)
		return; /* scheduler context (device callbacks, unit tests): no task to charge */
	if (t->in_kernel) {
		cpu_work_sys(ns);
		return;
	}
	t->pending += ns;
	t->utime += ns;
	if (t->pending >= sim_quantum)
		flush_pending();
}

void cond_resched(void)
{
	if (sim_current && sim_current->pending >= sim_quantum)
		flush_pending();
}

_Noreturn void task_exit(void)
{
	struct task *t = sim_current;
	flush_pending();
	if (t->on_exit)
		t->on_exit(t);
	if (task_io_exit)
		task_io_exit(t);
	flush_pending();
	t->state = TASK_DEAD;
	t->exit_time = sim_clock;
	switch_to_sched(1);
	abort();
}

/* ---- what the machine looks like ---- */

struct task *sched_first_task(void)
{
	return sched.all_head;
}

const struct sched_stats *sched_get_stats(void)
{
	return &sched.stats;
}

int sched_ncpus(void)
{
	return sched.ncpus;
}

void sched_dump(FILE *out)
{
	fprintf(out, "clock %llu, %zu events queued (+%d CPU events), %d on the run queue\n",
		(unsigned long long)sim_clock, sched.nr, sched.nr_cpu_events, sched.nr_rq);
	for (int c = 0; c < sched.ncpus; c++)
		fprintf(out, "cpu %d: curr %d, event pending %d\n", c,
			sched.cpus[c].curr ? sched.cpus[c].curr->pid : -1,
			sched.cpus[c].event_pending);
	for (int i = 0; i < sched.nr_rq; i++)
		fprintf(out, "  rq: %d vruntime %llu\n", sched.rq[i].task->pid,
			(unsigned long long)sched.rq[i].vruntime);
	for (int c = 0; c < sched.ncpus; c++)
		if (sched.cpus[c].event_pending)
			fprintf(out, "  event t=%llu cpu %d\n",
				(unsigned long long)sched.cpus[c].ev_time, c);
	for (size_t i = 0; i < sched.nr; i++)
		fprintf(out, "  event t=%llu %s task %d arg %llu\n",
			(unsigned long long)sched.heap[i].time,
			sched.heap[i].kind == EV_WAKE ? "wake" : "callback",
			sched.heap[i].kind == EV_WAKE ? ((struct task *)sched.heap[i].ptr)->pid
						      : -1,
			(unsigned long long)sched.heap[i].arg);
}
