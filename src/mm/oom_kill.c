/* The OOM killer, 2.6.28 (kernel-reclaim.md §1.19): select_bad_process by badness(), kill a
 * child with its own mm first, TIF_MEMDIE for the victim. */
#include "mm/mm.h"
#include "sim/int_sqrt.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define OOM_DISABLE (-17)

bool oom_capable(struct task_struct *p, int cap)
{
	return MM->task_ops && MM->task_ops->has_capability && MM->task_ops->has_capability(p, cap);
}

/* SHIFT_HZ (include/linux/jiffies.h): the power of two nearest HZ, 3 * 2^(k-2) <= HZ <
 * 3 * 2^(k-1): 7 at HZ 100, 8 at 200 and 250, 10 at 1000. */
unsigned oom_shift_hz(void)
{
	unsigned k = 4;
	while (k < 13 && HZ >= 3u << (k - 1))
		k++;
	return k;
}

/* badness (mm/oom_kill.c, 2.6.28), term by term. uptime and the start time count in whole
 * seconds and CPU time in whole jiffies, as the kernel's timespec and cputime do. */
unsigned long badness(struct task_struct *p, sim_time_t uptime)
{
	struct mm_struct *mm = p->mm;
	if (!mm)
		return 0;
	unsigned long points = mm->total_vm;
	/* PF_SWAPOFF (ULONG_MAX) is never set: swapoff is not modelled */
	if (MM->task_ops && MM->task_ops->children_vm)
		points += MM->task_ops->children_vm(p, NULL); /* total_vm/2 + 1 each */
	unsigned long cpu_time =
	    (unsigned long)(p->task.utime / JIFFY_NS + p->task.stime / JIFFY_NS) >>
	    (oom_shift_hz() + 3);
	uint64_t up_s = uptime / NSEC_PER_SEC, start_s = p->task.start_time / NSEC_PER_SEC;
	unsigned long run_time = up_s >= start_s ? (unsigned long)(up_s - start_s) >> 10 : 0;
	unsigned long s = int_sqrt(cpu_time);
	if (s)
		points /= s;
	s = int_sqrt(int_sqrt(run_time));
	if (s)
		points /= s;
	if (p->task.weight < NICE_0_LOAD) /* task_nice(p) > 0: prio_to_weight[20] is nice 0 */
		points *= 2;
	if (oom_capable(p, CAP_SYS_ADMIN) || oom_capable(p, CAP_SYS_RESOURCE))
		points /= 4;
	if (oom_capable(p, CAP_SYS_RAWIO))
		points /= 4;
	/* cpuset_mems_allowed_intersects is always true: one memory node */
	int adj = mm->oomkilladj;
	if (adj > 0) {
		if (!points)
			points = 1;
		points <<= adj;
	} else if (adj < 0) {
		points >>= -adj;
	}
	return points;
}

#define OOM_ABORT ((struct task_struct *)-1)

static struct task_struct *select_bad_process(unsigned long *ppoints, sim_time_t uptime)
{
	struct task_struct *chosen = NULL;
	*ppoints = 0;
	for_each_task(p) {
		if (p->task.state == TASK_DEAD || p->task.state == TASK_NEW || !p->mm ||
		    p->is_kthread)
			continue;
		if (MM->task_ops && MM->task_ops->is_init && MM->task_ops->is_init(p))
			continue;
		if (p->tif & TIF_MEMDIE)
			return OOM_ABORT;
		if (p->flags & PF_EXITING) {
			if (p != current)
				return OOM_ABORT;
			/* the kernel goes on scanning: a later TIF_MEMDIE task still aborts */
			chosen = p;
			*ppoints = ULONG_MAX;
		}
		if (p->mm->oomkilladj == OOM_DISABLE)
			continue;
		unsigned long points = badness(p, uptime);
		if (points > *ppoints || !chosen) {
			chosen = p;
			*ppoints = points;
		}
	}
	return chosen;
}

void oom_kill_task(struct task_struct *victim, unsigned long points)
{
	struct reclaim_stats *rs = &MM->rstats;
	rs->oom_kills++;
	trace_event(mark_victim, "pid=%d", victim->task.pid);
	if (MM->nr_oom_records < MAX_OOM_RECORDS) {
		struct oom_victim *r = &MM->oom_records[MM->nr_oom_records++];
		r->pid = victim->task.pid;
		snprintf(r->comm, sizeof(r->comm), "%s", victim->task.comm);
		r->time = local_now();
		r->badness = points;
		r->rss = victim->mm ? victim->mm->rss_anon + victim->mm->rss_file : 0;
	}
	if (MM->task_ops && MM->task_ops->kill)
		MM->task_ops->kill(victim);
}

void out_of_memory(unsigned gfp, unsigned order)
{
	(void)gfp;
	(void)order;
	sim_time_t uptime = local_now();
	if (MM->sysctl.panic_on_oom) {
		MM->oom_stop_requested = true;
		sched_request_stop();
		return;
	}
	if (MM->sysctl.oom_kill_allocating_task && current && current->mm) {
		oom_kill_task(current, 0);
		return;
	}
	unsigned long points;
	struct task_struct *p = select_bad_process(&points, uptime);
	if (p == OOM_ABORT)
		goto out;
	if (!p) {
		/* "Out of memory and no killable processes": the kernel panics */
		MM->oom_stop_requested = true;
		sched_request_stop();
		return;
	}
	struct task_struct *child = NULL;
	if (MM->task_ops && MM->task_ops->children_vm)
		MM->task_ops->children_vm(p, &child);
	oom_kill_task(child ? child : p, points);
out:
	if (current && !(current->tif & TIF_MEMDIE))
		schedule_timeout(JIFFY_NS);
}
