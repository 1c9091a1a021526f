/* usemem (mmtests' usemem): N processes each map an anonymous region (private, or with
 * usemem.shmem a shared one, whose pages are shmem) and touch every page, sequentially
 * once, cyclically `loops` times, or at random `loops` × pages times. The figure of merit
 * is the elapsed time until the last process is done. */
#include "workloads/usemem.h"

#include "kernel/process.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const patterns[] = {"sequential", "random", "cyclic", NULL};

#define UP(f) offsetof(struct scenario_config, usemem.f)
static const struct param_desc params[] = {
    {"usemem.processes", P_INT, UP(processes), 1, 100000, NULL,
     "processes, each with its own region"},
    {"usemem.size", P_SIZE, UP(size), 4096, 1LL << 40, NULL,
     "bytes of anonymous memory per process"},
    {"usemem.pattern", P_ENUM, UP(pattern), 0, 0, patterns, "order of the touches"},
    {"usemem.loops", P_INT, UP(loops), 1, 1000000, NULL, "passes over the region"},
    {"usemem.write", P_BOOL, UP(write), 0, 1, NULL, "write each page (else read)"},
    {"usemem.per_page", P_TIME, UP(per_page_ns), 0, 1000000000, NULL, "user work per page touched"},
    {"usemem.hold", P_TIME, UP(hold), 0, 3600LL * 1000000000, NULL, "sleep after the last pass"},
    {"usemem.shmem", P_BOOL, UP(shmem), 0, 1, NULL,
     "a MAP_SHARED anonymous region: shmem, swap-backed page cache"},
    {"usemem.noreserve", P_BOOL, UP(noreserve), 0, 1, NULL,
     "map the region with MAP_NORESERVE: not committed unless vm.overcommit_memory = 2 "
     "(a shared region then commits each page as it is allocated)"},
};

struct usemem_child {
	const struct usemem_params *p;
	uint64_t seed;
	int index;
};

static struct {
	struct usemem_params p;
	struct usemem_child *children;
	int nchildren;
	sim_time_t start, end;
	bool done;
	int exited_ok, killed, fork_failed;
} U;

static void usemem_child(void *arg)
{
	struct usemem_child *c = arg;
	const struct usemem_params *p = c->p;
	uint64_t npages = p->size / MM->page_size;
	int kind = p->write ? TOUCH_WRITE : TOUCH_READ;
	unsigned prot = VM_READ | VM_WRITE | (p->noreserve ? VM_NORESERVE : 0);
	uint64_t start =
	    p->shmem ? sys_mmap_shared_anon(npages, prot) : sys_mmap_anon(npages, prot);
	if (p->pattern == USEMEM_RANDOM) {
		struct rng rng;
		rng_seed(&rng, c->seed, 100 + (uint64_t)c->index);
		uint64_t n = npages * (uint64_t)p->loops;
		for (uint64_t i = 0; i < n; i++) {
			sys_touch(start + rng_below(&rng, npages), kind);
			if (p->per_page_ns)
				sys_compute(p->per_page_ns);
		}
	} else {
		int loops = p->pattern == USEMEM_CYCLIC ? p->loops : 1;
		for (int l = 0; l < loops; l++) {
			for (uint64_t i = 0; i < npages; i++) {
				sys_touch(start + i, kind);
				if (p->per_page_ns)
					sys_compute(p->per_page_ns);
			}
		}
	}
	if (p->hold)
		sys_sleep(p->hold);
	sys_exit(0);
}

static void usemem_launcher(void *arg)
{
	(void)arg;
	U.start = local_now();
	for (int i = 0; i < U.nchildren; i++)
		if (!sys_fork("usemem", usemem_child, &U.children[i]))
			U.fork_failed++;
	int code;
	while (sys_wait(&code) >= 0) {
		if (code == 0)
			U.exited_ok++;
		else
			U.killed++;
	}
	U.end = local_now();
	U.done = true;
	sys_exit(0);
}

static int usemem_start(const struct scenario_config *cfg, uint64_t seed)
{
	memset(&U, 0, sizeof(U));
	U.p = cfg->usemem;
	U.nchildren = U.p.processes;
	U.children = xcalloc((size_t)U.nchildren, sizeof(*U.children));
	for (int i = 0; i < U.nchildren; i++) {
		U.children[i].p = &U.p;
		U.children[i].seed = seed;
		U.children[i].index = i;
	}
	struct process *init = process_spawn("usemem-launch", usemem_launcher, NULL);
	if (!init)
		return -1;
	init->is_init = true;
	return 0;
}

static bool usemem_finished(void)
{
	return U.done;
}

static void usemem_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	double secs = (double)(U.end - U.start) / 1e9;
	uint64_t bytes = U.p.size * (uint64_t)U.nchildren *
			 (U.p.pattern == USEMEM_SEQUENTIAL ? 1u : (unsigned)U.p.loops);
	/* a killed or unborn process did not move its bytes: the MB/s would not be a figure */
	r->completed = U.done && U.killed == 0 && U.fork_failed == 0;
	result_printf(r, "usemem: %d processes x %llu bytes, %s, %d loop(s)\n", U.nchildren,
		      (unsigned long long)U.p.size, patterns[U.p.pattern], U.p.loops);
	if (!U.done) {
		result_printf(r, "usemem: did not finish\n");
		return;
	}
	result_printf(r, "usemem: %d exited normally, %d killed\n", U.exited_ok, U.killed);
	if (U.fork_failed)
		result_printf(r, "usemem: fork failed for %d process(es)\n", U.fork_failed);
	if (!r->completed) { /* like hackbench after an OOM kill: a count, no figure of merit */
		result_add_metric(r, "killed", U.killed, "processes", false, false);
		return;
	}
	result_printf(r, "usemem: elapsed %.6f s, %.1f MB/s\n", secs,
		      secs > 0 ? (double)bytes / 1e6 / secs : 0.0);
	result_add_metric(r, "elapsed", secs, "s", false, true);
	result_add_metric(r, "throughput", secs > 0 ? (double)bytes / 1e6 / secs : 0.0, "MB/s",
			  true, false);
	result_add_metric(r, "killed", U.killed, "processes", false, false);
}

static void usemem_cleanup(void)
{
	free(U.children);
	U.children = NULL;
}

/* Host memory: the tasks alive at once at most (the parent and its children). */
static uint64_t usemem_host_bytes(const struct scenario_config *cfg)
{
	/* and each region's PTE array, one 32-bit entry per page as a file's index; a shmem
	 * region adds its object's index, swap entries (as many again) and shadow bytes */
	uint64_t region = scenario_file_host_bytes(cfg, cfg->usemem.size);
	if (cfg->usemem.shmem)
		region += 2 * region + region / sizeof(pfn_t);
	return scenario_task_host_bytes((uint64_t)cfg->usemem.processes + 1) +
	       (uint64_t)cfg->usemem.processes * region;
}

const struct workload usemem_workload = {
    .name = "usemem",
    .description = "N processes allocate anonymous memory and touch it (mmtests usemem)",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = usemem_start,
    .finished = usemem_finished,
    .report = usemem_report,
    .cleanup = usemem_cleanup,
    .host_bytes = usemem_host_bytes,
};
