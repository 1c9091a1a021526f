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

static bool cpu_less(int a, int b)
{
	const struct cpu *ca = &sched.cpus[a], *cb = &sched.cpus[b];
	return before(ca->ev_time, ca->ev_seq, cb->ev_time, cb->ev_seq);
}

static void cpu_heap_set(int slot, int c)
{
	sched.cpu_heap[slot] = c;
	sched.cpus[c].ev_slot = slot;
}

void cpu_kick(int c, sim_time_t when)
{
	struct cpu *cp = &sched.cpus[c];
	if (cp->event_pending)
		return;
	/* the sequence number comes from the events' counter: the order is that of one queue */
	cp->event_pending = true;
	cp->ev_time = when;
	cp->ev_seq = sched.seq++;
	int i = sched.nr_cpu_events++;
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!cpu_less(c, sched.cpu_heap[p]))
			break;
		cpu_heap_set(i, sched.cpu_heap[p]);
		i = p;
	}
	cpu_heap_set(i, c);
}

static int cpu_event_pop(void)
{
	int top = sched.cpu_heap[0];
	int last = sched.cpu_heap[--sched.nr_cpu_events];
	int i = 0, n = sched.nr_cpu_events;
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = last;
		if (l < n && cpu_less(sched.cpu_heap[l], m))
			m = sched.cpu_heap[l];
		if (r < n && cpu_less(sched.cpu_heap[r], m))
			m = sched.cpu_heap[r];
		if (m == last)
			break;
		int slot = sched.cpus[m].ev_slot;
		cpu_heap_set(i, m);
		i = slot;
	}
	if (n)
		cpu_heap_set(i, last);
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

sim_time_t sched_run(sim_time_t until, bool (*keep_going)(void))
{
	sched.stop = false;
	while ((sched.nr || sched.nr_cpu_events) && !sched.stop) {
		const struct cpu *cp = sched.nr_cpu_events ? &sched.cpus[sched.cpu_heap[0]] : NULL;
		bool cpu_first = cp && (!sched.nr || before(cp->ev_time, cp->ev_seq,
							    sched.heap[0].time, sched.heap[0].seq));
		sim_time_t due = cpu_first ? cp->ev_time : sched.heap[0].time;
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
