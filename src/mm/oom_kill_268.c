/* The OOM killer of 2.6.8 (mm/oom_kill.c, v2.6.8; vm.reclaim_lru = 2.6.8). try_to_free_pages
 * calls out_of_memory once its priority loop has freed less than a cluster at every
 * priority; out_of_memory kills only when the failures look persistent: calls no more than
 * 5 s apart, for at least 1 s, at least 10 of them, and 5 s after the last kill. The victim
 * has the most badness points (total_vm, halved by the roots of its CPU and run time,
 * doubled when niced, quartered for root or raw I/O); no child is sacrificed first and
 * oom_adj does not exist yet. */
#include "mm/mm.h"
#include "sim/int_sqrt.h"

/* INITIAL_JIFFIES (include/linux/jiffies.h): jiffies start 300 s before they wrap, so
 * the "since the last kill" test cannot hold off a kill in the first seconds after boot. */
static uint64_t jiffies_now(void)
{
	return (uint64_t)(uint32_t)(-300 * (int32_t)HZ) + jiffies_between(0, local_now());
}

static bool time_after(uint64_t a, uint64_t b)
{
	return (int64_t)(b - a) < 0;
}

/* badness, 2.6.8: PF_MEMDIE (here TIF_MEMDIE) scores 0, so a victim still exiting is
 * never chosen twice. CPU time in jiffies >> (SHIFT_HZ + 3), run time in jiffies >>
 * (SHIFT_HZ + 10). Root counts as CAP_SYS_ADMIN (the kernel tests uid 0 as well). */
static unsigned long badness_268(struct task_struct *p, sim_time_t uptime)
{
	if (!p->mm || (p->tif & TIF_MEMDIE))
		return 0;
	unsigned long points = p->mm->total_vm;
	unsigned long cpu_time =
	    (unsigned long)((p->task.utime + p->task.stime) / JIFFY_NS) >> (oom_shift_hz() + 3);
	sim_time_t ran = uptime > p->task.start_time ? uptime - p->task.start_time : 0;
	unsigned long run_time = (unsigned long)(ran / JIFFY_NS) >> (oom_shift_hz() + 10);
	unsigned long s = int_sqrt(cpu_time);
	if (s)
		points /= s;
	s = int_sqrt(int_sqrt(run_time));
	if (s)
		points /= s;
	if (p->task.weight < NICE_0_LOAD) /* task_nice(p) > 0 */
		points *= 2;
	if (oom_capable(p, CAP_SYS_ADMIN))
		points /= 4;
	if (oom_capable(p, CAP_SYS_RAWIO))
		points /= 4;
	return points;
}

/* select_bad_process, 2.6.8: every task, the first with the most points, none with 0. */
static struct task_struct *select_bad_process_268(unsigned long *ppoints)
{
	struct task_struct *chosen = NULL;
	sim_time_t uptime = local_now();
	*ppoints = 0;
	for_each_task(p) {
		if (p->task.state == TASK_DEAD || p->task.state == TASK_NEW)
			continue;
		unsigned long points = badness_268(p, uptime);
		if (points > *ppoints) {
			chosen = p;
			*ppoints = points;
		}
	}
	return chosen;
}

/* oom_kill: the victim and every task sharing its mm get SIGKILL and PF_MEMDIE; then
 * yield(). init ignores the signal (2.6.8's get_signal_to_deliver skips fatal signals for
 * pid 1), so it only takes PF_MEMDIE. */
static void oom_kill_268(void)
{
	unsigned long points;
	struct task_struct *p = select_bad_process_268(&points);
	if (!p) { /* "Out of memory and no killable processes...": panic */
		MM->oom_stop_requested = true;
		sched_request_stop();
		return;
	}
	if (MM->task_ops && MM->task_ops->is_init && MM->task_ops->is_init(p))
		p->tif |= TIF_MEMDIE;
	else
		oom_kill_task(p, points);
	cond_resched(); /* yield() */
}

void out_of_memory_268(unsigned gfp)
{
	(void)gfp;
	if (MM->sysctl.panic_on_oom) { /* not in 2.6.8: kept so a scenario's switch still stops */
		MM->oom_stop_requested = true;
		sched_request_stop();
		return;
	}
	uint64_t now = jiffies_now();
	uint64_t since = now - MM->oom268_last;
	MM->oom268_last = now;
	if (since > 5 * (uint64_t)HZ) /* a long time since the last failure: not OOM */
		goto reset;
	if (now - MM->oom268_first < (uint64_t)HZ) /* not failing for a second yet */
		return;
	if (++MM->oom268_count < 10) /* only a few failures */
		return;
	if (now - MM->oom268_lastkill < 5 * (uint64_t)HZ) /* the last victim may still exit */
		return;
	MM->oom268_lastkill = now;
	oom_kill_268();
reset:
	if (time_after(now, MM->oom268_first))
		MM->oom268_first = now;
	MM->oom268_count = 0;
}
