/* compare and sweep end to end: parsing their options, expanding the experiment into runs,
 * running what the store lacks (or emitting the lines for another job runner), loading the
 * stored runs and printing or rendering their tables (docs/harness.md). */
#include "harness/driver.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/exec.h"
#include "harness/jobcmd.h"
#include "version.h"
#include "sim/xalloc.h"

static const char compare_usage[] =
    "usage: mmsim compare SCENARIO --arm NAME[:key=value[,key=value...]] ... [options]\n"
    "\n"
    "Runs every arm with several seeds and prints mmtests-style statistics per metric\n"
    "(Min, Amean or Hmean, Stddev, CoeffVar, Max, %% against the first arm, Welch's\n"
    "t-test), then the duration and vmstat blocks. Runs already in the store are reused.\n";

static const char sweep_usage[] =
    "usage: mmsim sweep SCENARIO --vary key=v1,v2,...|key=START:END:STEP ... [--arm ...]\n"
    "                   [options]\n"
    "\n"
    "Runs the cross product of the --vary lists for every arm (one implicit arm 'base'\n"
    "when none is given) and prints one row per point with the arms as columns.\n"
    "Runs already in the store are reused, so an interrupted sweep resumes.\n";

static const char common_usage[] =
    "\noptions:\n"
    "  --arm NAME[:k=v,...]  an arm and its overrides (first arm is the baseline)\n"
    "  --runs N              seeds per arm and point (default 5): seeds 1..N\n"
    "  --first-seed S        start the seeds at S instead of 1\n"
    "  --metric NAME         tabulate this result metric instead of the primary one\n"
    "                        (host_cpu_s, host_wall_s, host_peak_rss_mb: what each run\n"
    "                        cost this host, kept by the store)\n"
    "  -j, --jobs N          runs in parallel (default: online CPUs)\n"
    "  --db FILE             results store (default ./" STORE_DEFAULT_PATH ")\n"
    "  --out DIR             also write graphs and index.html into DIR\n"
    "  --emit-jobs FILE      do not run: write one `mmsim run` command per missing run\n"
    "                        (for GNU parallel or a Slurm array job), then `mmsim import`\n"
    "  --json-dir DIR        where emitted commands write their JSON (default results)\n"
    "  --emit-cmd CMD        program name in emitted commands (default mmsim)\n"
    "  --all                 with --emit-jobs, emit stored runs too\n"
    "  --no-progress         no progress bar even on a terminal\n"
    "  --sample INTERVAL     runs record vmstat samples (mmsim run --sample) into the\n"
    "                        store; stored runs without samples are run again\n"
    "  -h, --help            this text\n"
    "\nEnvironment: MMSIM_RUN_CMD replaces the program that runs each arm.\n";

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "mmsim %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try mmsim %s --help)\n", cmd);
	return 2;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	errno = 0;
	if (!s || !*s || *s == '-')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end || errno || v > max)
		return -1;
	*out = v;
	return 0;
}

/* --arm NAME:KEY=V,...: 0, or 2 with the error reported (an arm named twice is one). */
static int add_arm(struct exp_opts *o, const char *cmd, const char *spec)
{
	char err[512];
	struct arm arm;
	if (plan_parse_arm(spec, &arm, err, sizeof(err)))
		return usage_error(cmd, "%s", err);
	for (size_t a = 0; a < o->e.narms; a++)
		if (!strcmp(o->e.arms[a].name, arm.name)) {
			usage_error(cmd, "arm '%s' given twice", arm.name);
			free(arm.name);
			overrides_free(&arm.set);
			return 2;
		}
	o->e.arms = xrealloc(o->e.arms, (o->e.narms + 1) * sizeof(*o->e.arms));
	o->e.arms[o->e.narms++] = arm;
	return 0;
}

/* --vary KEY=V1,V2,...: 0, or 2 with the error reported (a key varied twice is one). */
static int add_vary(struct exp_opts *o, const char *cmd, const char *spec)
{
	char err[512];
	struct vary vr;
	if (plan_parse_vary(spec, &vr, err, sizeof(err)))
		return usage_error(cmd, "%s", err);
	o->e.vary = xrealloc(o->e.vary, (o->e.nvary + 1) * sizeof(*o->e.vary));
	o->e.vary[o->e.nvary++] = vr;
	for (size_t d = 0; d + 1 < o->e.nvary; d++)
		if (!strcmp(o->e.vary[d].key, vr.key))
			return usage_error(cmd, "key '%s' varied twice", vr.key);
	return 0;
}

static int finish_opts(struct exp_opts *o, const char *cmd, bool sweep, const char *scenario,
		       unsigned long long runs, unsigned long long first);

int driver_parse(int argc, char **argv, bool sweep, struct exp_opts *o)
{
	const char *cmd = sweep ? "sweep" : "compare";
	enum {
		O_ARM = 256,
		O_VARY,
		O_RUNS,
		O_FIRST,
		O_METRIC,
		O_DB,
		O_OUT,
		O_EMIT,
		O_JDIR,
		O_ECMD,
		O_ALL,
		O_NOPROG,
		O_SAMPLE
	};
	static const struct option lo[] = {
	    {"arm", required_argument, 0, O_ARM},
	    {"vary", required_argument, 0, O_VARY},
	    {"runs", required_argument, 0, O_RUNS},
	    {"first-seed", required_argument, 0, O_FIRST},
	    {"metric", required_argument, 0, O_METRIC},
	    {"jobs", required_argument, 0, 'j'},
	    {"db", required_argument, 0, O_DB},
	    {"out", required_argument, 0, O_OUT},
	    {"emit-jobs", required_argument, 0, O_EMIT},
	    {"json-dir", required_argument, 0, O_JDIR},
	    {"emit-cmd", required_argument, 0, O_ECMD},
	    {"all", no_argument, 0, O_ALL},
	    {"no-progress", no_argument, 0, O_NOPROG},
	    {"sample", required_argument, 0, O_SAMPLE},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	memset(o, 0, sizeof(*o));
	o->db = STORE_DEFAULT_PATH;
	o->json_dir = "results";
	o->emit_cmd = "mmsim";
	o->progress = true;
	o->parallel = exec_ncpus();
	o->e.kind = sweep ? EXP_SWEEP : EXP_COMPARE;
	o->e.version = xstrdup(MMSIM_VERSION);
	unsigned long long runs = 5, first = 1, v;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "j:h", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(sweep ? sweep_usage : compare_usage, stdout);
			fputs(common_usage, stdout);
			return 1;
		case O_ARM:
			if (add_arm(o, cmd, optarg))
				return 2;
			break;
		case O_VARY:
			if (!sweep)
				return usage_error(cmd, "%s: --vary belongs to mmsim sweep",
						   "compare");
			if (add_vary(o, cmd, optarg))
				return 2;
			break;
		case O_RUNS:
			if (parse_uint(optarg, 100000, &runs) || !runs)
				return usage_error(
				    cmd, "--runs wants a count from 1 to 100000, not '%s'", optarg);
			break;
		case O_FIRST:
			if (parse_uint(optarg, 1ULL << 53, &first))
				return usage_error(
				    cmd, "--first-seed wants a non-negative integer, not '%s'",
				    optarg);
			break;
		case O_METRIC:
			free(o->e.metric);
			o->e.metric = xstrdup(optarg);
			break;
		case 'j':
			if (parse_uint(optarg, 4096, &v) || !v)
				return usage_error(cmd, "-j wants a count from 1 to 4096, not '%s'",
						   optarg);
			o->parallel = (int)v;
			break;
		case O_DB:
			o->db = optarg;
			break;
		case O_OUT:
			o->out_dir = optarg;
			break;
		case O_EMIT:
			o->emit_jobs = optarg;
			break;
		case O_JDIR:
			o->json_dir = optarg;
			break;
		case O_ECMD:
			o->emit_cmd = optarg;
			break;
		case O_ALL:
			o->emit_all = true;
			break;
		case O_NOPROG:
			o->progress = false;
			break;
		case O_SAMPLE:
			o->sample = optarg; /* mmsim run checks it */
			break;
		default:
			return usage_error(cmd, "unknown or incomplete option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return usage_error(cmd, "%s",
				   optind >= argc ? "no SCENARIO given"
						  : "exactly one SCENARIO expected");
	return finish_opts(o, cmd, sweep, argv[optind], runs, first);
}

/* The scenario, the default arm of a sweep, and the seeds. */
static int finish_opts(struct exp_opts *o, const char *cmd, bool sweep, const char *scenario,
		       unsigned long long runs, unsigned long long first)
{
	char err[512];
	if (plan_load_scenario(&o->e, scenario, err, sizeof(err)))
		return usage_error(cmd, "%s", err);
	if (sweep && !o->e.nvary)
		return usage_error(cmd, "%s", "at least one --vary is needed");
	if (!o->e.narms) {
		if (!sweep)
			return usage_error(cmd, "%s", "at least one --arm is needed");
		o->e.arms = xcalloc(1, sizeof(*o->e.arms));
		o->e.arms[0].name = xstrdup("base");
		o->e.narms = 1;
	}
	o->e.nseeds = (size_t)runs;
	o->e.seeds = xcalloc(runs, sizeof(*o->e.seeds));
	for (size_t s = 0; s < runs; s++)
		o->e.seeds[s] = first + s;
	return 0;
}

void driver_opts_free(struct exp_opts *o)
{
	plan_free(&o->e);
}

struct store *driver_open_store(const char *path)
{
	char err[600];
	struct store *s = store_open(path, err, sizeof(err));
	if (!s)
		fprintf(stderr, "mmsim: %s\n", err);
	return s;
}

struct exec_ctx {
	const struct experiment *e;
	struct store *st;
	struct job **todo;
	size_t stored, failed, stopped;
	bool store_failed;
};

static void describe_job(FILE *f, const struct experiment *e, const struct job *j)
{
	char *ov = overrides_text(&j->ov);
	fprintf(f, "arm %s, seed %llu%s%s", e->arms[j->arm].name, (unsigned long long)j->seed,
		*ov ? ", " : "", ov);
	free(ov);
}

/* The run's document plus what it cost the host ("host", docs/run-json.md), as stored. */
static char *with_host_usage(const char *json, const struct exec_usage *u)
{
	cJSON *doc = cJSON_Parse(json);
	if (!doc)
		return NULL;
	cJSON *host = cJSON_CreateObject();
	cJSON_AddNumberToObject(host, "wall_s", round(u->wall_s * 1000) / 1000);
	cJSON_AddNumberToObject(host, "cpu_s", round(u->cpu_s * 1000) / 1000);
	cJSON_AddNumberToObject(host, "peak_rss_kb", (double)u->peak_rss_kb);
	cJSON_AddNumberToObject(host, "parallel_runs", u->parallel);
	cJSON_DeleteItemFromObjectCaseSensitive(doc, "host");
	cJSON_AddItemToObject(doc, "host", host);
	char *out = cJSON_Print(doc);
	cJSON_Delete(doc);
	return out;
}

/* "exit status 1: the workload failed: ...": how the run ended and the runner's own last
 * "mmsim run: " line, which says why. */
static void reason_from(const char *how, const char *errtext, char *out, size_t len)
{
	const char *why = NULL;
	for (const char *p = errtext; p && (p = strstr(p, "mmsim run: ")); p++)
		why = p + strlen("mmsim run: ");
	if (!why) {
		snprintf(out, len, "%s", how);
		return;
	}
	snprintf(out, len, "%s: %.*s", how, (int)strcspn(why, "\n"), why);
}

static int on_done(size_t idx, bool ok, const char *json, const char *errtext,
		   const struct exec_usage *usage, void *arg)
{
	struct exec_ctx *c = arg;
	const struct job *j = c->todo[idx];
	char err[256] = "";
	struct run_result r;
	if (ok && runres_parse(json, &r, err, sizeof(err)))
		ok = false;
	else if (ok && r.seed != j->seed) {
		snprintf(err, sizeof(err), "its JSON reports seed %llu",
			 (unsigned long long)r.seed);
		runres_free(&r);
		ok = false;
	} else if (ok && strcmp(r.version, c->e->version)) {
		/* stored under this version's key, it would pass for a run of this model */
		snprintf(err, sizeof(err),
			 "its JSON reports mmsim %s, this experiment is mmsim %s (another build as "
			 "MMSIM_RUN_CMD?)",
			 r.version, c->e->version);
		runres_free(&r);
		ok = false;
	}
	if (!ok && exec_interrupted) {
		c->stopped++; /* killed by us on the way out: not a failure of the run */
		return 0;
	}
	if (!ok) {
		c->failed++;
		char how[160];
		exec_describe_status(usage->status, how, sizeof(how));
		if (!*err)
			reason_from(how, errtext, err, sizeof(err));
		char *cmd = job_command(c->e, j);
		fprintf(stderr, "\nmmsim: run failed (");
		describe_job(stderr, c->e, j);
		fprintf(stderr, "): %s\n", err);
		if (errtext && *errtext)
			fprintf(stderr, "%s%s", errtext,
				errtext[strlen(errtext) - 1] == '\n' ? "" : "\n");
		fprintf(stderr, "mmsim: reproduce with: %s\n", cmd);
		/* never a result, but the store says why */
		char *ovt = overrides_text(&j->ov);
		struct stored_failure f = {.key = j->key,
					   .scenario_file = c->e->scenario_file,
					   .overrides = ovt,
					   .version = c->e->version,
					   .reason = err,
					   .stderr_tail = errtext,
					   .command = cmd,
					   .seed = j->seed};
		if (store_put_failure(c->st, &f))
			fprintf(stderr, "mmsim: warning: %s\n", store_error(c->st));
		free(ovt);
		free(cmd);
		return 0;
	}
	char *ovt = overrides_text(&j->ov);
	char *stored = with_host_usage(json, usage);
	struct stored_run sr = {
	    .key = j->key,
	    .canon = j->canon,
	    .scenario_hash = c->e->scenario_hash,
	    .scenario_file = c->e->scenario_file,
	    .overrides = ovt,
	    .version = c->e->version,
	    .json = stored ? stored : json,
	    .seed = j->seed,
	    .completed = r.completed,
	};
	int rc = store_put(c->st, &sr);
	free(stored);
	free(ovt);
	runres_free(&r);
	if (rc) {
		fprintf(stderr, "\nmmsim: %s\n", store_error(c->st));
		c->store_failed = true;
		return 1;
	}
	c->stored++;
	return 0;
}

/* 1 when the store holds the job's run (with samples, if they are asked for), 0 when not,
 * -1 on a store error. Sampling changes no result, so a run stored without samples is
 * replaced under the same key. */
static int have_run(struct exp_opts *o, struct store *st, const struct job *j)
{
	char *json = NULL;
	int have = store_get(st, j->key, o->sample ? &json : NULL);
	if (have == 1 && o->sample && !strstr(json, "\n\t\"samples\":"))
		have = 0;
	free(json);
	return have;
}

static int emit_jobs(struct exp_opts *o, struct store *st, struct job *jobs, size_t n)
{
	FILE *f = strcmp(o->emit_jobs, "-") ? fopen(o->emit_jobs, "w") : stdout;
	if (!f) {
		fprintf(stderr, "mmsim: cannot write %s: %s\n", o->emit_jobs, strerror(errno));
		return 2;
	}
	if (mkdir(o->json_dir, 0777) && errno != EEXIST)
		fprintf(stderr, "mmsim: warning: cannot create %s: %s\n", o->json_dir,
			strerror(errno));
	size_t written = 0, skipped = 0;
	for (size_t i = 0; i < n; i++) {
		if (!o->emit_all) {
			int have = have_run(o, st, &jobs[i]);
			if (have < 0) {
				fprintf(stderr, "mmsim: %s\n", store_error(st));
				return 2;
			}
			if (have) {
				skipped++;
				continue;
			}
		}
		shell_quote(f, o->emit_cmd);
		fputs(" run ", f);
		shell_quote(f, o->e.scenario_file);
		for (size_t k = 0; k < jobs[i].ov.n; k++) {
			char *kv;
			if (asprintf(&kv, "%s=%s", jobs[i].ov.v[k].key, jobs[i].ov.v[k].val) < 0)
				abort();
			fputs(" --set ", f);
			shell_quote(f, kv);
			free(kv);
		}
		fprintf(f, " --seed %llu", (unsigned long long)jobs[i].seed);
		if (o->sample) {
			fputs(" --sample ", f);
			shell_quote(f, o->sample);
		}
		fputs(" --json ", f);
		char *path;
		if (asprintf(&path, "%s/%s.json", o->json_dir, jobs[i].key) < 0)
			abort();
		shell_quote(f, path);
		free(path);
		fputc('\n', f);
		written++;
	}
	if (f != stdout && fclose(f)) {
		fprintf(stderr, "mmsim: error writing %s\n", o->emit_jobs);
		return 2;
	}
	fprintf(stderr, "mmsim: %zu run command(s) written to %s (%zu already stored)\n", written,
		o->emit_jobs, skipped);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs what the store lacks. Returns 0, 1 (some runs failed), 2 (store) or 130. */
static int execute_missing(struct exp_opts *o, struct store *st, struct job *jobs, size_t n)
{
	struct exec_ctx c = {.e = &o->e, .st = st};
	c.todo = xcalloc(n + 1, sizeof(*c.todo));
	size_t ntodo = 0;
	for (size_t i = 0; i < n; i++) {
		int have = have_run(o, st, &jobs[i]);
		if (have < 0) {
			fprintf(stderr, "mmsim: %s\n", store_error(st));
			free(c.todo);
			return 2;
		}
		if (!have)
			c.todo[ntodo++] = &jobs[i];
	}
	char **runner = exec_runner();
	if (ntodo && validate_points(&o->e, runner, c.todo, ntodo)) {
		exec_free_argv(runner);
		free(c.todo);
		return 2;
	}
	char ***argvs = xcalloc(ntodo + 1, sizeof(*argvs));
	for (size_t i = 0; i < ntodo; i++)
		argvs[i] = job_argv(runner, &o->e, c.todo[i], o->sample);
	double t0 = now_s();
	int rc = ntodo
		     ? exec_run((char **const *)argvs, ntodo, o->parallel, o->progress, on_done, &c)
		     : 0;
	double dt = now_s() - t0;
	fprintf(stderr,
		"mmsim: %zu runs: %zu already stored, %zu run (%zu stored, %zu failed) in "
		"%.2f s with -j %d\n",
		n, n - ntodo, c.stored + c.failed, c.stored, c.failed, dt, o->parallel);
	for (size_t i = 0; i < ntodo; i++)
		exec_free_argv(argvs[i]);
	free(argvs);
	exec_free_argv(runner);
	free(c.todo);
	if (c.store_failed)
		return 2;
	if (exec_interrupted) {
		fprintf(stderr,
			"mmsim: interrupted; %zu finished runs are stored, rerun the same "
			"command to resume\n",
			c.stored);
		return 130;
	}
	return rc < 0 ? 2 : (c.failed ? 1 : 0);
}

/* Legend: the arm, and for a sweep the point's values. */
static void add_timeseries(const struct experiment *e, const struct job *j, const char *json,
			   struct loaded *l)
{
	char label[256];
	size_t o = (size_t)snprintf(label, sizeof(label), "%s", e->arms[j->arm].name);
	for (size_t d = 0; d < e->nvary; d++)
		for (size_t k = 0; k < j->ov.n && o < sizeof(label); k++)
			if (!strcmp(j->ov.v[k].key, e->vary[d].key))
				o += (size_t)snprintf(label + o, sizeof(label) - o, " %s=%s",
						      j->ov.v[k].key, j->ov.v[k].val);
	struct timeseries ts;
	if (ts_parse(json, label, &ts) != 1)
		return;
	l->ts = xreallocarray(l->ts, l->nts + 1, sizeof(*l->ts));
	l->ts[l->nts++] = ts;
}

int driver_load(const struct experiment *e, struct store *st, struct loaded *l)
{
	char err[512];
	memset(l, 0, sizeof(*l));
	if (plan_jobs(e, &l->jobs, &l->njobs, err, sizeof(err))) {
		fprintf(stderr, "mmsim: %s\n", err);
		return 2;
	}
	l->runs = xcalloc(l->njobs + 1, sizeof(*l->runs));
	l->have = xcalloc(l->njobs + 1, sizeof(*l->have));
	for (size_t i = 0; i < l->njobs; i++) {
		char *json = NULL;
		int rc = store_get(st, l->jobs[i].key, &json);
		if (rc < 0) {
			fprintf(stderr, "mmsim: %s\n", store_error(st));
			return 2;
		}
		if (rc && !runres_parse(json, &l->runs[i], err, sizeof(err))) {
			l->have[i] = true;
			if (l->jobs[i].seed == e->seeds[0])
				add_timeseries(e, &l->jobs[i], json, l);
		} else if (rc)
			fprintf(stderr, "mmsim: warning: stored run %s is unreadable: %s\n",
				l->jobs[i].key, err);
		free(json);
	}
	l->r = results_build(e, l->jobs, l->njobs, l->runs, l->have);
	return 0;
}

void driver_loaded_free(struct loaded *l)
{
	results_free(l->r);
	for (size_t i = 0; i < l->njobs; i++)
		if (l->have[i])
			runres_free(&l->runs[i]);
	free(l->runs);
	free(l->have);
	for (size_t i = 0; i < l->nts; i++)
		ts_free(&l->ts[i]);
	free(l->ts);
	plan_jobs_free(l->jobs, l->njobs);
	memset(l, 0, sizeof(*l));
}

void driver_print(FILE *out, const struct exp_results *r)
{
	report_describe(out, r);
	struct table **t;
	size_t n = report_tables(r, &t);
	for (size_t i = 0; i < n; i++)
		table_print_text(out, t[i]);
	report_free_tables(t, n);
}

int driver_render(const char *dir, struct loaded *const *ls, const int64_t *ids, size_t n)
{
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "mmsim: cannot create %s: %s\n", dir, strerror(errno));
		return 2;
	}
	struct report_section *s = xcalloc(n + 1, sizeof(*s));
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		char prefix[64];
		snprintf(prefix, sizeof(prefix), "exp%lld", (long long)ids[i]);
		s[i].r = ls[i]->r;
		s[i].id = ids[i];
		if (plot_experiment(ls[i]->r, dir, prefix, &s[i].svgs, &s[i].nsvgs) < 0)
			rc = 1;
		if (plot_timeseries(ls[i]->ts, ls[i]->nts, ls[i]->r->e->scenario_name, dir, prefix,
				    &s[i].svgs, &s[i].nsvgs) < 0)
			rc = 1;
	}
	char *path;
	if (asprintf(&path, "%s/index.html", dir) < 0)
		abort();
	if (html_write(path, dir, s, n))
		rc = 2;
	else
		fprintf(stderr, "mmsim: report written to %s\n", path);
	free(path);
	for (size_t i = 0; i < n; i++) {
		for (size_t g = 0; g < s[i].nsvgs; g++)
			free(s[i].svgs[g]);
		free(s[i].svgs);
	}
	free(s);
	return rc;
}

/* --metric names a figure some stored run reports, or it is bad usage naming those that
 * exist (the runs are kept: the next call with a right name reuses them). */
static int check_metric(const struct exp_opts *o, const struct loaded *l)
{
	const char *want = o->e.metric;
	if (!want || !l->r->found)
		return 0;
	for (size_t i = 0; i < l->njobs; i++)
		if (l->have[i] && runres_metric(&l->runs[i], want))
			return 0;
	fprintf(stderr, "mmsim %s: --metric: no run reports '%s'; the metrics are:",
		o->e.kind == EXP_SWEEP ? "sweep" : "compare", want);
	for (size_t i = 0; i < l->njobs; i++) {
		if (!l->have[i])
			continue;
		for (size_t m = 0; m < l->runs[i].nmetrics; m++)
			fprintf(stderr, " %s", l->runs[i].metrics[m].name);
		break; /* every run of a workload lists the same ones */
	}
	fprintf(stderr, " host_cpu_s host_wall_s host_peak_rss_mb\n");
	return 2;
}

int driver_main(struct exp_opts *o)
{
	char err[512];
	struct job *jobs;
	size_t n;
	if (plan_jobs(&o->e, &jobs, &n, err, sizeof(err))) {
		fprintf(stderr, "mmsim %s: %s\n", o->e.kind == EXP_SWEEP ? "sweep" : "compare",
			err);
		return 2;
	}
	struct store *st = driver_open_store(o->db);
	if (!st) {
		plan_jobs_free(jobs, n);
		return 2;
	}
	/* The experiment is what was run, not how it is tabulated: another --metric over the
	 * same runs keeps the experiment's id. */
	char *metric = o->e.metric;
	o->e.metric = NULL;
	cJSON *spec = plan_to_json(&o->e);
	o->e.metric = metric;
	char *spec_text = cJSON_PrintUnformatted(spec);
	cJSON_Delete(spec);
	int64_t id = 0;
	int rc = 0;
	if (store_put_experiment(st, o->e.kind == EXP_SWEEP ? "sweep" : "compare", spec_text,
				 &id)) {
		fprintf(stderr, "mmsim: %s\n", store_error(st));
		rc = 2;
		goto out;
	}
	if (o->emit_jobs) {
		rc = emit_jobs(o, st, jobs, n);
		goto out;
	}
	rc = execute_missing(o, st, jobs, n);
	if (rc == 2 || rc == 130)
		goto out;
	struct loaded l;
	int lrc = driver_load(&o->e, st, &l);
	if (lrc) {
		rc = lrc;
		goto out;
	}
	if (check_metric(o, &l)) {
		driver_loaded_free(&l);
		rc = 2;
		goto out;
	}
	printf("Experiment %lld (mmsim report %lld --out DIR renders it)\n", (long long)id,
	       (long long)id);
	driver_print(stdout, l.r);
	fflush(stdout);
	if (o->out_dir) {
		struct loaded *lp = &l;
		int r2 = driver_render(o->out_dir, &lp, &id, 1);
		if (r2 && !rc)
			rc = r2;
	}
	driver_loaded_free(&l);
out:
	free(spec_text);
	plan_jobs_free(jobs, n);
	store_close(st);
	return rc;
}

int driver_command(int argc, char **argv, bool sweep)
{
	struct exp_opts o;
	int rc = driver_parse(argc, argv, sweep, &o);
	if (rc == 0)
		rc = driver_main(&o);
	else if (rc == 1)
		rc = 0;
	driver_opts_free(&o);
	return rc;
}
