/* ops N [SEED]: the element operations and page touches of qsbench 1.0.0 on N ints (the
 * model's qs_trace_build), to derive the CPU per operation from a measured run's user time.
 * build: cc -O2 -Isrc tools/measure/qsbench/ops.c src/workloads/qsort_trace.c src/sim/xalloc.c */
#include "workloads/qsort_trace.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	uint64_t n = strtoull(argv[1], NULL, 0);
	uint32_t seed = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 1;
	struct qs_trace tr;
	if (qs_trace_build(&tr, NULL, n, seed, 1024))
		return 1;
	printf("elems %llu seed %u ops %llu touches %zu\n", (unsigned long long)n, seed,
	       (unsigned long long)tr.ops, tr.n);
	qs_trace_free(&tr);
	return 0;
}
