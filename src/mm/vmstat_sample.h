/* mmtests' vmstat monitor for a simulated run: every /proc/vmstat line, each zone's free and
 * LRU sizes (as /proc/zoneinfo), the reclaimers running and the swap in use, read at fixed
 * simulated times. */
#ifndef MMSIM_MM_VMSTAT_SAMPLE_H
#define MMSIM_MM_VMSTAT_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "mm/proc_sample.h"
#include "sim/types.h"

#define SAMPLE_NAME_MAX 40

struct sample_series {
	int ncols;
	char (*names)[SAMPLE_NAME_MAX]; /* column names, the same for every sample */
	size_t n, cap;
	sim_time_t *t; /* n times, increasing */
	uint64_t *v;   /* n rows of ncols values */
};

/* What is read at each instant beside the vmstat row. */
#define SAMPLE_TASKS 1u /* a proc_series row per live task (top) */
#define SAMPLE_DISKS 2u /* a proc_series row per disk (iostat) */

/* Starts filling out (emptied first) at every multiple of every from time 0, and procs (also
 * emptied) with what `what` asks for; the values are read through the scheduler's observer,
 * so they change nothing in the run. */
void vmstat_sample_start(struct sample_series *out, sim_time_t every, struct proc_series *procs,
			 unsigned what);
/* Stops sampling; a last row at the end of the run when it is not a multiple of every. */
void vmstat_sample_stop(sim_time_t end);
void sample_series_free(struct sample_series *s);

#endif
