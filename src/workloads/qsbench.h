/* qsbench (Lorenzo Allegrucci, v1.0.0 `qsbench -p PROCS -m MB -s SEED`, benchmarks.md §2):
 * P processes each quicksort their own array of random ints, all from the same seed, so
 * every process makes the identical sequence of accesses on private anonymous memory.
 * The figure of merit is the elapsed time of the whole run, as `time ./qsbench` shows it. */
#ifndef MMSIM_WORKLOADS_QSBENCH_H
#define MMSIM_WORKLOADS_QSBENCH_H

#include "sim/types.h"

struct qsbench_params {
	int processes;	  /* -p */
	uint64_t size;	  /* -m, bytes per process */
	uint64_t seed;	  /* -s: the same in every child */
	int elem_bytes;	  /* sizeof(int) */
	uint64_t elem_ns; /* user CPU per element per pass (fill, partition level, verify):
			   * [estimate] derived from Lorenzo's 2001 run, 71 s user for
			   * 90 000 000 elements ≈ 28.4 passes → ~28 ns (benchmarks.md §2) */
	int leaf_elems;	  /* a sub-range this small is sorted within its page(s) without
			   * the page-level walk (model granularity, one 4 KiB page of ints) */
};

void qsbench_defaults(struct qsbench_params *p);
extern const struct workload qsbench_workload;

#endif
