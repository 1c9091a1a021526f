/* mmsim results: the runs or experiments of the results store, listed, or exported as CSV or
 * as the complete run JSON documents (docs/harness.md). */
#include "cli/commands.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/runres.h"
#include "harness/store.h"
#include "harness/vmstat.h"

static const char usage[] =
    "usage: mmsim results [--db FILE] [--experiments | --failures | --csv | --json] [-o FILE]\n"
    "\n"
    "Lists the runs in the results store (key, scenario, seed, overrides, primary metric),\n"
    "or the recorded experiments, or exports every run as CSV (one row per run) or JSON\n"
    "(the complete `mmsim run --json` documents with their store keys).\n"
    "\n"
    "  --db FILE        results store (default ./" STORE_DEFAULT_PATH ")\n"
    "  --experiments    list compare/sweep experiments (ids for `mmsim report`)\n"
    "  --failures       list the runs that failed (never results): why, and the\n"
    "                   command that reproduces each\n"
    "  --csv            export CSV\n"
    "  --json           export JSON\n"
    "  -o, --output F   write the export to F instead of standard output\n"
    "  -h, --help       this text\n";

enum mode { M_LIST, M_EXPERIMENTS, M_FAILURES, M_CSV, M_JSON };

struct ctx {
	FILE *out;
	size_t n;
	cJSON *arr;
};

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.10g", v);
}

static int list_run(const struct stored_run *sr, void *arg)
{
	struct ctx *c = arg;
	struct run_result r;
	char err[256];
	const struct metric *m = NULL;
	int ok = !runres_parse(sr->json, &r, err, sizeof(err));
	if (ok)
		m = runres_primary(&r);
	if (!c->n++)
		fprintf(c->out, "%-16s  %-24s %6s  %-12s %s\n", "key", "scenario", "seed",
			"primary", "overrides");
	char val[64] = "?";
	if (m)
		snprintf(val, sizeof(val), "%.6g%s%s", m->value, *m->unit ? " " : "", m->unit);
	fprintf(c->out, "%-16s  %-24s %6llu  %-12s %s%s\n", sr->key, sr->scenario_file,
		(unsigned long long)sr->seed, val, *sr->overrides ? sr->overrides : "-",
		sr->completed ? "" : "  (did not finish)");
	if (ok)
		runres_free(&r);
	return 0;
}

static void csv_header(FILE *f)
{
	fputs("key,scenario_file,scenario_hash,version,seed,overrides,completed,"
	      "metric,value,unit,better,elapsed_s,user_s,sys_s,allocstall,"
	      "pgscan_direct,pgscan_kswapd,pswpin,pswpout,nr_vmscan_write,oom_kills,"
	      "max_parallel_reclaimers\n",
	      f);
}

static int csv_run(const struct stored_run *sr, void *arg)
{
	struct ctx *c = arg;
	FILE *f = c->out;
	if (!c->n++)
		csv_header(f);
	struct run_result r;
	char err[256];
	int ok = !runres_parse(sr->json, &r, err, sizeof(err));
	csv_field(f, sr->key);
	fputc(',', f);
	csv_field(f, sr->scenario_file);
	fprintf(f, ",%s,", sr->scenario_hash);
	csv_field(f, sr->version);
	fprintf(f, ",%llu,", (unsigned long long)sr->seed);
	csv_field(f, sr->overrides);
	fprintf(f, ",%d,", sr->completed);
	if (ok) {
		const struct metric *m = runres_primary(&r);
		if (m) {
			csv_field(f, m->name);
			fprintf(f, ",%.10g,", m->value);
			csv_field(f, m->unit);
			fprintf(f, ",%s", m->better == BETTER_HIGHER ? "higher" : "lower");
		} else { /* a run that did not finish may have no figure of merit */
			fputs(",,,", f);
		}
		double v[] = {r.elapsed_s,
			      r.user_s,
			      r.sys_s,
			      isnan(vmstat_zone_sum(&r, "allocstall"))
				  ? r.allocstall
				  : vmstat_zone_sum(&r, "allocstall"),
			      vmstat_zone_sum(&r, "pgscan_direct"),
			      vmstat_zone_sum(&r, "pgscan_kswapd"),
			      runres_counter(&r, "pswpin"),
			      runres_counter(&r, "pswpout"),
			      runres_counter(&r, "nr_vmscan_write"),
			      r.oom_kills,
			      r.max_parallel_reclaimers};
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
			fputc(',', f);
			csv_num(f, v[i]);
		}
		runres_free(&r);
	} else {
		fputs(",,,,,,,,,,,,,,,", f);
	}
	fputc('\n', f);
	return 0;
}

static int json_run(const struct stored_run *sr, void *arg)
{
	struct ctx *c = arg;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "key", sr->key);
	cJSON_AddStringToObject(o, "scenario_hash", sr->scenario_hash);
	cJSON_AddStringToObject(o, "scenario_file", sr->scenario_file);
	cJSON_AddStringToObject(o, "overrides", sr->overrides);
	cJSON_AddNumberToObject(o, "seed", (double)sr->seed);
	cJSON_AddStringToObject(o, "version", sr->version);
	cJSON *run = cJSON_Parse(sr->json);
	cJSON_AddItemToObject(o, "run", run ? run : cJSON_CreateNull());
	cJSON_AddItemToArray(c->arr, o);
	c->n++;
	return 0;
}

static int list_exp(int64_t id, const char *kind, const char *spec, void *arg)
{
	struct ctx *c = arg;
	cJSON *j = cJSON_Parse(spec);
	if (c->arr) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "id", (double)id);
		cJSON_AddStringToObject(o, "kind", kind);
		cJSON_AddItemToObject(o, "spec", j ? j : cJSON_CreateNull());
		cJSON_AddItemToArray(c->arr, o);
		return 0;
	}
	if (!c->n++)
		fprintf(c->out, "%4s  %-8s %-28s %s\n", "id", "kind", "scenario",
			"arms / vary / seeds");
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "scenario_file");
	fprintf(c->out, "%4lld  %-8s %-28s", (long long)id, kind,
		cJSON_IsString(f) ? f->valuestring : "?");
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "arms"))
	{
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(it, "name");
		fprintf(c->out, " %s", cJSON_IsString(n) ? n->valuestring : "?");
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "vary"))
	{
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(it, "key");
		fprintf(c->out, " / %s(%d)", cJSON_IsString(k) ? k->valuestring : "?",
			cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(it, "values")));
	}
	fprintf(c->out, " / %d seeds\n",
		cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "seeds")));
	cJSON_Delete(j);
	return 0;
}

static int list_failure(const struct stored_failure *f, void *arg)
{
	struct ctx *c = arg;
	if (c->arr) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "key", f->key);
		cJSON_AddStringToObject(o, "scenario_file", f->scenario_file);
		cJSON_AddStringToObject(o, "overrides", f->overrides);
		cJSON_AddNumberToObject(o, "seed", (double)f->seed);
		cJSON_AddStringToObject(o, "version", f->version);
		cJSON_AddStringToObject(o, "reason", f->reason);
		cJSON_AddStringToObject(o, "stderr", f->stderr_tail);
		cJSON_AddStringToObject(o, "command", f->command);
		cJSON_AddItemToArray(c->arr, o);
		return 0;
	}
	c->n++;
	fprintf(c->out, "%s seed %llu%s%s: %s\n    reproduce with: %s\n", f->scenario_file,
		(unsigned long long)f->seed, *f->overrides ? ", " : "", f->overrides, f->reason,
		f->command);
	return 0;
}

int cmd_results(int argc, char **argv)
{
	static const struct option lo[] = {
	    {"db", required_argument, 0, 'd'}, {"experiments", no_argument, 0, 'e'},
	    {"failures", no_argument, 0, 'f'}, {"csv", no_argument, 0, 'c'},
	    {"json", no_argument, 0, 'J'},     {"output", required_argument, 0, 'o'},
	    {"help", no_argument, 0, 'h'},     {0, 0, 0, 0},
	};
	const char *db = STORE_DEFAULT_PATH, *outpath = NULL;
	enum mode mode = M_LIST;
	int c, nmodes = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'e':
			mode = M_EXPERIMENTS;
			nmodes++;
			break;
		case 'f':
			mode = M_FAILURES;
			nmodes++;
			break;
		case 'c':
			mode = M_CSV;
			nmodes++;
			break;
		case 'J':
			mode = M_JSON;
			nmodes++;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			return cli_unknown_option("results", argv);
		}
	}
	/* "list" reads naturally after the command; accept it as the default action. */
	if (optind < argc && !strcmp(argv[optind], "list"))
		optind++;
	if (optind < argc || nmodes > 1) {
		fprintf(stderr, "mmsim results: %s (try mmsim results --help)\n",
			nmodes > 1 ? "pick one of --experiments, --failures, --csv, --json"
				   : "unexpected argument");
		return 2;
	}
	char err[600];
	struct store *st = store_open(db, err, sizeof(err));
	if (!st) {
		fprintf(stderr, "mmsim: %s\n", err);
		return 2;
	}
	FILE *out = stdout;
	if (outpath && !(out = fopen(outpath, "w"))) {
		fprintf(stderr, "mmsim results: cannot write %s: %s\n", outpath, strerror(errno));
		store_close(st);
		return 2;
	}
	struct ctx cx = {.out = out};
	int rc = 0;
	switch (mode) {
	case M_LIST:
		rc = store_each_run(st, list_run, &cx);
		if (!rc && !cx.n)
			fprintf(stderr, "mmsim results: %s holds no runs\n", db);
		break;
	case M_EXPERIMENTS:
		rc = store_each_experiment(st, list_exp, &cx);
		break;
	case M_FAILURES:
		rc = store_each_failure(st, list_failure, &cx);
		if (!rc && !cx.n)
			fprintf(stderr, "mmsim results: %s records no failed runs\n", db);
		break;
	case M_CSV:
		rc = store_each_run(st, csv_run, &cx);
		if (!rc && !cx.n)
			csv_header(out);
		break;
	case M_JSON: {
		cJSON *root = cJSON_CreateObject();
		cJSON_AddStringToObject(root, "schema", "mmsim-results/1");
		cx.arr = cJSON_AddArrayToObject(root, "experiments");
		rc = store_each_experiment(st, list_exp, &cx);
		cx.arr = cJSON_AddArrayToObject(root, "runs");
		if (!rc)
			rc = store_each_run(st, json_run, &cx);
		cx.arr = cJSON_AddArrayToObject(root, "failures");
		if (!rc)
			rc = store_each_failure(st, list_failure, &cx);
		char *text = cJSON_Print(root);
		if (!rc)
			fprintf(out, "%s\n", text);
		free(text);
		cJSON_Delete(root);
		break;
	}
	}
	if (rc)
		fprintf(stderr, "mmsim: %s\n", store_error(st));
	if (out != stdout && fclose(out)) {
		fprintf(stderr, "mmsim results: error writing %s\n", outpath);
		rc = 2;
	}
	store_close(st);
	return rc ? 2 : 0;
}
