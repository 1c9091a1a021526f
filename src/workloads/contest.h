/* contest (Con Kolivas; benchmarks.md §3): a kernel compile timed under a background load,
 * reported as contest's columns Time, CPU%, Loads, LCPU%, Ratio. The compile is the kbuild
 * workload's build (kbuild.* keys; contest's is `make -j4 bzImage`). */
#ifndef MMSIM_WORKLOADS_CONTEST_H
#define MMSIM_WORKLOADS_CONTEST_H

#include "sim/types.h"

enum contest_load { CONTEST_NO_LOAD, CONTEST_MEM_LOAD };

struct contest_params {
	int load;	       /* enum contest_load */
	uint64_t lead;	       /* the load starts this long before the compile (contest: 3 s) */
	int mem_percent;       /* mem_load's size: 110 % ... */
	bool mem_of_total;     /* ... of free RAM at its start (Con, 2004), or of all RAM (irman) */
	bool mem_write;	       /* mem_load dirties what it references [model assumption] */
	uint64_t mem_per_page; /* CPU per page referenced [model assumption] */
};

void contest_defaults(struct contest_params *p);
extern const struct workload contest_workload;

#endif
