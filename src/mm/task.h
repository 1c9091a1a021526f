/* struct task_struct: a task as the kernel sees it. The simulation core's struct task (its
 * coroutine, scheduling state and wait-queue links) is embedded in it, as the kernel embeds
 * its sched_entity; on top it carries what the mm's rules read and write: the PF_* flags
 * (PF_MEMALLOC, PF_KSWAPD, ...), the TIF_MEMDIE bit of the OOM killer, the mm it runs in,
 * and the kernel layer's process (opaque here: the mm never includes src/kernel).
 * Every task of a machine with an mm is a task_struct, so the core's task list is this
 * layer's for_each_task. */
#ifndef MMSIM_MM_TASK_H
#define MMSIM_MM_TASK_H

#include "sim/sched.h"

#include <stddef.h>

/* Task flags, kernel names where the kernel has them. */
#define PF_EXITING    0x00000004u
#define PF_MEMALLOC   0x00000800u
#define PF_KSWAPD     0x00040000u
#define PF_SWAPWRITE  0x00800000u
#define PF_KTHREAD    0x00200000u
#define PF_RECLAIMING 0x80000000u /* KOSAKI's throttle: this task holds a reclaim ticket */

/* Thread-info flags. */
#define TIF_MEMDIE 0x1u

struct mm_struct;
struct process;
struct reclaim_state;

struct task_struct {
	struct task task;     /* first: a NULL task is a NULL task_struct */
	unsigned flags;	      /* PF_* */
	unsigned tif;	      /* TIF_* */
	struct mm_struct *mm; /* NULL for kernel threads */
	struct process *proc; /* the kernel layer's process; NULL for kernel threads */
	bool is_kthread;
	/* do_exit's work of the layer above (freeing the mm, waking the parent), after
	 * PF_EXITING is set */
	void (*on_exit)(struct task_struct *p);
	/* set while it reclaims: slab pages freed meanwhile count for it */
	struct reclaim_state *reclaim_state;
	/* its page faults, as do_page_fault counts them: maj_flt where PGMAJFAULT counts, min_flt
	 * for every other fault (/proc/PID/stat's majflt and minflt); read by the monitors only */
	unsigned long maj_flt, min_flt;
};

static inline struct task_struct *task_struct_of(struct task *t)
{
	return t ? (struct task_struct *)((char *)t - offsetof(struct task_struct, task)) : NULL;
}

/* The task running now, NULL in scheduler context. */
#define current (task_struct_of(sim_current))

/* Unit tests that call mm code outside any running task make p current. */
static inline void set_current(struct task_struct *p)
{
	sim_current = p ? &p->task : NULL;
}

/* Every task ever created in this machine, in creation order. */
#define for_each_task(p)                                                                           \
	for (struct task_struct *p = task_struct_of(sched_first_task()); p;                        \
	     p = task_struct_of(p->task.next_all))

/* copy_process / kthread_create: a task that will run fn(arg) once task_start()ed, freed
 * with the machine. */
struct task_struct *task_struct_create(const char *comm, void (*fn)(void *), void *arg,
				       bool kthread);

/* SIGKILL is pending (the OOM killer's): killable sleeps end and system calls exit. */
static inline bool fatal_signal_pending(const struct task_struct *p)
{
	return p->task.fatal_signal;
}

static inline void send_sigkill(struct task_struct *p)
{
	p->task.fatal_signal = true;
	wake_up_task(&p->task);
}

#endif
