/* CFS on N CPUs sharing one run queue (sched_fair.c of 2.6.24-2.6.28): tasks ordered by
 * virtual runtime, the sleeper credit of place_entity, START_DEBIT and child-runs-first for
 * new tasks, wakeup preemption with the wakeup granularity, the wakeup buddies, and what a
 * CPU does when its scheduling event comes (put_prev_task / pick_next_task and the context
 * switch). */
#include "sim/sched_impl.h"
#include "sim/xalloc.h"

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
	if (sched.nr_rq == sched.rq_cap) {
		sched.rq_cap = sched.rq_cap ? sched.rq_cap * 2 : 64;
		sched.rq = xrealloc(sched.rq, (size_t)sched.rq_cap * sizeof(*sched.rq));
	}
	struct rq_entry e = {.vruntime = t->vruntime, .seq = sched.rq_seq++, .task = t};
	t->rq_seq = e.seq;
	sched.rq_weight += t->weight;
	int i = sched.nr_rq++;
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!rq_less(&e, &sched.rq[p]))
			break;
		sched.rq[i] = sched.rq[p];
		i = p;
	}
	sched.rq[i] = e;
	/* __enqueue_entity, 2.6.25-rc6..2.6.27: a new leftmost raises min_vruntime to it */
	if (i == 0 && sched.min_vruntime_leftmost && e.vruntime > sched.min_vruntime)
		sched.min_vruntime = e.vruntime;
}

/* Removes the top entry, stale or not. */
static void rq_remove_top(void)
{
	struct rq_entry last = sched.rq[--sched.nr_rq];
	int i = 0;
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		const struct rq_entry *mv = &last;
		if (l < sched.nr_rq && rq_less(&sched.rq[l], mv)) {
			m = l;
			mv = &sched.rq[l];
		}
		if (r < sched.nr_rq && rq_less(&sched.rq[r], mv))
			m = r;
		if (m == i)
			break;
		sched.rq[i] = sched.rq[m];
		i = m;
	}
	if (sched.nr_rq)
		sched.rq[i] = last;
}

static bool rq_stale(const struct rq_entry *e)
{
	return e->seq != e->task->rq_seq;
}

/* Tasks queued (stale entries left out). */
static int rq_nr_queued(void)
{
	return sched.nr_rq - sched.nr_stale;
}

/* The leftmost task (__pick_next_entity), NULL if none is queued. */
static struct task *rq_first(void)
{
	return rq_nr_queued() ? sched.rq[0].task : NULL;
}

/* Takes queued task t out of the run queue: the top entry is removed, any other is left
 * stale (O(1): a buddy is taken from inside the heap); stale entries that come to the top
 * go, so the top stays a queued task. */
static void rq_take(struct task *t)
{
	sched.rq_weight -= t->weight;
	bool leftmost = sched.rq[0].task == t && !rq_stale(&sched.rq[0]);
	if (leftmost) {
		rq_remove_top();
	} else {
		t->rq_seq = UINT64_MAX; /* no entry has that seq */
		sched.nr_stale++;
	}
	while (sched.nr_rq && rq_stale(&sched.rq[0])) {
		rq_remove_top();
		sched.nr_stale--;
	}
	/* __dequeue_entity, 2.6.25-rc6..2.6.27: the leftmost leaving raises min_vruntime to
	 * the next one */
	if (leftmost && sched.min_vruntime_leftmost && rq_nr_queued() &&
	    sched.rq[0].vruntime > sched.min_vruntime)
		sched.min_vruntime = sched.rq[0].vruntime;
}

void set_need_resched(int c, bool on)
{
	sim_nr_need_resched += on - sched.cpus[c].need_resched;
	sched.cpus[c].need_resched = on;
}

void set_curr(int c, struct task *t)
{
	sched.nr_idle += (t == NULL) - (sched.cpus[c].curr == NULL);
	sched.cpus[c].curr = t;
}

/* The run queue's min_vruntime: monotonic, following the least vruntime among the tasks
 * on a CPU or waiting for one (__update_curr, 2.6.24-2.6.25-rc5; update_min_vruntime,
 * 2.6.28: min of curr and the leftmost; the running task's vruntime as update_curr brings
 * it up to date, its pending time included). 2.6.25-rc6..2.6.27 follow the leftmost alone
 * (3fe69747dab "sched: min_vruntime fix"): rq_push and rq_take keep it then. */
static void update_min_vruntime(void)
{
	if (sched.min_vruntime_leftmost)
		return;
	sim_time_t m = UINT64_MAX;
	for (int c = 0; c < sched.ncpus; c++) {
		const struct task *curr = sched.cpus[c].curr;
		if (!curr)
			continue;
		sim_time_t v =
		    curr->vruntime + (curr == sim_current ? vdelta(curr, pending_charge(curr)) : 0);
		if (v < m)
			m = v;
	}
	if (rq_nr_queued() && sched.rq[0].vruntime < m)
		m = sched.rq[0].vruntime;
	if (m != UINT64_MAX && m > sched.min_vruntime)
		sched.min_vruntime = m;
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
	if (sched.o1)
		o1_set_nice(t, nice);
	uint32_t w = prio_to_weight[nice + 20];
	if (t->state == TASK_RUNNABLE && t->cpu < 0)
		sched.rq_weight = sched.rq_weight - t->weight + w; /* queued: keep the sum */
	t->weight = w;
}

/* calc_delta_fair: ns of CPU as virtual runtime */
sim_time_t vdelta(const struct task *t, sim_time_t ns)
{
	return t->weight == NICE_0_LOAD ? ns : ns * NICE_0_LOAD / t->weight;
}

/* __sched_period (2.6.25-rc1 .. 3.0): the period in which each of nr_running tasks runs
 * once, sched_latency, stretched to the minimum granularity per task past sched_nr_latency
 * tasks (2.6.24's sched_latency x nr / sched_nr_latency is the same with these values).
 * sched_nr_latency is latency / granularity before the CPU-count scaling, which leaves it
 * as it is: 5 (20 / 4 ms), 8 in 3.0 (6 / 0.75 ms). */
static sim_time_t sched_period(uint64_t nr_running)
{
	return nr_running > (uint64_t)sched.nr_latency ? sched.slice * nr_running
						       : sched.sched_latency;
}

/* cfs_rq->nr_running and cfs_rq->load of the run queue of a CPU with a task running: that
 * task and the queued ones. One run queue for all CPUs here: the queued tasks shared out
 * evenly (docs/model.md); on one CPU exactly the kernel's. */
static void cfs_rq_share(const struct task *running, uint64_t *nr, uint64_t *load)
{
	uint64_t n = (uint64_t)sched.ncpus;
	*nr = 1 + (uint64_t)rq_nr_queued() / n;
	*load = running->weight + sched.rq_weight / n;
}

/* sched_slice (check_preempt_tick's ideal_runtime) of a running task: its weight's share
 * of the period, period x weight / cfs_rq->load, the task itself on the run queue */
sim_time_t task_slice(const struct task *t)
{
	uint64_t nr, load;
	cfs_rq_share(t, &nr, &load);
	return sched_period(nr) * t->weight / load;
}

/* sched_vslice_add (task_new_fair's START_DEBIT, 2.6.24-2.6.27): the virtual slice of the
 * run queue with the new task added, __sched_period(nr_running + 1) x NICE_0_LOAD /
 * (cfs_rq->load + its weight). parent: the task running on the CPU the child starts on,
 * NULL if none. */
static sim_time_t start_debit(const struct task *parent, const struct task *child)
{
	uint64_t nr = 0, load = 0;
	if (parent)
		cfs_rq_share(parent, &nr, &load);
	return sched_period(nr + 1) * NICE_0_LOAD / (load + child->weight);
}

/* The wakeup granularity wakeup_preempt_entity(curr, se) allows curr over se, in virtual
 * time (wakeup_gran, 2.6.26; inline in check_preempt_wakeup before): up to 2.6.28 in curr's,
 * scaled only for a task heavier than nice 0 from 2.6.25 ("More easily preempt - nice
 * tasks, while not making it harder for + nice tasks", ASYM_GRAN in 2.6.27-28), for every
 * weight but nice 0's in 2.6.24; in 3.0 always in se's, calc_delta_fair(gran, se). */
/* update_avg (kernel/sched.c, 2.6.30): an eighth of the way to the sample, the shift of a
 * signed difference rounding down */
static void update_avg(sim_time_t *avg, sim_time_t sample)
{
	int64_t diff = (int64_t)sample - (int64_t)*avg;
	*avg = (sim_time_t)((int64_t)*avg + (diff >= 0 ? diff / 8 : -((-diff + 7) / 8)));
}

/* adaptive_gran (2.6.30-2.6.33): a woken task that wakes others after short runs preempts
 * sooner: twice its mean run between wakeups, times the run queue's tasks, less what the
 * running task has run of its turn, at most the wakeup granularity */
static sim_time_t adaptive_gran(const struct task *curr, const struct task *se)
{
	sim_time_t this_run = curr->slice_used + (curr == sim_current ? pending_charge(curr) : 0);
	uint64_t nr, load;
	cfs_rq_share(curr, &nr, &load);
	sim_time_t expected = 2 * se->avg_wakeup * nr;
	sim_time_t gran = this_run < expected ? expected - this_run : 0;
	return gran < sched.wakeup_gran ? gran : sched.wakeup_gran;
}

/* try_to_wake_up's statistics of the waking task (2.6.30-2.6.33: "only attribute actual
 * wakeups done by this task"): its run since its last wakeup of a task, or since it was
 * woken itself, into avg_wakeup */
void cfs_note_wakeup(struct task *w)
{
	if (!sched.adaptive_gran || sched.o1)
		return;
	sim_time_t sum = w->utime + w->stime;
	update_avg(&w->avg_wakeup, sum - (w->last_wakeup ? w->last_wakeup : w->start_runtime));
	w->last_wakeup = sum;
}

static sim_time_t wakeup_gran_at(const struct task *curr, const struct task *se, bool at_wakeup)
{
	if (sched.cfs30)
		return vdelta(se, sched.wakeup_gran);
	/* 2.6.30-2.6.33: ADAPTIVE_GRAN while curr runs (check_preempt_wakeup; a pick has put
	 * its task back, cfs_rq->curr NULL), then ASYM_GRAN in se's weight */
	if (sched.adaptive_gran)
		return vdelta(se, at_wakeup ? adaptive_gran(curr, se) : sched.wakeup_gran);
	if (curr->weight == NICE_0_LOAD || (sched.asym_gran && curr->weight < NICE_0_LOAD))
		return sched.wakeup_gran;
	return vdelta(curr, sched.wakeup_gran);
}

static sim_time_t wakeup_gran(const struct task *curr, const struct task *se)
{
	return wakeup_gran_at(curr, se, false);
}

static void set_next_buddy(int c, struct task *t)
{
	if (t->next_of)
		sched.cpus[t->next_of - 1].next_buddy = NULL;
	if (sched.cpus[c].next_buddy)
		sched.cpus[c].next_buddy->next_of = 0;
	sched.cpus[c].next_buddy = t;
	t->next_of = (short)(c + 1);
}

static void set_last_buddy(int c, struct task *t)
{
	if (t->last_of)
		sched.cpus[t->last_of - 1].last_buddy = NULL;
	if (sched.cpus[c].last_buddy)
		sched.cpus[c].last_buddy->last_of = 0;
	sched.cpus[c].last_buddy = t;
	t->last_of = (short)(c + 1);
}

/* clear_buddies (2.6.28; __dequeue_entity's cfs_rq->next test in 2.6.25-2.6.27): t leaves
 * its run queue, or (keep_cpu >= 0) is picked on CPU keep_cpu, where 2.6.28 keeps it: a
 * buddy of another CPU picked here is a migrated task, which dequeue_entity clears. */
static void clear_buddies(struct task *t, int keep_cpu)
{
	bool keep = sched.buddies == SCHED_BUDDIES_2628 && keep_cpu >= 0;
	if (t->next_of && !(keep && t->next_of == keep_cpu + 1)) {
		sched.cpus[t->next_of - 1].next_buddy = NULL;
		t->next_of = 0;
	}
	if (t->last_of && !(keep && t->last_of == keep_cpu + 1)) {
		sched.cpus[t->last_of - 1].last_buddy = NULL;
		t->last_of = 0;
	}
}

/* check_preempt_wakeup: the woken task preempts the CPU whose task is furthest ahead in
 * virtual runtime, if that lead exceeds the wakeup granularity. The preemption happens at
 * that task's next yield point (the end of its quantum or of its system call). With
 * buddies the woken task becomes that CPU's next buddy whether or not it preempts (when no
 * CPU is preempted: the CPU whose task is furthest ahead), and in 2.6.28 that CPU's task
 * its last buddy. */
static void check_preempt_wakeup(struct task *t)
{
	int best = -1, ahead = -1;
	sim_time_t lead = 0, ahead_v = 0;
	for (int c = 0; c < sched.ncpus; c++) {
		struct task *curr = sched.cpus[c].curr;
		if (!curr)
			continue;
		sim_time_t v =
		    curr->vruntime + (curr == sim_current ? vdelta(curr, pending_charge(curr)) : 0);
		if (ahead < 0 || v > ahead_v) {
			ahead = c;
			ahead_v = v;
		}
		sim_time_t gran = wakeup_gran_at(curr, t, true);
		if (v > t->vruntime + gran && v - t->vruntime > lead) {
			lead = v - t->vruntime;
			best = c;
		}
	}
	if (sched.buddies == SCHED_BUDDIES_30) {
		/* 3.0: with NEXT_BUDDY off only a preempting wakeup marks buddies: the woken task
		 * next, and (when the run queue holds sched_nr_latency tasks or more) the
		 * preempted one last */
		if (best < 0)
			return;
		struct task *curr = sched.cpus[best].curr;
		uint64_t nr, load;
		cfs_rq_share(curr, &nr, &load);
		set_next_buddy(best, t);
		if (nr >= (uint64_t)sched.nr_latency && curr->state == TASK_RUNNING)
			set_last_buddy(best, curr);
		set_need_resched(best, true);
		return;
	}
	int c = best >= 0 ? best : ahead;
	if (c >= 0 && sched.buddies != SCHED_BUDDIES_NONE) {
		struct task *curr = sched.cpus[c].curr;
		/* LAST_BUDDY: only while curr is on the run queue (se->on_rq): here a task
		 * that is running, not one that blocked or died and is leaving its CPU */
		if (sched.buddies == SCHED_BUDDIES_2628 && curr->state == TASK_RUNNING)
			set_last_buddy(c, curr);
		set_next_buddy(c, t);
	}
	if (best >= 0)
		set_need_resched(best, true);
}

/* cfs_rq->load as place_entity sees it: the queued tasks, the running ones, and the waking
 * task itself (2.6.25's enqueue_entity accounts it first; 2.6.24's after, which with
 * hundreds of tasks queued differs by well under 1 %). One run queue for all CPUs here, so
 * on more than one CPU this is the machine's load, not one CPU's. */
static uint64_t rq_load(const struct task *waking)
{
	uint64_t load = waking->weight + sched.rq_weight;
	for (int c = 0; c < sched.ncpus; c++)
		if (sched.cpus[c].curr)
			load += sched.cpus[c].curr->weight;
	return load;
}

void sched_set_normalized_sleeper(bool on)
{
	sched.normalized_sleeper = on;
}

void sched_set_min_vruntime_leftmost(bool on)
{
	sched.min_vruntime_leftmost = on;
}

/* 3.0's tunables (kernel/sched_fair.c: sysctl_sched_latency 6 ms, min_granularity 0.75 ms,
 * sched_nr_latency 8) and update_sysctl's SCHED_TUNABLESCALING_LOG factor, 1 + ilog2 of the
 * CPUs counted up to 8, without 2.6.2x's 200 ms cap (kernel/sched.c, 3.0) */
void sched_set_cfs_30(bool on)
{
	sched.cfs30 = on;
	if (!on)
		return;
	int cpus = sched.ncpus < 8 ? sched.ncpus : 8, factor = 1;
	for (int n = cpus; n > 1; n >>= 1)
		factor++;
	sched.gran_factor = factor;
	sched.sched_latency = 6 * NSEC_PER_MSEC * (sim_time_t)factor;
	sched.slice = 750 * NSEC_PER_USEC * (sim_time_t)factor;
	sched.nr_latency = 8;
}

void sched_set_adaptive_gran(bool on)
{
	sched.adaptive_gran = on;
}

void sched_set_wakeup_rules(enum sched_buddies buddies, sim_time_t wakeup_gran_ns, bool asym_gran)
{
	sched.buddies = buddies;
	sched.wakeup_gran = wakeup_gran_ns * (sim_time_t)sched.gran_factor;
	sched.asym_gran = asym_gran;
}

/* A task becomes runnable now: give it an idle CPU or queue it. A task woken from a sleep
 * is placed at most one scheduling latency behind min_vruntime (the sleeper credit of
 * place_entity); a new task starts one slice after it (START_DEBIT), so a fork storm
 * cannot starve the tasks already queued. */
void make_runnable_as(struct task *t, bool wakeup)
{
	if (sched.o1) {
		o1_make_runnable(t, wakeup);
		return;
	}
	t->state = TASK_RUNNABLE;
	update_min_vruntime();
	if (wakeup && sched.adaptive_gran)
		t->start_runtime = t->utime + t->stime; /* enqueue_task's se.start_runtime */
	if (wakeup) {
		sim_time_t floor = sched.min_vruntime, credit = sched.sched_latency;
		if (sched.cfs30) /* GENTLE_FAIR_SLEEPERS (2.6.32 on): half the latency */
			credit /= 2;
		if (sched.normalized_sleeper)
			credit = credit * NICE_0_LOAD / rq_load(t);
		floor = floor > credit ? floor - credit : 0;
		if (t->vruntime < floor)
			t->vruntime = floor;
	}
	for (int c = 0; sched.nr_idle && c < sched.ncpus; c++) {
		if (!sched.cpus[c].curr) {
			set_curr(c, t);
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

static void cfs_task_new(struct task *parent_task, struct task *t);

/* A new task joins the run queue by the scheduler's fork rules (task_new_fair's, or 2.6.8's
 * sched_fork and wake_up_forked_process), at its parent's local time. */
void task_start(struct task *t)
{
	struct task *parent_task = sim_current;
	if (sched.o1)
		o1_task_start(parent_task && parent_task->cpu >= 0 ? parent_task : NULL, t);
	else
		cfs_task_new(parent_task, t);
	t->wake_gen++;
	if (parent_task && parent_task->pending)
		ev_push((struct event){
		    .time = local_now(), .kind = EV_WAKE, .ptr = t, .arg = t->wake_gen});
	else
		make_runnable_as(t, false);
}

/* task_new_fair: a new task starts one slice after min_vruntime (START_DEBIT); with
 * child-runs-first (the 2.6.2x default), a child that would start behind its parent takes the
 * parent's place instead, and the parent is asked to give it the CPU. */
static void cfs_task_new(struct task *parent_task, struct task *t)
{
	update_min_vruntime();
	t->avg_wakeup = sched.wakeup_gran; /* __sched_fork: sysctl_sched_wakeup_granularity */
	t->last_wakeup = t->start_runtime = 0;
	bool on_cpu = parent_task && parent_task->cpu >= 0;
	sim_time_t child = sched.min_vruntime + start_debit(on_cpu ? parent_task : NULL, t);
	if (sched.cfs30 && on_cpu) {
		/* task_fork_fair (3.0): the child starts from its parent's vruntime, no earlier
		 * than min_vruntime + sched_vslice; sysctl_sched_child_runs_first is 0 (2.6.32
		 * on), so the parent keeps its place and its CPU */
		sim_time_t parent =
		    parent_task->vruntime + vdelta(parent_task, pending_charge(parent_task));
		t->vruntime = parent > child ? parent : child;
		return;
	}
	if (t->vruntime > child)
		child = t->vruntime;
	t->vruntime = child;
	if (sched.cfs30)
		return;
	if (on_cpu) {
		sim_time_t parent =
		    parent_task->vruntime + vdelta(parent_task, pending_charge(parent_task));
		if (parent < child) {
			t->vruntime = parent;
			parent_task->vruntime =
			    child - vdelta(parent_task, pending_charge(parent_task));
		}
		set_need_resched(parent_task->cpu, true);
	}
}

/* check_preempt_tick's two rules for a running task t. Its slice (sched_slice) used up: in
 * 3.0 that clears its buddies, so a buddy favour cannot re-elect it (cfs_slice_used_up).
 * 3.0's catch-up (f685ceaca "sched: Strengthen buddies and mitigate buddy induced
 * latencies", 2.6.33): once it has run the minimum granularity of its turn, it gives way when
 * it is more than its slice ahead of the leftmost queued task. cfs_catch_up_after: how much
 * more CPU t, having run used of its turn, runs before that holds (0: it holds now;
 * UINT64_MAX: not in 3.0, or nothing queued). */
void cfs_slice_used_up(struct task *t)
{
	if (sched.cfs30)
		clear_buddies(t, -1);
}

sim_time_t cfs_catch_up_after(const struct task *t, sim_time_t used)
{
	if (!sched.cfs30)
		return UINT64_MAX;
	uint64_t nr, load;
	cfs_rq_share(t, &nr, &load);
	const struct task *left = rq_first();
	if (nr <= 1 || !left)
		return UINT64_MAX;
	sim_time_t ideal = task_slice(t);
	sim_time_t after_gran = used < sched.slice ? sched.slice - used : 0, after_lead = 0;
	if (t->vruntime <= left->vruntime + ideal) {
		sim_time_t need = left->vruntime + ideal - t->vruntime + 1; /* virtual ns */
		after_lead = t->weight == NICE_0_LOAD
				 ? need
				 : (need * t->weight + NICE_0_LOAD - 1) / NICE_0_LOAD;
	}
	return after_gran > after_lead ? after_gran : after_lead;
}

/* Without timer ticks the rules are looked at when t yields. */
static bool preempt_at_yield(struct task *t)
{
	if (t->slice_used >= task_slice(t)) {
		cfs_slice_used_up(t);
		return true;
	}
	return cfs_catch_up_after(t, t->slice_used) == 0;
}

/* cfs_rq->load of CPU c's run queue as pick_next_task sees it (the previous task put
 * back when it stays runnable). One run queue for all CPUs here: its load, with the other
 * CPUs' running tasks, shared out evenly (docs/model.md). */
static uint64_t cpu_rq_load(int c)
{
	uint64_t load = sched.rq_weight;
	for (int d = 0; d < sched.ncpus; d++)
		if (d != c && sched.cpus[d].curr)
			load += sched.cpus[d].curr->weight;
	load /= (uint64_t)sched.ncpus;
	return load ? load : 1;
}

/* wakeup_preempt_entity(b, left) (2.6.26, 2.6.28): -1 if b is not ahead of the leftmost
 * task, 1 if ahead by more than b's wakeup granularity, 0 otherwise. */
static int wakeup_preempt_entity(const struct task *b, const struct task *left)
{
	if (b->vruntime <= left->vruntime)
		return -1;
	return b->vruntime - left->vruntime > wakeup_gran(b, left) ? 1 : 0;
}

/* Which queued task CPU c takes: the leftmost, or a buddy of c close enough behind it.
 * 2.6.25's pick_next: the next buddy unless it is more than the wakeup granularity scaled
 * by NICE_0_LOAD / cfs_rq->load behind; 2.6.26's: the next buddy if wakeup_preempt_entity
 * says 0; 2.6.28's pick_next_entity: the next buddy, else the last, if less than 1. */
static struct task *pick_buddy(int c, struct task *left)
{
	struct task *next = sched.cpus[c].next_buddy, *last = sched.cpus[c].last_buddy;
	switch (sched.buddies) {
	case SCHED_BUDDIES_NONE:
		break;
	case SCHED_BUDDIES_2625:
		if (next && next->vruntime >= left->vruntime &&
		    next->vruntime - left->vruntime <=
			sched.wakeup_gran * NICE_0_LOAD / cpu_rq_load(c))
			return next;
		break;
	case SCHED_BUDDIES_2626:
		if (next && wakeup_preempt_entity(next, left) == 0)
			return next;
		break;
	case SCHED_BUDDIES_2628:
	case SCHED_BUDDIES_30: /* 3.0 takes the last, then the next over it: the same choice */
		if (next && wakeup_preempt_entity(next, left) < 1)
			return next;
		if (last && wakeup_preempt_entity(last, left) < 1)
			return last;
		break;
	}
	return left;
}

/* pick_next_entity + set_next_entity: CPU c takes a queued task (NULL if none). */
static struct task *pick_next_entity(int c)
{
	struct task *left = rq_first();
	if (!left)
		return NULL;
	struct task *n = pick_buddy(c, left);
	rq_take(n);
	clear_buddies(n, c);
	return n;
}

/* put_prev_task + pick_next_task: a task that used its slice, or that a wakeup asked to
 * preempt, goes back to the run queue and the least-run task takes the CPU (not a task
 * that is catching up in sleep_on: it is about to block, and it sits on a wait queue). */
static struct task *pick_next(int c, struct task *t)
{
	bool resched = sched.cpus[c].need_resched || (!sched.tick_cost && preempt_at_yield(t));
	set_need_resched(c, false);
	if (t->state != TASK_RUNNING || t->wq || !rq_nr_queued() || !resched)
		return t;
	t->state = TASK_RUNNABLE;
	rq_push(t);
	struct task *n = pick_next_entity(c);
	if (n == t) {
		t->state = TASK_RUNNING;
		t->slice_used = 0;
		return t;
	}
	set_curr(c, n);
	n->cpu = c;
	n->slice_used = 0;
	t->cpu = -1;
	t->nivcsw++; /* schedule(): prev still TASK_RUNNING */
	return n;
}

/* CPU c's scheduling event, up to the switch: the task it runs now (pick_next, the context
 * switch's cost), made current; NULL for an idle CPU. */
struct task *cpu_dispatch(int c)
{
	struct task *t = sched.cpus[c].curr;
	if (!t)
		return NULL;
	t = sched.o1 ? o1_pick_next(c, t) : pick_next(c, t);
	if (!t)
		return NULL; /* its task moved to another CPU and nothing was left (sched_exec) */
	if (t->state == TASK_RUNNABLE && t->co.sp) {
		sched.stats.context_switches++;
		t->nr_switched_in++;
		sim_time_t cost = sched.ctxsw;
		if (t->mem_context && t->mem_context != sched.cpus[c].active_context)
			cost += sched.switch_mm;
		t->pending += cost;
		t->stime += cost;
	}
	if (t->mem_context)
		sched.cpus[c].active_context = t->mem_context;
	t->state = TASK_RUNNING;
	t->cpu = c;
	sim_current = t;
	return t;
}

/* A task that blocked or died leaves CPU c: the next queued task gets it. */
void cpu_release(int c, struct task *t)
{
	t->nvcsw++; /* schedule() with prev->state set: deactivated */
	if (sched.o1) {
		o1_cpu_release(c, t);
		return;
	}
	/* dequeue_entity's update_curr, t still cfs_rq->curr: when no task is left,
	 * min_vruntime keeps t's vruntime for the next wakeup on the idle CPU */
	update_min_vruntime();
	t->cpu = -1;
	clear_buddies(t, -1);	   /* dequeue_entity */
	if (sched.adaptive_gran) { /* dequeue_task with sleep set, 2.6.30-2.6.33 */
		if (t->last_wakeup)
			t->last_wakeup = 0; /* (its avg_overlap is not modelled) */
		else
			update_avg(&t->avg_wakeup, sched.wakeup_gran);
	}
	struct task *n = pick_next_entity(c);
	set_curr(c, n);
	if (n) {
		n->cpu = c;
		n->slice_used = 0;
		cpu_kick(c, sim_clock);
	}
}

/* CPU c's scheduling event: run its task until one of the CPUs' tasks gives control back to
 * the scheduler (tasks hand their CPUs to each other directly in between), then finish for
 * that one: a dead task's stack goes, and a task that blocked or died leaves its CPU. */
void run_on_cpu(int c)
{
	struct task *t = cpu_dispatch(c);
	if (!t)
		return;
	coro_switch(&sched.sched_ctx, &t->co, 0);
	sim_current = NULL;
	t = sched.switched_back;
	if (!t)
		return;
	if (t->state == TASK_DEAD)
		coro_destroy(&t->co);
	if (t->state == TASK_BLOCKED || t->state == TASK_DEAD)
		cpu_release(t->cpu, t);
}

int sched_nr_running(void)
{
	return (sched.o1 ? o1_nr_queued() : rq_nr_queued()) + sched.ncpus - sched.nr_idle;
}
