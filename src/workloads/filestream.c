/* filestream: each process streams through its own file with read() or write() in chunks,
 * `passes` times, optionally re-reading a hot part at the start of the file every so often.
 * The figure of merit is the streaming rate in MB/s. */
#include "workloads/filestream.h"

#include "kernel/process.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const modes[] = {"read", "write", NULL};

#define FP(f) offsetof(struct scenario_config, filestream.f)
static const struct param_desc params[] = {
    {"filestream.processes", P_INT, FP(processes), 1, 10000, NULL, "processes, one file each"},
    {"filestream.size", P_SIZE, FP(size), 4096, 1LL << 42, NULL, "bytes per file"},
    {"filestream.mode", P_ENUM, FP(mode), 0, 0, modes, "read an existing file or write a new one"},
    {"filestream.passes", P_INT, FP(passes), 1, 100000, NULL, "passes over the file"},
    {"filestream.chunk", P_SIZE, FP(chunk), 4096, 1LL << 30, NULL, "bytes per read()/write()"},
    {"filestream.hot_size", P_SIZE, FP(hot_size), 0, 1LL << 42, NULL, "hot part re-read (bytes)"},
    {"filestream.hot_every", P_SIZE, FP(hot_every), 0, 1LL << 42, NULL,
     "re-read the hot part after this many bytes (0 = never)"},
    {"filestream.fsync", P_BOOL, FP(fsync), 0, 1, NULL, "fsync after each writing pass"},
    {"filestream.per_chunk", P_TIME, FP(per_chunk_ns), 0, 1000000000, NULL, "user work per chunk"},
};

struct fs_child {
	const struct filestream_params *p;
	struct address_space *file;
};

static struct {
	struct filestream_params p;
	struct fs_child *children;
	int n;
	sim_time_t start, end;
	bool done;
	int killed;
} F;

static void filestream_child(void *arg)
{
	struct fs_child *c = arg;
	const struct filestream_params *p = c->p;
	uint64_t ps = MM->page_size;
	uint64_t npages = p->size / ps;
	uint64_t chunk = MAX(p->chunk / ps, 1);
	uint64_t hot = p->hot_size / ps, every = p->hot_every / ps, since = 0;
	for (int pass = 0; pass < p->passes; pass++) {
		for (uint64_t off = 0; off < npages; off += chunk) {
			uint64_t n = MIN(chunk, npages - off);
			if (p->mode == FILESTREAM_WRITE)
				sys_write(c->file, off, n);
			else
				sys_read(c->file, off, n);
			if (p->per_chunk_ns)
				sys_compute(p->per_chunk_ns);
			since += n;
			if (every && hot && since >= every) {
				since = 0;
				for (uint64_t h = 0; h < hot; h += chunk)
					sys_read(c->file, h, MIN(chunk, hot - h));
			}
		}
		if (p->mode == FILESTREAM_WRITE && p->fsync)
			sys_fsync(c->file);
	}
	sys_exit(0);
}

static void filestream_launcher(void *arg)
{
	(void)arg;
	F.start = local_now();
	for (int i = 0; i < F.n; i++)
		sys_fork("filestream", filestream_child, &F.children[i]);
	int code;
	while (sys_wait(&code) >= 0)
		if (code)
			F.killed++;
	F.end = local_now();
	F.done = true;
	sys_exit(0);
}

/* The hot part is the file's first hot_size bytes. */
static int filestream_validate(const struct scenario_config *cfg, char *err, size_t errlen,
			       const char **key)
{
	if (cfg->filestream.hot_size > cfg->filestream.size) {
		snprintf(
		    err, errlen,
		    "filestream.hot_size (%llu) is larger than the file (filestream.size %llu)",
		    (unsigned long long)cfg->filestream.hot_size,
		    (unsigned long long)cfg->filestream.size);
		*key = "filestream.hot_size";
		return -1;
	}
	return 0;
}

static int filestream_start(const struct scenario_config *cfg, uint64_t seed)
{
	(void)seed;
	memset(&F, 0, sizeof(F));
	F.p = cfg->filestream;
	F.n = F.p.processes;
	F.children = xcalloc((size_t)F.n, sizeof(*F.children));
	uint64_t npages = F.p.size / MM->page_size;
	for (int i = 0; i < F.n; i++) {
		char name[32];
		snprintf(name, sizeof(name), "stream%d", i);
		F.children[i].p = &F.p;
		/* a file to read exists on disk, uncached; a file to write starts empty */
		F.children[i].file =
		    file_create(name, F.p.mode == FILESTREAM_READ ? npages : 0, npages, false);
	}
	struct process *init = process_spawn("filestream-launch", filestream_launcher, NULL);
	if (!init) /* the files' inodes and dentries, made first, left no kernel stack free */
		return scenario_refuse("filestream.processes",
				       "%d files (one a process) leave no memory for the first "
				       "process in %llu MiB of RAM",
				       F.n, (unsigned long long)(cfg->ram >> 20));
	init->is_init = true;
	return 0;
}

static bool filestream_finished(void)
{
	return F.done;
}

static void filestream_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	double secs = (double)(F.end - F.start) / 1e9;
	double mb = (double)F.p.size * F.n * F.p.passes / 1e6;
	r->completed = F.done;
	result_printf(r, "filestream: %d x %s %llu bytes, %d pass(es), chunk %llu\n", F.n,
		      modes[F.p.mode], (unsigned long long)F.p.size, F.p.passes,
		      (unsigned long long)F.p.chunk);
	if (!F.done) {
		result_printf(r, "filestream: did not finish\n");
		return;
	}
	result_printf(r, "filestream: %.1f MB in %.6f s = %.2f MB/s, %d killed\n", mb, secs,
		      secs > 0 ? mb / secs : 0.0, F.killed);
	result_add_metric(r, "throughput", secs > 0 ? mb / secs : 0.0, "MB/s", true, true);
	result_add_metric(r, "elapsed", secs, "s", false, false);
	result_add_metric(r, "killed", F.killed, "processes", false, false);
}

static void filestream_cleanup(void)
{
	free(F.children);
	F.children = NULL;
}

/* Host memory: the tasks alive at once at most (the parent and its children), and each
 * child's file. */
static uint64_t filestream_host_bytes(const struct scenario_config *cfg)
{
	return scenario_task_host_bytes((uint64_t)cfg->filestream.processes + 1) +
	       (uint64_t)cfg->filestream.processes *
		   scenario_file_host_bytes(cfg, cfg->filestream.size);
}

const struct workload filestream_workload = {
    .name = "filestream",
    .description = "stream files larger than memory with read() or write(), optional hot re-reads",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = filestream_start,
    .finished = filestream_finished,
    .report = filestream_report,
    .cleanup = filestream_cleanup,
    .validate = filestream_validate,
    .host_bytes = filestream_host_bytes,
};
