/* mapstream: the "micro benchmark that streams writes to a large mapping" of Mel Gorman's
 * 2011 writeback series (kernel-reclaim.md §5.3): each process maps a file shared and
 * writable and writes every page once, in order, `passes` times. The pages are use-once
 * and dirty only in their PTEs until reclaim (or munmap) moves the dirty bit to the page,
 * so reclaim, not the flusher, finds most of them: the case the series' switches change. */
#ifndef MMSIM_WORKLOADS_MAPSTREAM_H
#define MMSIM_WORKLOADS_MAPSTREAM_H

#include "sim/types.h"

struct mapstream_params {
	int processes;	      /* each maps its own file */
	uint64_t size;	      /* bytes mapped per process */
	int passes;	      /* times every page is written */
	uint64_t per_page_ns; /* user work per page written */
};

void mapstream_defaults(struct mapstream_params *p);
extern const struct workload mapstream_workload;

#endif
