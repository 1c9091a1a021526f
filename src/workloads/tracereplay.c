/* The trace workload (see tracereplay.h). A page's dense id picks its place: ids are split
 * into chunks of 2^16 pages, each chunk an anonymous mapping (data) or a private executable
 * mapping of a text file (exec), created when the chunk is first referenced. A page referenced
 * both as data and as code is two simulated pages; docs/replay.md says so. */
#include "workloads/tracereplay.h"

#include "kernel/process.h"
#include "workloads/refsource.h"
#include "workloads/scenario.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int (*ref_source_open)(const char *path, struct ref_source *src, char *err, size_t errlen);

#define CHUNK_SHIFT 16
#define CHUNK_PAGES (1u << CHUNK_SHIFT)
#define BATCH	    256

#define TP(f) offsetof(struct scenario_config, trace.f)
static const struct param_desc params[] = {
    {"trace.file", P_STRING, TP(file[0]), 0, 0, NULL,
     "trace to replay (any format mmsim replay reads)"},
    {"trace.file2", P_STRING, TP(file[1]), 0, 0, NULL,
     "a second trace, its own process (none = unused)"},
    {"trace.file3", P_STRING, TP(file[2]), 0, 0, NULL, "a third trace (none = unused)"},
    {"trace.file4", P_STRING, TP(file[3]), 0, 0, NULL, "a fourth trace (none = unused)"},
    {"trace.copies", P_INT, TP(copies), 1, 1000, NULL, "processes replaying each trace"},
    {"trace.max_refs", P_U64, TP(max_refs), 0, 1LL << 50, NULL, "references per process (0 = all)"},
    {"trace.per_ref", P_TIME, TP(per_ref_ns), 0, 1000000000, NULL, "user work per reference"},
};

void tracewl_defaults(struct tracewl_params *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < TRACE_MAX_FILES; i++)
		snprintf(p->file[i], sizeof(p->file[i]), "none");
	p->copies = 1;
}

/* The chunk tables of one process: where each chunk of ids is mapped, 0 if not yet. */
struct chunks {
	uint64_t *vpn;
	size_t n;
};

struct replayer {
	const char *path;
	int index;
	uint64_t refs;
	char error[512];
	bool failed;
	/* the replayer's open trace and chunk tables, here rather than on its stack so that
	 * a run stopped mid-replay (time limit, OOM kill) frees them in trace_cleanup */
	struct ref_source src;
	bool open;
	struct chunks data, text;
};

static struct {
	struct tracewl_params p;
	struct replayer *r;
	int n;
	sim_time_t start, end;
	bool done;
	int killed;
	uint64_t refs;
} T;

static uint64_t chunk_base(struct chunks *c, uint32_t chunk, bool exec, int who)
{
	if (chunk >= c->n) {
		size_t n = c->n ? c->n : 4;
		while (n <= chunk)
			n *= 2;
		c->vpn = xrealloc(c->vpn, n * sizeof(*c->vpn));
		memset(c->vpn + c->n, 0, (n - c->n) * sizeof(*c->vpn));
		c->n = n;
	}
	if (!c->vpn[chunk]) {
		if (exec) {
			char name[32];
			snprintf(name, sizeof(name), "text%d.%u", who, chunk);
			struct address_space *f = file_create(name, CHUNK_PAGES, CHUNK_PAGES, true);
			c->vpn[chunk] = sys_mmap_file(f, 0, CHUNK_PAGES, VM_READ | VM_EXEC);
		} else {
			/* a chunk is the model's placement, not the traced program's mapping:
			 * not charged against vm.overcommit_memory (MAP_NORESERVE) */
			c->vpn[chunk] =
			    sys_mmap_anon(CHUNK_PAGES, VM_READ | VM_WRITE | VM_NORESERVE);
		}
	}
	return c->vpn[chunk];
}

static void replayer_release(struct replayer *r)
{
	if (r->open)
		r->src.close(r->src.ctx);
	r->open = false;
	free(r->data.vpn);
	free(r->text.vpn);
	r->data = r->text = (struct chunks){0};
}

static void replayer_main(void *arg)
{
	struct replayer *r = arg;
	struct ref_source *src = &r->src;
	if (!ref_source_open || ref_source_open(r->path, src, r->error, sizeof(r->error)) != 0) {
		if (!ref_source_open)
			snprintf(r->error, sizeof(r->error), "no trace reader in this program");
		r->failed = true;
		sys_exit(2);
	}
	r->open = true;
	struct chunks *data = &r->data, *text = &r->text;
	uint32_t ids[BATCH];
	uint8_t kinds[BATCH];
	long n;
	while ((n = src->next(src->ctx, ids, kinds, BATCH)) > 0) {
		for (long i = 0; i < n; i++) {
			bool exec = kinds[i] == REF_EXEC;
			uint64_t base =
			    chunk_base(exec ? text : data, ids[i] >> CHUNK_SHIFT, exec, r->index);
			int kind = exec			   ? TOUCH_EXEC
				   : kinds[i] == REF_WRITE ? TOUCH_WRITE
							   : TOUCH_READ;
			sys_touch(base + (ids[i] & (CHUNK_PAGES - 1)), kind);
			if (T.p.per_ref_ns)
				sys_compute(T.p.per_ref_ns);
			r->refs++;
			if (T.p.max_refs && r->refs >= T.p.max_refs)
				goto out;
		}
	}
	if (n < 0) {
		snprintf(r->error, sizeof(r->error), "%s", src->error(src->ctx));
		r->failed = true;
	}
out:
	replayer_release(r);
	sys_exit(r->failed ? 2 : 0);
}

static void launcher(void *arg)
{
	(void)arg;
	T.start = local_now();
	for (int i = 0; i < T.n; i++)
		sys_fork("replay", replayer_main, &T.r[i]);
	int code;
	while (sys_wait(&code) >= 0)
		if (code == 137 || code == 139)
			T.killed++;
	T.end = local_now();
	T.done = true;
	sys_exit(0);
}

/* A trace that cannot be opened is bad input, refused before the machine boots; one whose
 * content turns out bad is a failed run (trace_report). */
static int trace_validate(const struct scenario_config *cfg, char *err, size_t errlen,
			  const char **key)
{
	static const char *const keys[TRACE_MAX_FILES] = {"trace.file", "trace.file2",
							  "trace.file3", "trace.file4"};
	int files = 0;
	for (int i = 0; i < TRACE_MAX_FILES; i++) {
		const char *path = cfg->trace.file[i];
		if (!strcmp(path, "none"))
			continue;
		files++;
		struct stat st;
		const char *why = NULL;
		if (stat(path, &st) != 0)
			why = strerror(errno);
		else if (S_ISDIR(st.st_mode))
			why = "it is a directory";
		else if (access(path, R_OK) != 0)
			why = strerror(errno);
		if (why) {
			snprintf(err, errlen, "%s '%.200s' cannot be read: %s", keys[i], path, why);
			*key = keys[i];
			return -1;
		}
	}
	if (!files) {
		snprintf(err, errlen, "workload trace needs trace.file");
		*key = "trace.file";
		return -1;
	}
	return 0;
}

static int trace_start(const struct scenario_config *cfg, uint64_t seed)
{
	(void)seed;
	memset(&T, 0, sizeof(T));
	T.p = cfg->trace;
	int files = 0;
	for (int i = 0; i < TRACE_MAX_FILES; i++)
		if (strcmp(T.p.file[i], "none"))
			files++;
	T.n = files * T.p.copies;
	T.r = xcalloc((size_t)(T.n ? T.n : 1), sizeof(*T.r));
	int k = 0;
	for (int i = 0; i < TRACE_MAX_FILES; i++) {
		if (!strcmp(T.p.file[i], "none"))
			continue;
		for (int c = 0; c < T.p.copies; c++, k++) {
			T.r[k].path = T.p.file[i];
			T.r[k].index = k;
		}
	}
	struct process *init = process_spawn("replay-launch", launcher, NULL);
	if (!init)
		return -1;
	init->is_init = true;
	return 0;
}

static bool trace_finished(void)
{
	return T.done;
}

static void trace_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	r->completed = T.done;
	uint64_t refs = 0;
	for (int i = 0; i < T.n; i++) {
		if (T.r[i].failed) { /* a trace that could not be read is no measurement */
			r->completed = false;
			r->input_error = true;
		}
		refs += T.r[i].refs;
		result_printf(r, "replay %d: %s: %llu references%s%s\n", i, T.r[i].path,
			      (unsigned long long)T.r[i].refs, T.r[i].failed ? ", error: " : "",
			      T.r[i].failed ? T.r[i].error : "");
	}
	if (!T.done) {
		result_printf(r, "trace: did not finish\n");
		return;
	}
	double secs = (double)(T.end - T.start) / 1e9;
	result_printf(r, "trace: %d process(es), %llu references in %.6f s, %d killed\n", T.n,
		      (unsigned long long)refs, secs, T.killed);
	result_add_metric(r, "elapsed", secs, "s", false, true);
	result_add_metric(r, "references", (double)refs, "refs", true, false);
	result_add_metric(r, "killed", T.killed, "processes", false, false);
}

static void trace_cleanup(void)
{
	for (int i = 0; T.r && i < T.n; i++)
		replayer_release(&T.r[i]);
	free(T.r);
	T.r = NULL;
}

/* Host memory: the tasks alive at once at most (a replayer per trace copy, and the launcher). */
static uint64_t trace_host_bytes(const struct scenario_config *cfg)
{
	return scenario_task_host_bytes((uint64_t)cfg->trace.copies * TRACE_MAX_FILES + 1);
}

const struct workload trace_workload = {
    .name = "trace",
    .description = "replay page-reference traces as processes (mmsim capture, lackey, ARC, ...)",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = trace_start,
    .finished = trace_finished,
    .report = trace_report,
    .cleanup = trace_cleanup,
    .validate = trace_validate,
    .host_bytes = trace_host_bytes,
};
