/* mmsim run: one scenario in system mode, its text report and JSON (docs/run-json.md).
 * mmsim run SCENARIO [--set key=value]... [--seed N] [--json FILE] [--quiet] [--check N]
 * [--sample INTERVAL] [--trace FILE [--trace-filter GLOBS]] */
#include "cli/commands.h"
#include "cli/run_output.h"
#include "cli/scenario_file.h"
#include "cli/trace_source.h"
#include "harness/exec.h"
#include "hw/profile.h"
#include "mm/mm.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: mmsim run SCENARIO.conf [--set key=value]... [--seed N] [--json FILE]\n"
	    "                 [--quiet] [--check N] [--sample INTERVAL [--sample-tasks]\n"
	    "                 [--sample-disks]] [--dry-run]\n"
	    "                 [--trace FILE [--trace-filter GLOB[,GLOB...]]]\n"
	    "       mmsim run --keys      list every scenario key with its range\n\n"
	    "Runs one scenario in system mode and prints a /usr/bin/time-style summary, the\n"
	    "workload's figure of merit, reclaim statistics and /proc/vmstat.\n\n"
	    "  --set key=value  override a scenario key (repeatable)\n"
	    "  --seed N         random seed (default 1); same seed, same bytes\n"
	    "  --json FILE      also write every result as JSON (docs/run-json.md); - for stdout\n"
	    "  --quiet          no text report\n"
	    "  --dry-run        parse and validate only; exit 0 or 2\n"
	    "  --check N        run the invariant checker every N events (exit 1 on a "
	    "violation)\n"
	    "  --sample INTERVAL  record every vmstat counter, per-zone free/LRU sizes, the\n"
	    "                   reclaimers running and the swap in use every INTERVAL of\n"
	    "                   simulated time (100ms, 1s) into the JSON's \"samples\"\n"
	    "  --sample-tasks   with --sample: also every live task's state, CPU time, resident\n"
	    "                   pages and faults (as top) into \"task_samples\"\n"
	    "  --sample-disks   with --sample: also every disk's requests, sectors, merges,\n"
	    "                   busy time and requests in flight (as iostat) into\n"
	    "                   \"disk_samples\"\n"
	    "  --trace FILE     write the reclaim tracepoints (mm_vmscan_*, writeback_*, ...)\n"
	    "                   in the kernel's trace_pipe text format; - for stdout\n"
	    "  --trace-filter GLOBS  only the events whose names match one of the\n"
	    "                   comma-separated globs (mm_vmscan_direct_*,writeback_*)\n\n"
	    "hardware profiles:");
	for (const char *const *n = hw_profile_names(); *n; n++)
		fprintf(out, " %s", *n);
	fprintf(
	    out,
	    "\nexit status: 0 done (finished, or stopped at run.time_limit: see \"completed\"),\n"
	    "             1 failed run (the workload's input was unusable, or an invariant was\n"
	    "             violated): no result\n"
	    "             2 bad usage or bad input\n"
	    "             3 the benchmark failed inside the modelled machine (a worker\n"
	    "             OOM-killed, a fork refused): the report and JSON are written, with\n"
	    "             \"failed\": true and no figure of merit\n");
}

static void list_keys(void)
{
	size_t n;
	const struct param_desc *t = scenario_params(&n);
	for (size_t i = 0; i < n; i++) {
		char exp[256];
		param_expected(&t[i], exp, sizeof(exp));
		printf("%-32s %s; %s\n", t[i].name, t[i].help, exp);
	}
}

/* The benchmark's report line that says why it failed ("error"), else its last line. */
static const char *why_failed(const char *text)
{
	static char line[256];
	const char *best = NULL, *last = text;
	for (const char *q = text; *q;) {
		size_t n = strcspn(q, "\n");
		if (n)
			last = q;
		char buf[512];
		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1),
			 q);
		if (!best && (strstr(buf, "error") || strstr(buf, "failed")))
			best = q;
		q += n + (q[n] == '\n');
	}
	const char *p = best ? best : last;
	size_t n = strcspn(p, "\n");
	snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) - 1 ? n : sizeof(line) - 1), p);
	return line;
}

static int parse_u64_arg(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	if (!*s || *s == '-')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int parse_interval(const char *s, sim_time_t *out)
{
	/* from 1 us: a finer monitor would only repeat the state between events */
	static const struct param_desc d = {"--sample", P_TIME, 0, 1000, INT64_MAX, NULL, NULL};
	uint64_t v;
	char err[256];
	if (param_parse(&d, &v, s, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmsim run: --sample: %s\n", err);
		return -1;
	}
	*out = v;
	return 0;
}

enum {
	OPT_SET = 256,
	OPT_SEED,
	OPT_CHECK,
	OPT_JSON,
	OPT_QUIET,
	OPT_KEYS,
	OPT_SAMPLE,
	OPT_SAMPLE_TASKS,
	OPT_SAMPLE_DISKS,
	OPT_TRACE,
	OPT_TRACE_FILTER,
	OPT_DRY_RUN
};

struct run_args {
	const char *file, *json, *trace, *trace_filter;
	uint64_t seed, check_every;
	sim_time_t sample_every;
	unsigned sample_what; /* SAMPLE_TASKS | SAMPLE_DISKS */
	bool quiet, dry_run;
	const char **overrides; /* argc entries, nov used */
	int nov;
};

/* The command line. 0 to go on, 1 when it was answered (--help, --keys), 2 on bad input
 * (reported). */
static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	static const struct option lo[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"keys", no_argument, NULL, OPT_KEYS},
	    {"set", required_argument, NULL, OPT_SET},
	    {"seed", required_argument, NULL, OPT_SEED},
	    {"check", required_argument, NULL, OPT_CHECK},
	    {"json", required_argument, NULL, OPT_JSON},
	    {"quiet", no_argument, NULL, OPT_QUIET},
	    {"sample", required_argument, NULL, OPT_SAMPLE},
	    {"sample-tasks", no_argument, NULL, OPT_SAMPLE_TASKS},
	    {"sample-disks", no_argument, NULL, OPT_SAMPLE_DISKS},
	    {"trace", required_argument, NULL, OPT_TRACE},
	    {"trace-filter", required_argument, NULL, OPT_TRACE_FILTER},
	    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
	    {NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "-h", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			run_usage(stdout);
			return 1;
		case OPT_KEYS:
			list_keys();
			return 1;
		case OPT_SET:
			a->overrides[a->nov++] = optarg;
			break;
		case OPT_SEED:
		case OPT_CHECK:
			if (parse_u64_arg(optarg, c == OPT_SEED ? &a->seed : &a->check_every)) {
				fprintf(stderr,
					"mmsim run: --%s: expected a non-negative integer, got "
					"'%s'\n",
					c == OPT_SEED ? "seed" : "check", optarg);
				return 2;
			}
			break;
		case OPT_JSON:
			a->json = optarg;
			break;
		case OPT_QUIET:
			a->quiet = true;
			break;
		case OPT_SAMPLE:
			if (parse_interval(optarg, &a->sample_every))
				return 2;
			break;
		case OPT_SAMPLE_TASKS:
			a->sample_what |= SAMPLE_TASKS;
			break;
		case OPT_SAMPLE_DISKS:
			a->sample_what |= SAMPLE_DISKS;
			break;
		case OPT_TRACE:
			a->trace = optarg;
			break;
		case OPT_TRACE_FILTER:
			a->trace_filter = optarg;
			break;
		case OPT_DRY_RUN:
			a->dry_run = true;
			break;
		case 1: /* a non-option argument, in its place */
			if (!a->file) {
				a->file = optarg;
				break;
			}
			fprintf(stderr, "mmsim run: more than one scenario file ('%s')\n", optarg);
			return 2;
		default:
			cli_unknown_option("run", argv);
			return 2;
		}
	}
	if (!a->file) {
		run_usage(stderr);
		return 2;
	}
	if (a->sample_what && !a->sample_every) {
		fprintf(stderr, "mmsim run: --sample-%s needs --sample INTERVAL\n",
			a->sample_what & SAMPLE_TASKS ? "tasks" : "disks");
		return 2;
	}
	return 0;
}

/* The scenario file, then every --set in order (canon[] gets each as applied, for the JSON),
 * then the checks that need more than one key. 0, or -1 with the error printed. */
static int load_scenario(struct scenario_config *cfg, struct run_args *a, char **canon)
{
	char err[1024];
	scenario_defaults(cfg);
	if (scenario_load_file(cfg, a->file, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmsim run: %s\n", err);
		return -1;
	}
	for (int i = 0; i < a->nov; i++) {
		char origin[64];
		snprintf(origin, sizeof(origin), "--set:%d", i + 1);
		if (scenario_apply_override(cfg, a->overrides[i], origin, err, sizeof(err)) != 0) {
			fprintf(stderr, "mmsim run: %s\n", err);
			return -1;
		}
		/* the JSON's overrides as applied: "vm.swappiness = 10" is vm.swappiness */
		canon[i] = xmalloc(strlen(a->overrides[i]) + 1);
		scenario_override_canonical(a->overrides[i], canon[i], strlen(a->overrides[i]) + 1);
		a->overrides[i] = canon[i];
	}
	if (scenario_check(cfg, a->file, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmsim run: %s\n", err);
		return -1;
	}
	return 0;
}

/* --trace FILE [--trace-filter GLOBS]: *out is the open file, or NULL when not tracing.
 * 0, or -1 with the error printed. */
static int start_trace(const struct run_args *a, FILE **out)
{
	*out = NULL;
	if (!a->trace && !a->trace_filter)
		return 0;
	if (!a->trace) {
		fprintf(stderr, "mmsim run: --trace-filter without --trace FILE\n");
		return -1;
	}
	FILE *tf = strcmp(a->trace, "-") ? fopen(a->trace, "w") : stdout;
	if (!tf) {
		fprintf(stderr, "mmsim run: cannot write %s: %s\n", a->trace, strerror(errno));
		return -1;
	}
	static char tbuf[1 << 16];
	setvbuf(tf, tbuf, _IOFBF, sizeof(tbuf));
	char err[1024];
	if (mm_trace_start(tf, a->trace_filter, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmsim run: %s\n", err);
		if (tf != stdout)
			fclose(tf);
		return -1;
	}
	*out = tf;
	return 0;
}

/* 0, or -1 when the trace could not be written whole (reported). */
static int stop_trace(FILE *tf, const char *path)
{
	if (!tf)
		return 0;
	mm_trace_stop();
	if ((tf != stdout && fclose(tf) != 0) || (tf == stdout && fflush(tf) != 0)) {
		fprintf(stderr, "mmsim run: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* 0, or 1 when the file could not be written (reported). */
static int write_json(const char *json, const struct run_meta *meta,
		      const struct scenario_config *cfg, const struct run_result *res)
{
	char *txt = run_to_json(meta, cfg, res);
	FILE *f = strcmp(json, "-") ? fopen(json, "w") : stdout;
	int ret = 0;
	if (!f || fputs(txt, f) < 0 || (f != stdout && fclose(f) != 0)) {
		fprintf(stderr, "mmsim run: cannot write %s: %s\n", json, strerror(errno));
		ret = 1;
	}
	free(txt);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = {.seed = 1};
	a.overrides = xcalloc((size_t)argc, sizeof(char *));
	char **canon = xcalloc((size_t)argc, sizeof(char *));
	int ret = parse_run_args(argc, argv, &a);
	if (ret) {
		ret = ret == 1 ? 0 : 2;
		goto out;
	}
	ret = 2;
	struct scenario_config cfg;
	if (load_scenario(&cfg, &a, canon) != 0)
		goto out;
	if (a.dry_run) { /* the harness checks every arm and point this way before any run */
		ret = 0;
		goto out;
	}
	if (a.check_every)
		cfg.check_every = a.check_every;
	cfg.sample_every = a.sample_every;
	cfg.sample_what = a.sample_what;
	FILE *tf;
	if (start_trace(&a, &tf) != 0)
		goto out;
	struct run_result res;
	trace_source_register();
	int rc = scenario_run(&cfg, a.seed, &res, cfg.check_every ? mm_check_invariants : NULL);
	if (stop_trace(tf, a.trace) != 0)
		rc = -1;
	if (rc == SCENARIO_REFUSED) {
		const char *key = NULL;
		const char *why = scenario_refusal(&key);
		char err[1024];
		scenario_key_error(&cfg, a.file, key, why, err, sizeof(err));
		fprintf(stderr, "mmsim run: %s\n", err);
		run_result_free(&res);
		ret = 2;
		goto out;
	}
	if (rc == SCENARIO_NO_START) {
		fprintf(stderr, "mmsim run: the workload could not start in the modelled machine "
				"(its input is unusable, or no memory was left for its first "
				"process)\n");
		run_result_free(&res);
		ret = 1;
		goto out;
	}
	if (rc != 0) {
		fprintf(stderr, "mmsim run: the run failed%s\n",
			cfg.check_every ? " (an invariant was violated, see above)" : "");
		run_result_free(&res);
		ret = 1;
		goto out;
	}
	struct run_meta meta = {a.file, a.seed, a.overrides, a.nov};
	if (!a.quiet)
		run_print_text(stdout, &meta, &cfg, &res);
	ret = 0;
	if (res.failed && !res.wl.input_error) { /* a prediction of the model, not a fault of the
						    run: kept, but not 0 */
		if (res.rstats.oom_kills)
			fprintf(stderr,
				"mmsim run: the benchmark failed: %llu task(s) OOM-killed\n",
				(unsigned long long)res.rstats.oom_kills);
		else
			fprintf(stderr, "mmsim run: the benchmark failed: %s\n",
				why_failed(res.wl.text));
		ret = RUN_EXIT_BENCHMARK_FAILED;
	}
	if (res.wl.input_error) { /* the workload's input was unusable: no measurement */
		fprintf(stderr, "mmsim run: the workload failed: %s\n", why_failed(res.wl.text));
		ret = 1;
	}
	if (a.json && write_json(a.json, &meta, &cfg, &res))
		ret = 1;
	run_result_free(&res);
out:
	for (int i = 0; i < argc; i++)
		free(canon[i]);
	free(canon);
	free(a.overrides);
	return ret;
}
