/* mmsim run: one scenario in system mode, its text report and JSON (docs/run-json.md).
 * mmsim run SCENARIO [--set key=value]... [--seed N] [--json FILE] [--quiet] [--check N]
 * [--sample INTERVAL] [--trace FILE [--trace-filter GLOBS]] */
#include "cli/commands.h"
#include "cli/run_output.h"
#include "cli/scenario_file.h"
#include "cli/trace_source.h"
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
	    "                 [--quiet] [--check N] [--sample INTERVAL] [--dry-run]\n"
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
	    "  --trace FILE     write the reclaim tracepoints (mm_vmscan_*, writeback_*, ...)\n"
	    "                   in the kernel's trace_pipe text format; - for stdout\n"
	    "  --trace-filter GLOBS  only the events whose names match one of the\n"
	    "                   comma-separated globs (mm_vmscan_direct_*,writeback_*)\n\n"
	    "hardware profiles:");
	for (const char *const *n = hw_profile_names(); *n; n++)
		fprintf(out, " %s", *n);
	fprintf(out, "\nexit status: 0 done (finished, or stopped at run.time_limit: see \"completed\"),\n"
		     "             1 failed run (the workload's input was unusable, or an invariant was\n"
		     "             violated); a benchmark that ran and failed (OOM kills) exits 0\n"
		     "             2 bad usage or bad input\n");
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
	OPT_TRACE,
	OPT_TRACE_FILTER,
	OPT_DRY_RUN
};

int cmd_run(int argc, char **argv)
{
	const char *file = NULL, *json = NULL, *trace = NULL, *trace_filter = NULL;
	uint64_t seed = 1, check_every = 0;
	sim_time_t sample_every = 0;
	bool quiet = false, dry_run = false;
	const char **overrides = xcalloc((size_t)argc, sizeof(char *));
	char **canon = xcalloc((size_t)argc, sizeof(char *));
	int nov = 0;
	int ret = 2;
	static const struct option lo[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"keys", no_argument, NULL, OPT_KEYS},
	    {"set", required_argument, NULL, OPT_SET},
	    {"seed", required_argument, NULL, OPT_SEED},
	    {"check", required_argument, NULL, OPT_CHECK},
	    {"json", required_argument, NULL, OPT_JSON},
	    {"quiet", no_argument, NULL, OPT_QUIET},
	    {"sample", required_argument, NULL, OPT_SAMPLE},
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
			ret = 0;
			goto out;
		case OPT_KEYS:
			list_keys();
			ret = 0;
			goto out;
		case OPT_SET:
			overrides[nov++] = optarg;
			break;
		case OPT_SEED:
			if (parse_u64_arg(optarg, &seed)) {
				fprintf(stderr,
					"mmsim run: --seed: expected a non-negative integer, got "
					"'%s'\n",
					optarg);
				goto out;
			}
			break;
		case OPT_CHECK:
			if (parse_u64_arg(optarg, &check_every)) {
				fprintf(stderr,
					"mmsim run: --check: expected a non-negative integer, got "
					"'%s'\n",
					optarg);
				goto out;
			}
			break;
		case OPT_JSON:
			json = optarg;
			break;
		case OPT_QUIET:
			quiet = true;
			break;
		case OPT_SAMPLE:
			if (parse_interval(optarg, &sample_every))
				goto out;
			break;
		case OPT_TRACE:
			trace = optarg;
			break;
		case OPT_TRACE_FILTER:
			trace_filter = optarg;
			break;
		case OPT_DRY_RUN:
			dry_run = true;
			break;
		case 1: /* a non-option argument, in its place */
			if (!file) {
				file = optarg;
				break;
			}
			fprintf(stderr, "mmsim run: more than one scenario file ('%s')\n", optarg);
			goto out;
		default:
			cli_unknown_option("run", argv);
			goto out;
		}
	}
	if (!file) {
		run_usage(stderr);
		goto out;
	}
	struct scenario_config cfg;
	scenario_defaults(&cfg);
	char err[1024];
	if (scenario_load_file(&cfg, file, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmsim run: %s\n", err);
		goto out;
	}
	for (int i = 0; i < nov; i++) {
		char origin[64];
		snprintf(origin, sizeof(origin), "--set:%d", i + 1);
		if (scenario_apply_override(&cfg, overrides[i], origin, err, sizeof(err)) != 0) {
			fprintf(stderr, "mmsim run: %s\n", err);
			goto out;
		}
		/* the JSON's overrides as applied: "vm.swappiness = 10" is vm.swappiness */
		canon[i] = xmalloc(strlen(overrides[i]) + 1);
		scenario_override_canonical(overrides[i], canon[i], strlen(overrides[i]) + 1);
		overrides[i] = canon[i];
	}
	if (scenario_check(&cfg, file, err, sizeof(err)) != 0) {
		fprintf(stderr, "mmsim run: %s\n", err);
		goto out;
	}
	if (dry_run) { /* the harness checks every arm and point this way before any run */
		ret = 0;
		goto out;
	}
	if (check_every)
		cfg.check_every = check_every;
	cfg.sample_every = sample_every;
	FILE *tf = NULL;
	if (trace || trace_filter) {
		if (!trace) {
			fprintf(stderr, "mmsim run: --trace-filter without --trace FILE\n");
			goto out;
		}
		tf = strcmp(trace, "-") ? fopen(trace, "w") : stdout;
		if (!tf) {
			fprintf(stderr, "mmsim run: cannot write %s: %s\n", trace, strerror(errno));
			goto out;
		}
		static char tbuf[1 << 16];
		setvbuf(tf, tbuf, _IOFBF, sizeof(tbuf));
		if (mm_trace_start(tf, trace_filter, err, sizeof(err)) != 0) {
			fprintf(stderr, "mmsim run: %s\n", err);
			if (tf != stdout)
				fclose(tf);
			goto out;
		}
	}
	struct run_result res;
	trace_source_register();
	int rc = scenario_run(&cfg, seed, &res, cfg.check_every ? mm_check_invariants : NULL);
	if (tf) {
		mm_trace_stop();
		if ((tf != stdout && fclose(tf) != 0) || (tf == stdout && fflush(tf) != 0)) {
			fprintf(stderr, "mmsim run: cannot write %s: %s\n", trace, strerror(errno));
			rc = -1;
		}
	}
	if (rc != 0) {
		fprintf(stderr, "mmsim run: the run failed%s\n",
			cfg.check_every ? " (an invariant was violated, see above)" : "");
		run_result_free(&res);
		ret = 1;
		goto out;
	}
	struct run_meta meta = {file, seed, overrides, nov};
	if (!quiet)
		run_print_text(stdout, &meta, &cfg, &res);
	ret = 0;
	if (res.wl.input_error) { /* the workload's input was unusable: no measurement */
		fprintf(stderr, "mmsim run: the workload failed: %s\n", why_failed(res.wl.text));
		ret = 1;
	}
	if (json) {
		char *txt = run_to_json(&meta, &cfg, &res);
		FILE *f = strcmp(json, "-") ? fopen(json, "w") : stdout;
		if (!f || fputs(txt, f) < 0 || (f != stdout && fclose(f) != 0)) {
			fprintf(stderr, "mmsim run: cannot write %s: %s\n", json, strerror(errno));
			ret = 1;
		}
		free(txt);
	}
	run_result_free(&res);
out:
	for (int i = 0; i < argc; i++)
		free(canon[i]);
	free(canon);
	free(overrides);
	return ret;
}
