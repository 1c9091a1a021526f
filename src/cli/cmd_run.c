/* mmsim run SCENARIO [--set key=value]... [--seed N] [--json FILE] [--quiet] [--check N] */
#include "cli/commands.h"
#include "cli/run_output.h"
#include "cli/scenario_file.h"
#include "cli/trace_source.h"
#include "hw/profile.h"
#include "mm/mm.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: mmsim run SCENARIO.conf [--set key=value]... [--seed N] [--json FILE]\n"
	    "                 [--quiet] [--check N] [--dry-run]\n"
	    "       mmsim run --keys      list every scenario key with its range\n\n"
	    "Runs one scenario in system mode and prints a /usr/bin/time-style summary, the\n"
	    "workload's figure of merit, reclaim statistics and /proc/vmstat.\n\n"
	    "  --set key=value  override a scenario key (repeatable)\n"
	    "  --seed N         random seed (default 1); same seed, same bytes\n"
	    "  --json FILE      also write every result as JSON (docs/run-json.md); - for stdout\n"
	    "  --quiet          no text report\n"
	    "  --dry-run        parse and validate only; exit 0 or 2\n"
	    "  --check N        run the invariant checker every N events (exit 1 on a "
	    "violation)\n\n"
	    "hardware profiles:");
	for (const char *const *n = hw_profile_names(); *n; n++)
		fprintf(out, " %s", *n);
	fprintf(
	    out,
	    "\nexit status: 0 done (finished, or stopped at run.time_limit: see \"completed\"),\n"
	    "             1 failed run (the workload failed, or an invariant was violated),\n"
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

int cmd_run(int argc, char **argv)
{
	const char *file = NULL, *json = NULL;
	uint64_t seed = 1, check_every = 0;
	bool quiet = false, dry_run = false;
	const char **overrides = xcalloc((size_t)argc, sizeof(char *));
	char **canon = xcalloc((size_t)argc, sizeof(char *));
	int nov = 0;
	int ret = 2;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			run_usage(stdout);
			ret = 0;
			goto out;
		} else if (!strcmp(a, "--keys")) {
			list_keys();
			ret = 0;
			goto out;
		} else if (!strcmp(a, "--set") && i + 1 < argc) {
			overrides[nov++] = argv[++i];
		} else if (!strcmp(a, "--seed") && i + 1 < argc) {
			if (parse_u64_arg(argv[++i], &seed)) {
				fprintf(stderr,
					"mmsim run: --seed: expected a non-negative integer, got "
					"'%s'\n",
					argv[i]);
				goto out;
			}
		} else if (!strcmp(a, "--check") && i + 1 < argc) {
			if (parse_u64_arg(argv[++i], &check_every)) {
				fprintf(stderr,
					"mmsim run: --check: expected a non-negative integer, got "
					"'%s'\n",
					argv[i]);
				goto out;
			}
		} else if (!strcmp(a, "--json") && i + 1 < argc) {
			json = argv[++i];
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--dry-run")) {
			dry_run = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(
			    stderr,
			    "mmsim run: unknown or incomplete option '%s' (try mmsim run --help)\n",
			    a);
			goto out;
		} else if (!file) {
			file = a;
		} else {
			fprintf(stderr, "mmsim run: more than one scenario file ('%s')\n", a);
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
	struct run_result res;
	trace_source_register();
	int rc = scenario_run(&cfg, seed, &res, cfg.check_every ? mm_check_invariants : NULL);
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
	if (res.failed) { /* the workload ran but failed: no measurement (the JSON says why) */
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
