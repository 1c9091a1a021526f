/* mapstream: processes write-stream a shared file mapping (kernel-reclaim.md §5.3, the
 * series' second benchmark). The figure of merit is the elapsed time until the last one has
 * unmapped its file. The file exists on disk at its full size, so a first touch reads the
 * page (with readahead) before writing it; a sparse file would be zero-filled instead, which
 * mmsim's page cache does not model (docs/writeback-series.md). */
#include "workloads/mapstream.h"

#include "kernel/process.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MP(f) offsetof(struct scenario_config, mapstream.f)
static const struct param_desc params[] = {
    {"mapstream.processes", P_INT, MP(processes), 1, 10000, NULL, "processes, one file each"},
    {"mapstream.size", P_SIZE, MP(size), 4096, 1LL << 40, NULL, "bytes mapped per process"},
    {"mapstream.passes", P_INT, MP(passes), 1, 100000, NULL, "times every page is written"},
    {"mapstream.per_page", P_TIME, MP(per_page_ns), 0, 1000000000, NULL,
     "user work per page written"},
};

void mapstream_defaults(struct mapstream_params *p)
{
	*p = (struct mapstream_params){.processes = 1, .size = 256ULL << 20, .passes = 1};
}

struct ms_child {
	struct address_space *file;
};

static struct {
	struct mapstream_params p;
	struct ms_child *c;
	sim_time_t start, end;
	int killed;
	bool done;
} S;

static void mapstream_child(void *arg)
{
	struct ms_child *c = arg;
	uint64_t npages = S.p.size / MM->page_size;
	uint64_t start = sys_mmap_file(c->file, 0, npages, VM_READ | VM_WRITE | VM_SHARED);
	for (int pass = 0; pass < S.p.passes; pass++) {
		for (uint64_t i = 0; i < npages; i++) {
			sys_touch(start + i, TOUCH_WRITE);
			if (S.p.per_page_ns)
				sys_compute(S.p.per_page_ns);
		}
	}
	sys_munmap(start); /* the dirty PTEs reach the page cache here at the latest */
	sys_exit(0);
}

static void mapstream_launcher(void *arg)
{
	(void)arg;
	S.start = local_now();
	for (int i = 0; i < S.p.processes; i++)
		sys_fork("mapstream", mapstream_child, &S.c[i]);
	int code;
	while (sys_wait(&code) >= 0)
		if (code)
			S.killed++;
	S.end = local_now();
	S.done = true;
	sys_exit(0);
}

static int mapstream_start(const struct scenario_config *cfg, uint64_t seed)
{
	(void)seed;
	memset(&S, 0, sizeof(S));
	S.p = cfg->mapstream;
	S.c = xcalloc((size_t)S.p.processes, sizeof(*S.c));
	uint64_t npages = S.p.size / MM->page_size;
	for (int i = 0; i < S.p.processes; i++) {
		char name[32];
		snprintf(name, sizeof(name), "mapstream%d", i);
		S.c[i].file = file_create(name, npages, npages, false);
	}
	struct process *init = process_spawn("mapstream-launch", mapstream_launcher, NULL);
	if (!init)
		return -1;
	init->is_init = true;
	return 0;
}

static bool mapstream_finished(void)
{
	return S.done;
}

static void mapstream_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	double secs = (double)(S.end - S.start) / 1e9;
	double mb = (double)S.p.size * S.p.processes * S.p.passes / 1e6;
	r->completed = S.done;
	result_printf(r, "mapstream: %d x %llu bytes shared file mapping, %d pass(es)\n",
		      S.p.processes, (unsigned long long)S.p.size, S.p.passes);
	if (!S.done) {
		result_printf(r, "mapstream: did not finish\n");
		return;
	}
	result_printf(r, "mapstream: elapsed %.6f s, %.1f MB/s, %d killed\n", secs,
		      secs > 0 ? mb / secs : 0.0, S.killed);
	result_add_metric(r, "elapsed", secs, "s", false, true);
	result_add_metric(r, "throughput", secs > 0 ? mb / secs : 0.0, "MB/s", true, false);
	result_add_metric(r, "killed", S.killed, "processes", false, false);
}

static void mapstream_cleanup(void)
{
	free(S.c);
	S.c = NULL;
}

/* Host memory: the tasks alive at once at most (the parent and its children), and each
 * child's file. */
static uint64_t mapstream_host_bytes(const struct scenario_config *cfg)
{
	return scenario_task_host_bytes((uint64_t)cfg->mapstream.processes + 1) +
	       (uint64_t)cfg->mapstream.processes *
		   scenario_file_host_bytes(cfg, cfg->mapstream.size) * 2; /* file and PTEs */
}

const struct workload mapstream_workload = {
    .name = "mapstream",
    .description = "write-stream a shared file mapping once (the 2011 writeback series' micro "
		   "benchmark)",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = mapstream_start,
    .finished = mapstream_finished,
    .report = mapstream_report,
    .cleanup = mapstream_cleanup,
    .host_bytes = mapstream_host_bytes,
};
