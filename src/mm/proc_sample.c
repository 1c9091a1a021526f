/* The top and iostat monitors: rows appended at the vmstat monitor's instants. */
#include "mm/proc_sample.h"

#include "mm/mm.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct task_sample *task_row(struct proc_series *s)
{
	if (s->ntasks == s->tasks_cap) {
		s->tasks_cap = s->tasks_cap ? s->tasks_cap * 2 : 256;
		s->tasks = xreallocarray(s->tasks, s->tasks_cap, sizeof(*s->tasks));
	}
	return &s->tasks[s->ntasks++];
}

void proc_sample_tasks(struct proc_series *s, sim_time_t when)
{
	for_each_task(p) {
		enum task_state st = p->task.state;
		if (st == TASK_NEW || st == TASK_DEAD)
			continue;
		struct task_sample *r = task_row(s);
		memset(r, 0, sizeof(*r));
		r->t = when;
		r->pid = p->task.pid;
		snprintf(r->comm, sizeof(r->comm), "%s", p->task.comm);
		r->state = st == TASK_BLOCKED ? 'S' : 'R';
		r->utime = p->task.utime;
		r->stime = p->task.stime;
		if (p->mm) {
			r->rss_anon = p->mm->rss_anon;
			r->rss_file = p->mm->rss_file;
		}
		r->maj_flt = p->maj_flt;
		r->min_flt = p->min_flt;
	}
}

static void disk_row(struct proc_series *s, const struct blockdev *bd, sim_time_t when)
{
	if (s->ndisks == s->disks_cap) {
		s->disks_cap = s->disks_cap ? s->disks_cap * 2 : 64;
		s->disks = xreallocarray(s->disks, s->disks_cap, sizeof(*s->disks));
	}
	struct disk_sample *r = &s->disks[s->ndisks++];
	memset(r, 0, sizeof(*r));
	r->t = when;
	snprintf(r->name, sizeof(r->name), "%s", bd->name);
	for (int rw = 0; rw < 2; rw++) {
		r->ios[rw] = bd->stats.ios[rw];
		r->sectors[rw] = bd->stats.sectors[rw];
		r->merges[rw] = bd->stats.merges[rw];
		r->in_flight += bd->nr_queued[rw];
	}
	r->busy_ns = bd->stats.busy_ns;
}

void proc_sample_disks(struct proc_series *s, sim_time_t when)
{
	disk_row(s, &MM->disk, when);
	if (MM->swap.bdev == &MM->swap_disk)
		disk_row(s, &MM->swap_disk, when);
}

void proc_series_free(struct proc_series *s)
{
	free(s->tasks);
	free(s->disks);
	memset(s, 0, sizeof(*s));
}
