/* The trace workload: one process per trace file (times `copies`), each replaying its page
 * references as user accesses, so a captured real program runs under memory pressure with
 * every policy switch. Data references go through anonymous memory, exec references through
 * an executable file mapping (program text, read from disk on first use). */
#ifndef MMSIM_WORKLOADS_TRACEREPLAY_H
#define MMSIM_WORKLOADS_TRACEREPLAY_H

#include "sim/param.h"
#include "sim/types.h"

#define TRACE_MAX_FILES 4

struct tracewl_params {
	char file[TRACE_MAX_FILES][PARAM_STRING_MAX]; /* "none" = unused */
	int copies;				      /* processes per trace */
	uint64_t max_refs;			      /* per process; 0 = the whole trace */
	uint64_t per_ref_ns; /* user work per reference besides the access itself */
};

void tracewl_defaults(struct tracewl_params *p);
extern const struct workload trace_workload;

#endif
