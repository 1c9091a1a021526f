/* The event queue and the loop that drives virtual time: timer wakeups and device callbacks
 * in one heap, each CPU's next scheduling event in a second heap of CPUs, both ordered by
 * (time, sequence number) from one counter, so the order of events is total and the same on
 * every run. */
#include "sim/sched_impl.h"
#include "sim/xalloc.h"

/* ---- timer and callback events ---- */

static bool ev_less(const struct event *a, const struct event *b)
{
	return before(a->time, a->seq, b->time, b->seq);
}

void ev_push(struct event e)
{
	if (sched.nr == sched.cap) {
		sched.cap = sched.cap ? sched.cap * 2 : 1024;
		sched.heap = xrealloc(sched.heap, sched.cap * sizeof(*sched.heap));
	}
	e.seq = sched.seq++;
	size_t i = sched.nr++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!ev_less(&e, &sched.heap[p]))
			break;
		sched.heap[i] = sched.heap[p];
		i = p;
	}
	sched.heap[i] = e;
}

struct event ev_pop(void)
{
	struct event top = sched.heap[0];
	struct event last = sched.heap[--sched.nr];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct event *mv = &last;
		if (l < sched.nr && ev_less(&sched.heap[l], mv)) {
			m = l;
			mv = &sched.heap[l];
		}
		if (r < sched.nr && ev_less(&sched.heap[r], mv))
			m = r;
		if (m == i)
			break;
		sched.heap[i] = sched.heap[m];
		i = m;
	}
	if (sched.nr)
		sched.heap[i] = last;
	return top;
}

void sched_callback_at(sim_time_t when, void (*fn)(void *, uint64_t), void *arg, uint64_t arg2)
{
	ev_push(
	    (struct event){.time = when, .kind = EV_CALLBACK, .fn = fn, .ptr = arg, .arg = arg2});
}

/* ---- CPU events: the next time each CPU's scheduler runs ---- */

static bool cpu_ev_less(const struct cpu_event *a, const struct cpu_event *b)
{
	return before(a->time, a->seq, b->time, b->seq);
}

/* CPU c's event is due at when: it takes the next sequence number from the events'
 * counter (the order is that of one queue). */
static struct cpu_event cpu_event_set(int c, sim_time_t when)
{
	struct cpu *cp = &sched.cpus[c];
	cp->event_pending = true;
	cp->ev_time = when;
	cp->ev_seq = sched.seq++;
	return (struct cpu_event){.time = when, .seq = cp->ev_seq, .cpu = c};
}

static void cpu_heap_push(struct cpu_event e)
{
	int i = sched.nr_cpu_events++;
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!cpu_ev_less(&e, &sched.cpu_heap[p]))
			break;
		sched.cpu_heap[i] = sched.cpu_heap[p];
		i = p;
	}
	sched.cpu_heap[i] = e;
}

void cpu_kick(int c, sim_time_t when)
{
	if (sched.cpus[c].event_pending)
		return;
	cpu_heap_push(cpu_event_set(c, when));
}

/* The top entry leaves; e (the last entry, or a new one) sifts down from the top. */
static void cpu_heap_sift_top(struct cpu_event e)
{
	int i = 0, n = sched.nr_cpu_events;
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		const struct cpu_event *mv = &e;
		if (l < n && cpu_ev_less(&sched.cpu_heap[l], mv)) {
			m = l;
			mv = &sched.cpu_heap[l];
		}
		if (r < n && cpu_ev_less(&sched.cpu_heap[r], mv))
			m = r;
		if (m == i)
			break;
		sched.cpu_heap[i] = sched.cpu_heap[m];
		i = m;
	}
	if (n)
		sched.cpu_heap[i] = e;
}

static int cpu_event_pop(void)
{
	int top = sched.cpu_heap[0].cpu;
	struct cpu_event last = sched.cpu_heap[--sched.nr_cpu_events];
	cpu_heap_sift_top(last);
	sched.cpus[top].event_pending = false;
	return top;
}

/* ---- the loop ---- */

static void run_event(struct event e)
{
	switch (e.kind) {
	case EV_WAKE:
		run_wake_event(e.ptr, e.arg);
		break;
	case EV_CALLBACK:
		e.fn(e.ptr, e.arg);
		break;
	}
}

void sched_set_observer(void (*fn)(sim_time_t when), sim_time_t every)
{
	sched.observe = every ? fn : NULL;
	sched.observe_every = every;
	sched.observe_next = 0;
}

/* State only changes at events, so what holds just before the first event due at or after
 * a multiple of the interval is the state at that instant. */
static void observe_until(sim_time_t t)
{
	sim_time_t saved = sim_clock;
	while (sched.observe_next <= t) {
		sim_clock = sched.observe_next;
		sched.observe(sched.observe_next);
		sched.observe_next += sched.observe_every;
	}
	sim_clock = saved;
}

/* A task that gives up its CPU takes sched_run's next step itself when that step is to run
 * a CPU's task and the loop has nothing to do before it (no check hook, keep_going true, not
 * stopped, the time limit and the observer not reached): it switches straight to that task,
 * or goes on if that is itself, in the order and with the accounting of sched_run's loop.
 * A yielding task's own CPU event (mine) goes in and the earliest comes out in one pass over
 * the heap. False, with mine queued and nothing else done, when the scheduler must take
 * over (sim_current is then NULL). */
static bool step_direct(struct task *self, const struct cpu_event *mine)
{
	bool first = mine && (!sched.nr_cpu_events || cpu_ev_less(mine, &sched.cpu_heap[0]));
	const struct cpu_event *next = first		     ? mine
				       : sched.nr_cpu_events ? &sched.cpu_heap[0]
							     : NULL;
	sim_current = NULL; /* keep_going runs between events, as in sched_run */
	if (!next || sched.check || sched.stop || !sched.cpus[next->cpu].curr ||
	    next->time > sched.until ||
	    (sched.nr && !before(next->time, next->seq, sched.heap[0].time, sched.heap[0].seq)) ||
	    (sched.observe && next->time >= sched.observe_next) ||
	    (sched.keep_going && !sched.keep_going())) {
		if (mine)
			cpu_heap_push(*mine);
		return false;
	}
	sim_clock = next->time;
	sched.stats.events++;
	int c;
	if (first) {
		c = mine->cpu;
		sched.cpus[c].event_pending = false;
	} else if (mine) {
		c = next->cpu;
		cpu_heap_sift_top(*mine);
		sched.cpus[c].event_pending = false;
	} else {
		c = cpu_event_pop();
	}
	struct task *t = cpu_dispatch(c);
	if (!t) { /* the CPU went idle: self moved to another one (sched_exec) */
		sched.switched_back = NULL;
		coro_switch(&self->co, &sched.sched_ctx, 0);
	} else if (t != self) {
		coro_switch(&self->co, &t->co, 0);
	}
	return true;
}

/* yield_cpu's switch: its CPU's next event at when (cpu_kick), then the next step. Not
 * sched_yield: that is libc's (LeakSanitizer calls it), and a definition here would take
 * its place. */
void sched_yield_cpu(sim_time_t when)
{
	struct task *self = sim_current;
	if (sched.cpus[self->cpu].event_pending) { /* cpu_kick keeps the event queued */
		switch_to_sched(0);
		return;
	}
	struct cpu_event mine = cpu_event_set(self->cpu, when);
	if (!step_direct(self, &mine)) {
		sim_current = self;
		switch_to_sched(0);
	}
}

/* A task blocks (its state set): what run_on_cpu does once it has switched back (its CPU to
 * the next queued task), then the next step. */
void sched_block(void)
{
	struct task *self = sim_current;
	cpu_release(self->cpu, self);
	if (!step_direct(self, NULL)) {
		sched.switched_back = NULL; /* nothing left for run_on_cpu to finish */
		coro_switch(&self->co, &sched.sched_ctx, 0);
	}
}

sim_time_t sched_run(sim_time_t until, bool (*keep_going)(void))
{
	sched.stop = false;
	sched.until = until;
	sched.keep_going = keep_going;
	while ((sched.nr || sched.nr_cpu_events) && !sched.stop) {
		const struct cpu_event *cp = sched.nr_cpu_events ? &sched.cpu_heap[0] : NULL;
		bool cpu_first = cp && (!sched.nr || before(cp->time, cp->seq, sched.heap[0].time,
							    sched.heap[0].seq));
		sim_time_t due = cpu_first ? cp->time : sched.heap[0].time;
		if (due > until) {
			if (sched.observe)
				observe_until(until);
			sim_clock = until;
			break;
		}
		if (sched.observe && due >= sched.observe_next)
			observe_until(due);
		sim_clock = due;
		sched.stats.events++;
		if (cpu_first)
			run_on_cpu(cpu_event_pop());
		else
			run_event(ev_pop());
		if (sched.check && ++sched.check_count >= sched.check_every) {
			sched.check_count = 0;
			sched.check();
		}
		if (keep_going && !keep_going())
			break;
	}
	return sim_clock;
}

void sched_set_check_hook(void (*fn)(void), uint64_t every)
{
	sched.check = fn;
	sched.check_every = every ? every : 1;
	sched.check_count = 0;
}

void sched_request_stop(void)
{
	sched.stop = true;
}
