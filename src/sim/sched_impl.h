/* The scheduler's private state, shared by the files of src/sim that implement sched.h: the
 * event queue (event.c), the CFS run queue and CPUs (sched_fair.c), tasks and their CPU time
 * (task.c) and wait queues (wait.c). Nothing outside src/sim includes this. */
#ifndef MMSIM_SIM_SCHED_IMPL_H
#define MMSIM_SIM_SCHED_IMPL_H

#include "sim/sched.h"

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
	bool event_pending; /* an event for this CPU is due at (ev_time, ev_seq) */
	sim_time_t ev_time;
	uint64_t ev_seq;
	bool need_resched; /* a woken task should preempt curr at its next yield point */
	/* cfs_rq->next and cfs_rq->last of this CPU's run queue (the wakeup buddies,
	 * kernel.sched_buddies): queued tasks, or (2.6.28) the task running here */
	struct task *next_buddy, *last_buddy;
	sim_time_t tick_phase;	 /* this CPU's timer interrupts come at phase + k * jiffy */
	uint64_t active_context; /* the memory context it last switched to (rq->prev_mm) */
};

struct rq_entry {
	sim_time_t vruntime;
	uint64_t seq; /* ties in vruntime go first come, first served */
	struct task *task;
};

#define O1_MAX_PRIO 140

struct o1_array {
	struct task *head[O1_MAX_PRIO], *tail[O1_MAX_PRIO];
	uint64_t bitmap[(O1_MAX_PRIO + 63) / 64];
	int nr_active;
};

/* One CPU's runqueue of 2.6.8 (runqueue_t) with the balancing state of its one
 * sched_domain (SD_CPU_INIT spanning every CPU: arch_init_sched_domains without NUMA or SMT).
 * The running task is not in the arrays (the kernel keeps it in its list; the model puts it
 * back where it was when it leaves the CPU still runnable). */
struct o1_rq {
	struct o1_array arrays[2];
	uint32_t active_epoch; /* the active array is arrays[epoch & 1] */
	int nr_queued;	       /* tasks in the two arrays */
	bool expired_since;    /* rq->expired_timestamp != 0 */
	uint64_t expired_timestamp;
	int best_expired_prio;
	uint64_t cpu_load;	   /* rebalance_tick's average of nr_running x SCHED_LOAD_SCALE */
	uint64_t load_jiffy;	   /* the jiffy cpu_load has been brought up to */
	uint64_t last_balance;	   /* sd->last_balance, in jiffies + CPU_OFFSET */
	unsigned balance_interval; /* sd->balance_interval, ms */
	unsigned nr_balance_failed;
	uint64_t idle_gen; /* invalidates an idle CPU's pending rebalance_tick */
	bool idle_armed;   /* an idle rebalance_tick is pending */
	bool in_schedule;  /* its CPU is in schedule(), choosing its next task */
};

struct sched_state {
	struct event *heap;
	size_t nr, cap;
	uint64_t seq;
	/* CPUs with event_pending, a min-heap on (ev_time, ev_seq), the keys inline: each CPU
	 * has at most one event, and most events are these, so they stay out of the general
	 * heap */
	struct cpu_event {
		sim_time_t time;
		uint64_t seq;
		int cpu;
	} * cpu_heap;
	int nr_cpu_events;
	struct cpu *cpus;
	int ncpus;
	int nr_idle; /* CPUs with no curr */
	/* runnable tasks waiting for a CPU: a min-heap on (vruntime, seq). A buddy taken from
	 * inside it leaves its entry behind, stale (seq no longer the task's rq_seq), until the
	 * entry reaches the top; the top entry is never stale. */
	struct rq_entry *rq;
	int nr_rq, rq_cap;
	int nr_stale;	    /* stale entries among the nr_rq */
	uint64_t rq_weight; /* sum of the queued tasks' weights */
	uint64_t rq_seq;
	sim_time_t min_vruntime;
	sim_time_t sched_latency, wakeup_gran;
	int gran_factor;    /* sched_init_granularity's 1 + ilog2(CPUs) */
	int nr_latency;	    /* sched_nr_latency: latency / minimum granularity at boot */
	bool cfs30;	    /* 3.0's sched_fair.c rules (sched_set_cfs_30) */
	bool adaptive_gran; /* 2.6.30-2.6.33's wakeup_gran (sched_set_adaptive_gran) */
	bool normalized_sleeper;
	bool min_vruntime_leftmost; /* min_vruntime follows the leftmost alone */
	enum sched_buddies buddies;
	bool asym_gran; /* the wakeup granularity scaled only for weights above nice 0's */
	sim_time_t slice, ctxsw, switch_mm;
	sim_time_t tick_cost;
	bool jiffy_clock; /* sched_clock() counts jiffies: CFS accounts time at the ticks */
	struct coro sched_ctx;
	/* the task that last switched to sched_ctx, NULL if it left nothing to finish: tasks
	 * hand their CPUs to each other directly (event.c's step_direct), so it need not be
	 * the one sched_ctx switched to */
	struct task *switched_back;
	/* sched_run's arguments, for the steps tasks take themselves */
	sim_time_t until;
	bool (*keep_going)(void);
	struct task *all_head, *all_tail;
	int next_pid;
	bool stop;
	void (*check)(void);
	uint64_t check_every, check_count;
	void (*observe)(sim_time_t when); /* a monitor reading state at fixed times */
	sim_time_t observe_every, observe_next;
	struct sched_stats stats;
	/* the O(1) scheduler (sched_o1.c, sched_o1_balance.c): one runqueue per CPU */
	bool o1;
	struct o1_rq *o1_rqs;
};

extern struct sched_state sched;

/* The order of everything that happens: time, then the order it was queued in. */
static inline bool before(sim_time_t ta, uint64_t sa, sim_time_t tb, uint64_t sb)
{
	return ta < tb || (ta == tb && sa < sb);
}

/* event.c */
void ev_push(struct event e);
struct event ev_pop(void);
void cpu_kick(int c, sim_time_t when);
void sched_yield_cpu(sim_time_t when);
void sched_block(void);

/* sched_fair.c */
void make_runnable_as(struct task *t, bool wakeup);
struct task *cpu_dispatch(int c);
void cpu_release(int c, struct task *t);
void cfs_slice_used_up(struct task *t);
void cfs_note_wakeup(struct task *waker);
sim_time_t cfs_catch_up_after(const struct task *t, sim_time_t used);
void run_on_cpu(int c);
void set_curr(int c, struct task *t);
void set_need_resched(int c, bool on);
sim_time_t vdelta(const struct task *t, sim_time_t ns);
sim_time_t task_slice(const struct task *t);

/* sched_o1.c: the O(1) scheduler's side of sched_fair.c's entry points */
void o1_task_init(struct task *t);
int o1_nr_queued(void);
void o1_set_nice(struct task *t, int nice);
void o1_make_runnable(struct task *t, bool wakeup);
void o1_task_start(struct task *parent, struct task *child);
struct task *o1_pick_next(int c, struct task *t);
void o1_cpu_release(int c, struct task *t);
void o1_ticks(struct task *t, uint64_t ticks);

/* sched_o1.c, for sched_o1_balance.c: a CPU's runqueue, its queued tasks and their arrays */
int o1_nr_running(int c);
void o1_load_sync(int c);
int o1_move_tasks(int busiest, int this_cpu, unsigned long max_nr_move, bool check_hot);
void o1_activate_on(struct task *p, int c, bool preempt);
struct task *o1_pick_first(int c);
uint64_t o1_jiffies(void);

/* sched_o1_balance.c: 2.6.8's SMP balancing (kernel/sched.c) */
int o1_wake_cpu(struct task *p, int cpu, int this_cpu);
int o1_fork_cpu(void);
void o1_idle_balance(int c);
void o1_rebalance_busy(int c, uint64_t ticks);
void o1_idle_arm(int c);
void o1_maybe_arm_idle(int c);
int o1_exec_cpu(int c);
int o1_check(void); /* the tasks queued, or -1 (sched_check_invariants) */

static inline struct o1_rq *o1_rq_of(int c)
{
	return &sched.o1_rqs[c];
}
/* task_hot: run or woken within SD_CPU_INIT's cache_hot_time (2.5 ms) */
static inline bool o1_task_hot(const struct task *p, sim_time_t now)
{
	return now <= p->timestamp || now - p->timestamp < 2500 * NSEC_PER_USEC;
}

/* task.c */
void switch_to_sched(int finishing);
void yield_cpu(bool force);
uint64_t ticks_between(int c, sim_time_t from, sim_time_t to);
sim_time_t pending_charge(const struct task *t);
void flush_pending(void);

/* wait.c */
void wq_remove(struct waitqueue *wq, struct task *t);
void run_wake_event(struct task *t, uint64_t gen);

#endif
