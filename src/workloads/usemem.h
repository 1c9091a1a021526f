/* usemem, as mmtests uses it: N processes each allocate anonymous memory and touch it. */
#ifndef MMSIM_WORKLOADS_USEMEM_H
#define MMSIM_WORKLOADS_USEMEM_H

#include "sim/types.h"

enum usemem_pattern { USEMEM_SEQUENTIAL, USEMEM_RANDOM, USEMEM_CYCLIC };

struct usemem_params {
	int processes;
	uint64_t size;	      /* bytes per process */
	int pattern;	      /* enum usemem_pattern */
	int loops;	      /* passes over the region (touches per page for random) */
	bool write;	      /* write (dirty) or only read each page */
	uint64_t per_page_ns; /* user work per page touched besides the access */
	uint64_t hold;	      /* sleep after the last pass before exiting */
	bool shmem;	      /* the region is a shared anonymous mapping (shmem), not private */
	bool noreserve;	      /* mapped with MAP_NORESERVE */
};

extern const struct workload usemem_workload;

#endif
