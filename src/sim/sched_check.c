/* The scheduler's invariant (sched.h sched_check_invariants), run by the invariant checker
 * with the memory manager's: every runnable task waits on a run queue or runs on one CPU. */
#include "sim/sched_impl.h"

#include <stdarg.h>
#include <stdio.h>

int sched_invariant_failed(const char *rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "mmsim: invariant %s violated at t=%llu ns: ", rule,
		(unsigned long long)sim_clock);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return -1;
}

int sched_check_invariants(void)
{
	int queued = sched.o1 ? o1_check() : sched.nr_rq - sched.nr_stale;
	if (queued < 0)
		return -1;
	int runnable = 0, running = sched.ncpus - sched.nr_idle;
	for (const struct task *t = sched.all_head; t; t = t->next_all)
		runnable += t->state == TASK_RUNNABLE || t->state == TASK_RUNNING;
	if (runnable != queued + running)
		return sched_invariant_failed("runnable", "%d runnable, %d queued, %d running",
					      runnable, queued, running);
	return 0;
}
