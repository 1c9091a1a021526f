/* iotrace: the file-server experiment of Wu Fengguang's VM_EXEC changelog (kernel-reclaim.md
 * §3): `iotrace.rb --play` issues pread(size = 110 pages, offset = i*100 pages) for i = 0,
 * 100, ... 10000000, so the 10 pages each read shares with the next are read twice and
 * activated (10% of the pages get hot), while the console's periodic processes keep
 * running. The figure of merit is the major faults taken during the I/O. The thread does
 * not say what ran on the console; the periodic processes are our estimate. */
#ifndef MMSIM_WORKLOADS_IOTRACE_H
#define MMSIM_WORKLOADS_IOTRACE_H

#include "sim/types.h"

struct iotrace_params {
	int requests;	      /* preads (the thread: 100000) */
	int pages;	      /* pages per pread (110) */
	int stride;	      /* offset step in pages (100) */
	int daemons;	      /* periodic console processes (vmmon, ...) [estimate] */
	sim_time_t interval;  /* the first one's period; each next one's is twice [estimate] */
	uint64_t daemon_text; /* each one's own text [estimate] */
	uint64_t lib_c;	      /* the libc text they all map [estimate] */
	uint64_t shell_text;  /* zsh's text, idle during the I/O [estimate] */
	int touch_pct;	      /* % of its text and libc a process runs when it wakes [estimate] */
};

void iotrace_defaults(struct iotrace_params *p);
extern const struct workload iotrace_workload;

#endif
