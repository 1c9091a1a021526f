/* mmsim report: tables, gnuplot graphs and the HTML page of stored experiments, from the
 * results store alone (docs/harness.md). */
#include "cli/commands.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/driver.h"
#include "sim/xalloc.h"

static const char usage[] =
    "usage: mmsim report [ID...] [--db FILE] [--out DIR]\n"
    "\n"
    "Prints the tables of stored experiments (compare or sweep; default: the most recent\n"
    "one) and, with --out, writes their gnuplot graphs (SVG and PNG, with the .gp and .dat\n"
    "files) and one self-contained DIR/index.html.\n"
    "\n"
    "  --db FILE    results store (default ./" STORE_DEFAULT_PATH ")\n"
    "  --out DIR    directory for graphs and index.html (created if needed)\n"
    "  -h, --help   this text\n"
    "\nExperiment ids are listed by `mmsim results --experiments`.\n";

int cmd_report(int argc, char **argv)
{
	static const struct option lo[] = {
	    {"db", required_argument, 0, 'd'},
	    {"out", required_argument, 0, 'o'},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	const char *db = STORE_DEFAULT_PATH, *out = NULL;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			return cli_unknown_option("report", argv);
		}
	}
	size_t n = argc - optind ? (size_t)(argc - optind) : 1;
	int64_t *ids = xcalloc(n, sizeof(*ids));
	for (int i = optind; i < argc; i++) {
		char *end;
		long long v = strtoll(argv[i], &end, 10);
		if (*end || v <= 0) {
			fprintf(stderr, "mmsim report: '%s' is not an experiment id\n", argv[i]);
			free(ids);
			return 2;
		}
		ids[i - optind] = v;
	}
	struct store *st = driver_open_store(db);
	if (!st) {
		free(ids);
		return 2;
	}
	struct experiment *exps = xcalloc(n, sizeof(*exps));
	struct loaded *ls = xcalloc(n, sizeof(*ls));
	struct loaded **lp = xcalloc(n, sizeof(*lp));
	size_t nloaded = 0;
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		char *spec = NULL, err[256];
		int64_t found;
		int g = store_get_experiment(st, ids[i], &found, &spec);
		if (g <= 0) {
			if (g < 0)
				fprintf(stderr, "mmsim: %s\n", store_error(st));
			else if (ids[i])
				fprintf(stderr, "mmsim report: no experiment %lld in %s\n",
					(long long)ids[i], db);
			else
				fprintf(stderr, "mmsim report: %s holds no experiment yet\n", db);
			rc = 2;
			break;
		}
		ids[i] = found;
		cJSON *j = cJSON_Parse(spec);
		free(spec);
		if (!j || plan_from_json(j, &exps[i], err, sizeof(err))) {
			fprintf(stderr, "mmsim report: experiment %lld: %s\n", (long long)found,
				j ? err : "unreadable record");
			cJSON_Delete(j);
			rc = 2;
			break;
		}
		cJSON_Delete(j);
		if ((rc = driver_load(&exps[i], st, &ls[i])))
			break;
		lp[i] = &ls[i];
		nloaded++;
		printf("Experiment %lld\n", (long long)found);
		driver_print(stdout, ls[i].r);
	}
	fflush(stdout);
	if (!rc && out)
		rc = driver_render(out, lp, ids, nloaded);
	for (size_t i = 0; i < n; i++) {
		if (i < nloaded)
			driver_loaded_free(&ls[i]);
		plan_free(&exps[i]);
	}
	free(exps);
	free(ls);
	free(lp);
	free(ids);
	store_close(st);
	return rc;
}
