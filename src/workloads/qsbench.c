/* qsbench 1.0.0 (kosaki/qsbench, qsbench.c; benchmarks.md §2). The parent forks P children and
 * waits; each child mallocs its array (a fresh anonymous mmap at these sizes), fills it with
 * rand() after srand(seed), runs quick_sort(a, 0, n − 1), verifies it with one pass comparing
 * neighbours, and exits. Every child seeds the same, so every child makes the same accesses:
 * the page reference string of that work is built once (qsort_trace.c, the real algorithm on
 * the real values) and every child replays it on its own memory, charging op_ns of user CPU
 * per element operation. */
#include "workloads/qsbench.h"
#include "mm/policy/swap_token.h"

#include "kernel/process.h"
#include "workloads/qsort_trace.h"
#include "workloads/scenario.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define QP(f) offsetof(struct scenario_config, qsbench.f)
static const struct param_desc params[] = {
    {"qsbench.processes", P_INT, QP(processes), 1, 1024, NULL, "processes (-p)"},
    {"qsbench.size", P_SIZE, QP(size), 4096, 1LL << 36, NULL, "array bytes per process (-m)"},
    {"qsbench.seed", P_U64, QP(seed), 0, 0xffffffffLL, NULL,
     "srand() seed, the same in every child (-s)"},
    /* At least 1 ns: an operation that cost nothing would leave run.time_limit no bound on
     * the trace built before the machine starts (runfuzz seed 290895: 2.97 GB arrays). */
    {"qsbench.op_ns", P_TIME, QP(op_ns), 1, 1000000, NULL,
     "user CPU per element operation (derived from Lorenzo Allegrucci's 71 s run)"},
};

void qsbench_defaults(struct qsbench_params *p)
{
	*p = (struct qsbench_params){
	    .processes = 1,	 /* qsbench's default -p */
	    .size = 10ULL << 20, /* qsbench 1.0.0's default -m 10 */
	    .seed = 1,		 /* qsbench's default -s */
	    /* Lorenzo Allegrucci, LKML 2001-10-09: `qsbench -n 90000000 -p 1`, ~71 s user;
	     * the model's operations for 90 000 000 ints, seed 1: 3 886 490 837
	     * (tools/measure/qsbench/ops.c) → 18.27 ns */
	    .op_ns = 18,
	};
}

static struct {
	struct qsbench_params p;
	struct qs_trace trace;
	sim_time_t start, end, time_limit;
	bool done;
	int exited_ok, killed;
	sim_time_t child_end[1024];
} Q;

/* The trace of the last build, kept across runs in one process: it depends only on these. */
static struct {
	struct qs_trace trace;
	uint64_t elems, seed, elems_per_page, max_ops;
	bool valid;
} cache;

static void qsbench_child(void *arg)
{
	int index = (int)(intptr_t)arg;
	const struct qs_trace *tr = &Q.trace;
	uint64_t npages = (tr->elems + tr->elems_per_page - 1) / tr->elems_per_page;
	uint64_t base = sys_mmap_anon(npages, VM_READ | VM_WRITE);
	for (size_t k = 0; k < tr->n; k++) {
		const struct qs_touch *t = &tr->t[k];
		uint32_t ops = qs_touch_ops(t);
		if (ops && Q.p.op_ns)
			sys_compute((uint64_t)ops * Q.p.op_ns);
		sys_touch(base + t->page, qs_touch_write(t) ? TOUCH_WRITE : TOUCH_READ);
	}
	/* A trace cut at the time limit's operations ends past that limit, so no child gets
	 * here; if one did, it must not report a sort it never did: it works on to the limit. */
	if (tr->truncated)
		sys_compute(Q.time_limit);
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

static int qsbench_start(const struct scenario_config *cfg, uint64_t seed)
{
	(void)seed; /* qsbench's own -s decides everything */
	memset(&Q, 0, sizeof(Q));
	Q.p = cfg->qsbench;
	uint64_t epp = MM->page_size / sizeof(int32_t), n = Q.p.size / sizeof(int32_t);
	/* With run.time_limit a child can do at most time_limit / op_ns operations (each costs
	 * op_ns of its CPU, and its CPU time is at most the elapsed time), so the trace past
	 * them is never replayed: building it would cost the host the whole real sort. */
	Q.time_limit = cfg->time_limit;
	uint64_t max_ops = 0;
	if (cfg->time_limit && Q.p.op_ns)
		max_ops = cfg->time_limit / Q.p.op_ns ? cfg->time_limit / Q.p.op_ns : 1;
	if (!cache.valid || cache.elems != n || cache.seed != Q.p.seed ||
	    cache.elems_per_page != epp || cache.max_ops != max_ops) {
		qs_trace_free(&cache.trace);
		cache.valid = false;
		if (qs_trace_build(&cache.trace, NULL, n, (uint32_t)Q.p.seed, epp, max_ops))
			return -1;
		cache.elems = n;
		cache.seed = Q.p.seed;
		cache.elems_per_page = epp;
		cache.max_ops = max_ops;
		cache.valid = true;
	}
	Q.trace = cache.trace;
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

/* Host memory: the tasks alive at once at most (the parent and its children), and each
 * array's PTEs, one 32-bit entry per page as a file's index. */
static uint64_t qsbench_host_bytes(const struct scenario_config *cfg)
{
	/* and the sort run on the host to record its references (qsort_trace.c): a copy of the
	 * array, and the touches, about two per page per level of the recursion */
	uint64_t pages = cfg->qsbench.size / 4096 + 1, levels = 1;
	while ((1ull << levels) < cfg->qsbench.size / 4 + 1)
		levels++;
	uint64_t sort = cfg->qsbench.size + 2 * pages * levels * sizeof(uint64_t);
	return scenario_task_host_bytes((uint64_t)cfg->qsbench.processes + 1) +
	       (uint64_t)cfg->qsbench.processes * scenario_file_host_bytes(cfg, cfg->qsbench.size) +
	       sort;
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
};
