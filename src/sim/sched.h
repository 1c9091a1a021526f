/* The machine's time and its CPUs: virtual clock, event queue, tasks as coroutines,
 * CFS-like scheduling on N CPUs (sched_fair.c), wait queues with timeouts, and spinlocks
 * whose waiters burn CPU.
 *
 * Time model: a running task accumulates the CPU time it consumes in `pending` and runs
 * ahead of the global clock by at most one quantum before it yields; its "local now" is
 * clock + pending. Anything another task could observe (blocking, waking, I/O submission)
 * happens at that local time, so run-ahead never reorders causes and effects by more than a
 * quantum. Ties between events at the same nanosecond are broken by a sequence number. */
#ifndef MMSIM_SIM_SCHED_H
#define MMSIM_SIM_SCHED_H

#include "sim/coro.h"
#include "sim/types.h"

struct task;

enum task_state { TASK_NEW, TASK_RUNNABLE, TASK_RUNNING, TASK_BLOCKED, TASK_DEAD };

#define NICE_0_LOAD 1024

struct waitqueue {
	struct task *head, *tail;
	unsigned nr;
};

struct task {
	struct coro co;
	int pid;
	char comm[16];
	enum task_state state;
	int cpu;		 /* CPU running it, -1 if none */
	sim_time_t pending;	 /* CPU time consumed ahead of the clock */
	sim_time_t slice_used;	 /* CPU time since it last got the CPU */
	uint64_t utime, stime;	 /* ns of CPU, user and system */
	uint64_t nr_switched_in; /* times it got a CPU back after being switched out */
	/* schedule()'s switch counts (getrusage's ru_nvcsw, ru_nivcsw): switched out asleep or
	 * dying, and switched out still runnable (preempted) */
	uint64_t nvcsw, nivcsw;
	int in_kernel;	      /* >0: CPU work counts as system time */
	uint64_t mem_context; /* the layer above's id of the memory it runs in; 0: none */
	sim_time_t start_time;
	sim_time_t exit_time;

	/* run queue or wait queue membership (a task is on at most one) */
	struct task *q_next, *q_prev;
	struct waitqueue *wq;
	bool wq_exclusive;	/* waits as prepare_to_wait_exclusive: at the tail, woken alone */
	uint64_t wake_gen;	/* invalidates stale timer wakeups */
	sim_time_t vruntime;	/* CFS virtual runtime: CPU time scaled by NICE_0_LOAD / weight */
	uint32_t weight;	/* CFS load weight of its nice level (1024 at nice 0) */
	uint64_t rq_seq;	/* the seq of its entry in the run queue while it is queued */
	short next_of, last_of; /* 1 + the CPU whose next (last) buddy it is; 0 none */
	/* ADAPTIVE_GRAN's statistics (2.6.30-2.6.33): the mean CPU time it runs before it wakes a
	 * task, the CPU time (utime + stime) at its last wakeup of one and when it was woken */
	sim_time_t avg_wakeup, last_wakeup, start_runtime;
	/* The O(1) scheduler's (kernel/sched.c, 2.6.8; sched_o1.c), used when
	 * sched_set_o1(true): priorities 100..139, nice 0 at 120 */
	int prio, static_prio;
	int time_slice; /* jiffies left of its timeslice */
	int activated;	/* -1 woken from an uninterruptible sleep, 1 by a task, 2 by an
			 * interrupt, 0 none since it last ran */
	int interactive_credit;
	bool first_time_slice; /* has not used up its first timeslice since fork */
	bool
	    sleep_uninterruptible; /* the sleep it is in (or last was in) is TASK_UNINTERRUPTIBLE */
	bool woken_by_task;	   /* the last wakeup came from a task, not an interrupt or timer */
	uint8_t o1_requeue;	   /* where it goes back when it leaves its CPU still runnable */
	uint32_t o1_epoch;	   /* which array it belongs to (sched_o1.c) */
	sim_time_t sleep_avg, timestamp;
	struct task *o1_next, *o1_prev; /* its priority list while queued */
	struct task *o1_after; /* requeue just behind this child it forked (do_fork's resched) */
	int o1_cpu;	       /* task_cpu(): the runqueue it is on, or was last on */
	int wake_cpu;	       /* the CPU its last wakeup ran on; -1: a timer, on o1_cpu */
	int o1_migrate;	       /* 1 + the CPU sched_balance_exec sends it to; 0 none */
	bool timed_out;
	bool killable_sleep; /* a fatal signal ends this sleep */
	/* A fatal signal is pending: it ends a killable sleep and keeps the task from starting
	 * one, as signal_pending_state() does for TASK_KILLABLE in schedule(). */
	bool fatal_signal;

	struct as_io_context *io_context; /* the block layer's (hw/as_iosched.h), or NULL */

	void (*fn)(void *arg);
	void *arg;
	void (*on_exit)(struct task *t); /* higher layers free what the task held */
	/* Frees the object the task is embedded in, when the machine is torn down (NULL: the
	 * owner frees it). */
	void (*release)(struct task *t);
	struct task *next_all;
};

struct spinlock {
	sim_time_t free_at; /* when the last holder lets go, in virtual time */
	uint64_t acquisitions;
	uint64_t contended;
	sim_time_t spin_ns; /* total time waiters spun */
};

struct sched_stats {
	uint64_t context_switches;
	uint64_t events;
	uint64_t tasks_created;
};

/* Machine lifecycle. ncpus >= 1. */
void sched_init(int ncpus, sim_time_t quantum_ns, sim_time_t slice_ns, sim_time_t ctxsw_ns);
/* context_switch's switch_mm (kernel/sched.c, 2.6.25-2.6.28): a task switched in whose memory
 * context (task_set_mem_context) is not the one its CPU last ran pays ns more than ctxsw_ns;
 * a task with none (a kernel thread) borrows the CPU's (enter_lazy_tlb) and pays nothing more,
 * nor does the next task of the context the CPU holds. 0 by default. */
void sched_set_mem_context_cost(sim_time_t ns);
/* config HZ: the jiffy the tick and the timeouts count in (0 = 1000); before sched_set_ticks */
void sched_set_hz(unsigned hz);
void sched_destroy(void);
/* Timer interrupts: every jiffy each CPU's running task loses tick_cost ns to the tick
 * handler. Each CPU's tick phase is drawn from the seed: where the ticks fall relative to
 * the workload is what varies between otherwise identical real runs. 0 = no ticks. */
void sched_set_ticks(sim_time_t tick_cost, uint64_t seed);
/* The platform's sched_clock(): false, nanoseconds; true, the kernel's weak default
 * (jiffies x 1e9 / HZ, kernel/sched.c 2.6.25), so rq->clock moves only at a tick and
 * update_curr charges whoever runs then a whole jiffy (docs/model.md). Needs the ticks. */
void sched_set_jiffy_clock(bool on);
/* jiffies - start for an interval: the timer interrupts of CPU 0 (the one that runs
 * do_timer) in (from, to]; time_after(jiffies, start + n) is jiffies_between > n. */
uint64_t jiffies_between(sim_time_t from, sim_time_t to);
/* place_entity's sleeper credit: false, one sched_latency (2.6.24, 2.6.25, 2.6.26); true,
 * sched_latency scaled by NICE_0_LOAD / the run queue's load (2.6.25-rc6..rc9's "fix fair
 * sleepers"; docs/model.md). */
void sched_set_normalized_sleeper(bool on);
/* What min_vruntime follows: false, the least of the running tasks and the leftmost queued
 * one (2.6.24, 2.6.25-rc1..rc5, 2.6.28); true, the leftmost queued task alone, raised when
 * a task becomes or leaves the leftmost (2.6.25-rc6..2.6.27). */
void sched_set_min_vruntime_leftmost(bool on);
/* The wakeup buddies (cfs_rq->next, cfs_rq->last) as a kernel line has them; docs/model.md
 * "Scheduler". */
enum sched_buddies {
	SCHED_BUDDIES_NONE, /* 2.6.24, 2.6.25-rc1..rc5: none */
	SCHED_BUDDIES_2625, /* 2.6.25-rc6 .. 2.6.25: next buddy, gran over the run queue load */
	SCHED_BUDDIES_2626, /* 2.6.26, 2.6.27: next buddy, wakeup_preempt_entity() != 0 */
	SCHED_BUDDIES_2628, /* 2.6.28: next and last buddies, kept until the task sleeps */
	SCHED_BUDDIES_30,   /* 3.0: last then next buddy, set only by a preempting wakeup,
			     * cleared when picked (NEXT_BUDDY off) */
};
/* check_preempt_wakeup's rules: the buddies, sysctl_sched_wakeup_granularity before
 * sched_init_granularity's scaling (ns), and whether only a task heavier than nice 0 has
 * it scaled by its weight (2.6.25 on; 2.6.24 scales it for every weight but nice 0's). */
void sched_set_wakeup_rules(enum sched_buddies buddies, sim_time_t wakeup_gran_ns, bool asym_gran);
/* 3.0's sched_fair.c in place of 2.6.28's where they differ outside the buddies (docs/model.md,
 * "Scheduler"): the tunables 6 ms / 0.75 ms (sched_nr_latency 8) scaled by 1 + ilog2(min(CPUs,
 * 8)) with no cap, the sleeper credit of half a latency (GENTLE_FAIR_SLEEPERS), no
 * child-runs-first and a child placed from its parent's vruntime (task_fork_fair),
 * check_preempt_tick's catch-up, the wakeup granularity in the woken task's weight. Before
 * sched_set_wakeup_rules, which scales the granularity by the factor this sets. */
void sched_set_cfs_30(bool on);
/* 2.6.30-2.6.33's wakeup_gran: ADAPTIVE_GRAN (the granularity a wakeup is measured against
 * shrinks to twice the woken task's mean run between its own wakeups, times the run queue's
 * tasks, less what the running task has run of its turn) and ASYM_GRAN in the woken task's
 * weight. After sched_set_wakeup_rules. */
void sched_set_adaptive_gran(bool on);

/* Prepares t, embedded in an owner's object, to run fn(arg) once started; it joins the list
 * of every task in creation order. Aborts if the host cannot map its stack. */
void task_init(struct task *t, const char *comm, void (*fn)(void *), void *arg);
/* A task of its own allocation, freed with the machine. */
struct task *task_create(const char *comm, void (*fn)(void *), void *arg);
void task_start(struct task *t);
/* The memory context t runs in from now on (0: none). A running task's CPU switches to it
 * at once, as exec's activate_mm does. */
void task_set_mem_context(struct task *t, uint64_t ctx);
/* The memory context the running task's CPU last switched to (the mm whose bit in
 * cpu_vm_mask that CPU holds): a kernel thread borrows it. */
uint64_t sched_active_context(void);
/* set_user_nice: the CFS weight of nice -20..19 (the kernel's prio_to_weight); under the
 * O(1) scheduler its static priority. */
void set_user_nice(struct task *t, int nice);
/* Which scheduler runs the machine: false, CFS (2.6.23 on; the default); true, 2.6.8's O(1)
 * scheduler (sched_o1.c). Before any task starts. */
void sched_set_o1(bool on);
/* release_task's sched_exit (2.6.8): a reaped child that never used up its first timeslice
 * gives the rest back to its parent, and a child that slept less lowers the parent's
 * sleep average. Nothing under CFS. */
void sched_exit(struct task *child, struct task *parent);
/* do_execve's sched_balance_exec (2.6.8): with the O(1) scheduler on an SMP machine, an
 * exec'ing task whose CPU has others queued moves to a clearly idler CPU, giving up its own
 * at once; nothing otherwise (the CFS model has one run queue). */
void sched_exec(void);
/* The run queues' invariant: every runnable task is queued once or running on one CPU, and
 * (O(1)) each queued task is in the array its runqueue says, an idle CPU has nothing queued.
 * 0, or -1 with the broken rule on stderr. O(tasks). */
int sched_check_invariants(void);
/* An invariant checker's report: "mmsim: invariant RULE violated at t=... ns: ..." on stderr;
 * returns -1. The memory manager's checker uses it too. */
int sched_invariant_failed(const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The task running now (NULL in scheduler context); layers above wrap it as `current`. */
extern struct task *sim_current;
extern sim_time_t sim_clock;
/* called for every task that exits (exit_io_context), if set */
extern void (*task_io_exit)(struct task *t);

/* smp_processor_id: the CPU the running task is on (0 outside any task). */
static inline int this_cpu(void)
{
	return sim_current && sim_current->cpu >= 0 ? sim_current->cpu : 0;
}

static inline sim_time_t local_now(void)
{
	return sim_clock + (sim_current ? sim_current->pending : 0);
}

/* CPU consumption by the running task (none in scheduler context: device callbacks, unit
 * tests). User work yields when the task has run a quantum ahead; system work never yields
 * by itself (the simulated kernel is not preemptible): kernel paths call cond_resched() at
 * the points where the kernel does, so no simulated kernel path is interleaved at an
 * arbitrary point. Both inline: one is charged for every simulated memory access, the
 * other on every system call. */
static inline void cpu_work_sys(sim_time_t ns)
{
	struct task *t = sim_current;
	if (t) {
		t->pending += ns;
		t->stime += ns;
	}
}
void cpu_work_yield(sim_time_t ns); /* cpu_work's path when the quantum is used up */
extern sim_time_t sim_quantum;	    /* how far a task runs ahead before it yields */
/* User work: inline, as it is charged for every simulated memory access. */
static inline void cpu_work(sim_time_t ns)
{
	struct task *t = sim_current;
	if (t && !t->in_kernel && t->pending + ns < sim_quantum) {
		t->pending += ns;
		t->utime += ns;
		return;
	}
	cpu_work_yield(ns);
}
void sched_sync(void); /* bring the task's local time and the clock together */
void cond_resched(void);
/* Return to user mode: if a woken task asked to preempt this one, yield now. Inline, as
 * every system call ends here and a request to preempt is rare. */
extern int sim_nr_need_resched; /* CPUs asked to preempt their task at its next yield */
void preempt_point_slow(void);
static inline void preempt_point(void)
{
	if (sim_nr_need_resched)
		preempt_point_slow();
}

/* Blocking. All return after the clock has reached the wakeup time. */
void schedule_timeout(sim_time_t ns); /* plain sleep */
/* Sleep on wq; returns false if woken, true if the timeout (0 = none) expired first. As
 * the kernel's prepare_to_wait/add_wait_queue, the sleeper joins the head of the queue, so
 * a wakeup reaches the latest sleeper first. */
bool sleep_on(struct waitqueue *wq, sim_time_t timeout_ns, bool killable);
/* prepare_to_wait_exclusive: joins the tail, and wake_up_one stops after the first such. */
bool sleep_on_exclusive(struct waitqueue *wq, sim_time_t timeout_ns, bool killable);
void wake_up_all(struct waitqueue *wq);
/* wake_up (nr_exclusive = 1): every non-exclusive sleeper and the first exclusive one. */
void wake_up_one(struct waitqueue *wq);
void wake_up_task(struct task *t); /* wakes a task blocked on anything that allows it */
static inline bool waitqueue_active(const struct waitqueue *wq)
{
	return wq->head != NULL;
}

/* The task ends; never returns. */
_Noreturn void task_exit(void);

/* Spinlock model: the caller holds `lock` for hold_ns of system time; if another holder's
 * hold reaches past the caller's local time, the caller spins (burns CPU) until then. */
void spin_lock_hold(struct spinlock *lock, sim_time_t hold_ns);

/* Callback events (I/O completion, timers of devices). Runs in scheduler context: it may
 * wake tasks but must not block. */
void sched_callback_at(sim_time_t when, void (*fn)(void *, uint64_t), void *arg, uint64_t arg2);

/* Runs events until `until` is reached, no task is left that `alive` counts, or stop is
 * requested. Returns the clock at the end. */
sim_time_t sched_run(sim_time_t until, bool (*keep_going)(void));
void sched_request_stop(void);
/* Calls fn(t) at t = 0, every, 2*every, ... as the run passes those times, before any event
 * due at t runs; fn only reads state (a monitor must not change the run). 0 turns it off. */
void sched_set_observer(void (*fn)(sim_time_t when), sim_time_t every);

/* Hook run between events (the invariant checker); may be NULL. Called every `every` events. */
void sched_set_check_hook(void (*fn)(void), uint64_t every);

struct task *sched_first_task(void); /* for iteration over every task ever created */
const struct sched_stats *sched_get_stats(void);
#include <stdio.h>
void sched_dump(FILE *out); /* debugging aid */
int sched_ncpus(void);
int sched_nr_running(void); /* tasks on a CPU or waiting for one */

#endif
