/* qsbench 1.0.0's work on its array (kosaki/qsbench, qsbench.c; benchmarks.md §2) as a page
 * reference string: the fill with glibc's rand() after srand(seed), quick_sort() exactly as
 * the program runs it (median of a[l], a[m], a[r]; Hoare cursors i up and j down; the left
 * part, then the right part), and the verify pass comparing neighbours. The real algorithm runs
 * on the real values, so every split point is the one the program meets.
 *
 * Granularity: an access emits a touch unless it falls on one of the two pages touched last
 * (both cursors of a partition, or a cursor and the median probe): repeats within such a
 * burst are microseconds apart and set the same referenced bit. A write to a page of the pair
 * not yet written since it entered emits a write touch. Each touch carries the element
 * operations done since the previous one (comparisons, swaps, stores of the fill, compares of
 * the verify), for the CPU they cost. */
#ifndef MMSIM_WORKLOADS_QSORT_TRACE_H
#define MMSIM_WORKLOADS_QSORT_TRACE_H

#include <stddef.h>
#include <stdint.h>

/* glibc's rand() (the TYPE_3 additive generator random() uses by default) */
struct glibc_rand {
	int32_t r[34];
	unsigned k;
};
void glibc_srand(struct glibc_rand *g, uint32_t seed);
int32_t glibc_rand(struct glibc_rand *g);

/* One touch: bits 0-1 the kind (0 read, 1 write), bits 2-31 the operations before it. */
struct qs_touch {
	uint32_t page;
	uint32_t ops_kind;
};

struct qs_trace {
	struct qs_touch *t;
	size_t n, cap;
	uint64_t ops; /* element operations in all */
	uint64_t elems, elems_per_page;
	int truncated; /* stopped past max_ops (qs_trace_build) */
};

/* Builds the trace of fill + quick_sort + verify over a copy of a[0..n) (a == NULL: the
 * fill's own values, glibc rand() after srand(seed)); elems_per_page a power of two.
 * max_ops > 0 stops the build at the first touch whose operations, with those before it,
 * exceed max_ops (tr->truncated set): the trace is then a prefix of the whole one, all a run
 * can replay when its time limit allows at most max_ops operations. 0, or -1 if
 * elems_per_page is not a power of two. */
int qs_trace_build(struct qs_trace *tr, const int32_t *a, uint64_t n, uint32_t seed,
		   uint64_t elems_per_page, uint64_t max_ops);
void qs_trace_free(struct qs_trace *tr);

static inline uint32_t qs_touch_ops(const struct qs_touch *t)
{
	return t->ops_kind >> 2;
}
static inline int qs_touch_write(const struct qs_touch *t)
{
	return (int)(t->ops_kind & 1);
}

#endif
