/* The OOM killer, 2.6.28 (kernel-reclaim.md §1.19): select_bad_process by badness(), kill a
 * child with its own mm first, TIF_MEMDIE for the victim. */
#include "mm/mm.h"
#include "sim/int_sqrt.h"

#include <stdio.h>
#include <string.h>

#define OOM_DISABLE (-17)
#define SHIFT_HZ    10 /* HZ = 1000 */

unsigned long badness(struct task_struct *p, sim_time_t uptime)
{
	struct mm_struct *mm = p->mm;
	if (!mm)
		return 0;
	unsigned long points = mm->total_vm;
	if (MM->task_ops && MM->task_ops->children_vm)
		points += MM->task_ops->children_vm(p, NULL);
	unsigned long jiffies = (unsigned long)((p->task.utime + p->task.stime) / JIFFY_NS);
	unsigned long cpu_time = jiffies >> (SHIFT_HZ + 3);
	unsigned long run_time =
	    (unsigned long)((uptime - p->task.start_time) / NSEC_PER_SEC) >> 10;
	unsigned long s = int_sqrt(cpu_time);
	if (s)
		points /= s;
	s = int_sqrt(int_sqrt(run_time));
	if (s)
		points /= s;
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
			*ppoints = (unsigned long)-1;
			return p;
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

static void oom_kill_task(struct task_struct *victim, unsigned long points)
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
