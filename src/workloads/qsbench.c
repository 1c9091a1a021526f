/* qsbench as benchmarks.md §2 describes it. The parent forks P children and waits; each
 * child maps its array (malloc of this size is a fresh anonymous mmap), fills it in one
 * sequential write pass, quicksorts it, verifies it in one sequential read pass, and exits.
 *
 * The sort is modelled at page granularity: a partition of [lo, hi) walks two cursors
 * towards each other, one up from lo and one down from hi, writing the pages they cross
 * (Hoare partitioning swaps on both sides) and charging elem_ns of user CPU per element;
 * they meet at the split point, which is the median of three random positions (the
 * median-of-three pivot on random data), then the left part is sorted, then the right
 * (depth first). A sub-range of at most leaf_elems elements is finished inside its page(s)
 * at n·log2(n)·elem_ns. Every child draws its split points from the same seed, so, as with
 * the real program, all children make the same accesses. */
#include "workloads/qsbench.h"
#include "mm/policy/swap_token.h"

#include "kernel/process.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define QP(f) offsetof(struct scenario_config, qsbench.f)
static const struct param_desc params[] = {
    {"qsbench.processes", P_INT, QP(processes), 1, 1024, NULL, "processes (-p)"},
    {"qsbench.size", P_SIZE, QP(size), 4096, 1LL << 40, NULL, "array bytes per process (-m)"},
    {"qsbench.seed", P_U64, QP(seed), 0, 1LL << 40, NULL,
     "srand() seed, the same in every child (-s)"},
    {"qsbench.elem_bytes", P_INT, QP(elem_bytes), 1, 64, NULL, "bytes per element (int)"},
    {"qsbench.elem_ns", P_TIME, QP(elem_ns), 0, 1000000, NULL,
     "user CPU per element per pass [estimate]"},
    {"qsbench.leaf_elems", P_INT, QP(leaf_elems), 2, 1 << 24, NULL,
     "sub-ranges this small are sorted without walking pages (model granularity)"},
};

void qsbench_defaults(struct qsbench_params *p)
{
	*p = (struct qsbench_params){
	    .processes = 1,	 /* qsbench's default -p */
	    .size = 10ULL << 20, /* qsbench 1.0.0's default -m 10 */
	    .seed = 1,
	    .elem_bytes = 4,
	    .elem_ns = 28, /* 71 s / (9e7 × 28.4) [estimate, benchmarks.md §2] */
	    .leaf_elems = 1024,
	};
}

struct range {
	uint64_t lo, hi;
};

static struct {
	struct qsbench_params p;
	uint64_t run_seed;
	sim_time_t start, end;
	bool done;
	int exited_ok, killed;
	sim_time_t child_end[1024];
	/* each child's quicksort stack, here so that a run stopped mid-sort (time limit, OOM
	 * kill) can free it: the child's coroutine never returns to do so */
	struct range *sort_stack[1024];
} Q;

static uint64_t elems_per_page(void)
{
	return MM->page_size / (uint64_t)Q.p.elem_bytes;
}

static unsigned ilog2_ceil(uint64_t n)
{
	unsigned l = 0;
	while ((1ULL << l) < n)
		l++;
	return l;
}

/* Touches the page holding element e (once per cursor step into a new page) and charges
 * the elements of [lo, hi) that lie in it. */
static void cross_page(uint64_t base, uint64_t page, uint64_t lo, uint64_t hi, int kind)
{
	uint64_t epp = elems_per_page();
	uint64_t first = MAX(page * epp, lo), last = MIN((page + 1) * epp, hi);
	sys_touch(base + page, kind);
	if (last > first && Q.p.elem_ns)
		sys_compute((last - first) * Q.p.elem_ns);
}

static void partition(uint64_t base, uint64_t lo, uint64_t split, uint64_t hi)
{
	uint64_t epp = elems_per_page();
	uint64_t lp = lo / epp, lend = (split - 1) / epp; /* left cursor: lp..lend upwards */
	uint64_t rp = (hi - 1) / epp, rend = split / epp; /* right cursor: rp..rend downwards */
	uint64_t nl = lend - lp + 1, nr = rp - rend + 1, dl = 0, dr = 0;
	/* both cursors reach the split together: interleave their pages in proportion */
	while (dl < nl || dr < nr) {
		if (dr >= nr || (dl < nl && dl * nr <= dr * nl)) {
			cross_page(base, lp + dl, lo, split, TOUCH_WRITE);
			dl++;
		} else {
			cross_page(base, rp - dr, split, hi, TOUCH_WRITE);
			dr++;
		}
	}
}

static void quicksort(uint64_t base, uint64_t nelems, struct rng *rng, struct range **slot)
{
	size_t cap = 64, top = 0;
	struct range *stack = *slot = xmalloc(cap * sizeof(*stack));
	stack[top++] = (struct range){0, nelems};
	uint64_t epp = elems_per_page();
	while (top) {
		struct range r = stack[--top];
		uint64_t n = r.hi - r.lo;
		if (n <= (uint64_t)Q.p.leaf_elems) {
			for (uint64_t pg = r.lo / epp; pg <= (r.hi - 1) / epp; pg++)
				sys_touch(base + pg, TOUCH_WRITE);
			if (Q.p.elem_ns)
				sys_compute(n * ilog2_ceil(n) * Q.p.elem_ns);
			continue;
		}
		uint64_t a = r.lo + rng_below(rng, n), b = r.lo + rng_below(rng, n),
			 c = r.lo + rng_below(rng, n);
		uint64_t split = MAX(MIN(a, b), MIN(MAX(a, b), c));
		if (split == r.lo)
			split++;
		partition(base, r.lo, split, r.hi);
		if (top + 2 > cap) {
			cap *= 2;
			stack = *slot = xrealloc(stack, cap * sizeof(*stack));
		}
		stack[top++] = (struct range){split, r.hi}; /* right after left */
		stack[top++] = (struct range){r.lo, split};
	}
	free(stack);
	*slot = NULL;
}

static void qsbench_child(void *arg)
{
	int index = (int)(intptr_t)arg;
	uint64_t nelems = Q.p.size / (uint64_t)Q.p.elem_bytes;
	uint64_t epp = elems_per_page();
	uint64_t npages = (nelems + epp - 1) / epp;
	uint64_t base = sys_mmap_anon(npages, VM_READ | VM_WRITE);
	struct rng rng;
	/* srand(seed) in every child: the same stream, so the same accesses */
	rng_seed(&rng, Q.p.seed, 0);
	for (uint64_t pg = 0; pg < npages; pg++)
		cross_page(base, pg, 0, nelems, TOUCH_WRITE);
	quicksort(base, nelems, &rng, &Q.sort_stack[index]);
	for (uint64_t pg = 0; pg < npages; pg++)
		cross_page(base, pg, 0, nelems, TOUCH_READ);
	if (index < (int)ARRAY_SIZE(Q.child_end))
		Q.child_end[index] = local_now();
	sys_exit(0);
}

static void qsbench_parent(void *arg)
{
	(void)arg;
	Q.start = local_now();
	for (int i = 0; i < Q.p.processes; i++)
		sys_fork("qsbench", qsbench_child, (void *)(intptr_t)i);
	int code;
	while (sys_wait(&code) >= 0) {
		if (code == 0)
			Q.exited_ok++;
		else
			Q.killed++;
	}
	Q.end = local_now();
	Q.done = true;
	sys_exit(0);
}

static void qsbench_cleanup(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(Q.sort_stack); i++) {
		free(Q.sort_stack[i]);
		Q.sort_stack[i] = NULL;
	}
}

static int qsbench_start(const struct scenario_config *cfg, uint64_t seed)
{
	memset(&Q, 0, sizeof(Q));
	Q.p = cfg->qsbench;
	Q.run_seed = seed;
	struct process *init = process_spawn("qsbench", qsbench_parent, NULL);
	if (!init)
		return -1;
	init->is_init = true;
	return 0;
}

static bool qsbench_finished(void)
{
	return Q.done;
}

static void qsbench_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	r->completed = Q.done;
	result_printf(r, "qsbench -p %d -m %llu -s %llu\n", Q.p.processes,
		      (unsigned long long)(Q.p.size >> 20), (unsigned long long)Q.p.seed);
	if (!Q.done) {
		result_printf(r, "qsbench: did not finish\n");
		return;
	}
	double secs = (double)(Q.end - Q.start) / 1e9;
	int whole = (int)secs;
	result_printf(r, "qsbench: %d exited normally, %d killed\n", Q.exited_ok, Q.killed);
	for (int i = 0; i < Q.p.processes && i < (int)ARRAY_SIZE(Q.child_end); i++)
		if (Q.child_end[i])
			result_printf(r, "qsbench: child %d done at %.3f s\n", i,
				      (double)(Q.child_end[i] - Q.start) / 1e9);
	result_printf(r, "real\t%dm%.3fs\n", whole / 60, secs - (double)(whole / 60 * 60));
	result_add_metric(r, "elapsed", secs, "s", false, true);
	result_add_metric(r, "killed", Q.killed, "processes", false, false);
	result_add_metric(r, "token_handoffs", (double)swap_token_handoffs(), "", false, false);
}

/* Host memory: the tasks alive at once at most (the parent and its children). */
static uint64_t qsbench_host_bytes(const struct scenario_config *cfg)
{
	/* and each array's PTEs, one 32-bit entry per page as a file's index */
	return scenario_task_host_bytes((uint64_t)cfg->qsbench.processes + 1) +
	       (uint64_t)cfg->qsbench.processes * scenario_file_host_bytes(cfg, cfg->qsbench.size);
}

const struct workload qsbench_workload = {
    .name = "qsbench",
    .description = "P processes quicksort private arrays of random ints (qsbench -p -m -s)",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = qsbench_start,
    .finished = qsbench_finished,
    .report = qsbench_report,
    .host_bytes = qsbench_host_bytes,
    .cleanup = qsbench_cleanup,
};
