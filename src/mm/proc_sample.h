/* mmtests' top and iostat monitors for a simulated run, beside the vmstat monitor
 * (vmstat_sample.h) and read at its instants: per task what /proc/PID/stat gives (state, CPU
 * time, resident pages, faults), per disk what /proc/diskstats gives. Observers only: a run
 * with them gives the same results as one without. */
#ifndef MMSIM_MM_PROC_SAMPLE_H
#define MMSIM_MM_PROC_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/types.h"

/* One task at one instant: every task started and not yet exited, kernel threads included. */
struct task_sample {
	sim_time_t t;
	int pid;
	char comm[16];
	char state;		/* 'R' running or runnable, 'S' asleep */
	uint64_t utime, stime;	/* ns of CPU so far */
	unsigned long rss_anon; /* pages of its mm (shared by its threads); 0 for kthreads */
	unsigned long rss_file;
	unsigned long maj_flt, min_flt;
};

/* One disk at one instant; counters since boot, as /proc/diskstats. */
struct disk_sample {
	sim_time_t t;
	char name[16];
	uint64_t ios[2], sectors[2], merges[2]; /* [0] reads, [1] writes */
	sim_time_t busy_ns;			/* io_ticks */
	unsigned in_flight;			/* queued or being serviced */
};

struct proc_series {
	struct task_sample *tasks;
	size_t ntasks, tasks_cap;
	struct disk_sample *disks;
	size_t ndisks, disks_cap;
};

/* Appends a row for every live task (proc_sample_tasks) or disk (proc_sample_disks). */
void proc_sample_tasks(struct proc_series *s, sim_time_t when);
void proc_sample_disks(struct proc_series *s, sim_time_t when);
void proc_series_free(struct proc_series *s);

#endif
