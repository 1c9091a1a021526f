/* qsbench (Lorenzo Allegrucci, v1.0.0 `qsbench -p PROCS -m MB -s SEED`, benchmarks.md §2):
 * P processes each quicksort their own array of random ints, all from the same seed, so
 * every process makes the identical sequence of accesses on private anonymous memory.
 * The figure of merit is the elapsed time of the whole run, as `time ./qsbench` shows it. */
#ifndef MMSIM_WORKLOADS_QSBENCH_H
#define MMSIM_WORKLOADS_QSBENCH_H

#include "sim/types.h"

struct qsbench_params {
	int processes;	/* -p */
	uint64_t size;	/* -m, bytes per process (sizeof(int) = 4 bytes per element) */
	uint64_t seed;	/* -s: the same in every child */
	uint64_t op_ns; /* user CPU per element operation (a comparison, a swap, a store of the
			 * fill, a compare of the verify): Lorenzo Allegrucci's 2001 run, 71 s
			 * user for 90 000 000 elements, over the operations the model counts
			 * for that run (benchmarks.md §2; docs/swap-token.md) */
};

void qsbench_defaults(struct qsbench_params *p);
extern const struct workload qsbench_workload;

#endif
