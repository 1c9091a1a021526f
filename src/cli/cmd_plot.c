/* mmsim plot RUN.json...|STORE [--experiment ID] [--db FILE] [--out DIR]: the time-series
 * graphs of sampled runs (mmsim run --sample), one line per run or arm. */
#include "cli/commands.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/driver.h"
#include "harness/timeseries.h"
#include "sim/xalloc.h"

static const char usage[] =
    "usage: mmsim plot RUN.json... [--out DIR]\n"
    "       mmsim plot STORE [--experiment ID] [--out DIR]\n"
    "\n"
    "Draws the samples of runs made with --sample (mmsim run, compare, sweep) with\n"
    "gnuplot: free memory, LRU list sizes, pages scanned and reclaimed per second,\n"
    "swap-ins and swap-outs per second, and the direct reclaimers running; one line per\n"
    "run file, or per arm (and sweep point, first seed) of a stored experiment.\n"
    "Writes DIR/plot-ts-*.{svg,png,gp,dat} and prints the SVG paths.\n"
    "\n"
    "  --experiment ID  the stored experiment to draw (default: the most recent)\n"
    "  --out DIR        where the graphs go (default: plots)\n"
    "  -h, --help       this text\n";

static bool is_store(const char *path)
{
	char magic[16] = {0};
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t n = fread(magic, 1, sizeof(magic), f);
	fclose(f);
	return n == sizeof(magic) && !memcmp(magic, "SQLite format 3", 16);
}

/* The legend of a run file: its name without directory and .json. */
static void file_label(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	snprintf(buf, len, "%s", b ? b + 1 : path);
	size_t l = strlen(buf);
	if (l > 5 && !strcmp(buf + l - 5, ".json"))
		buf[l - 5] = 0;
}

static int plot_files(char **files, int n, const char *out)
{
	struct timeseries *ts = xcalloc((size_t)n, sizeof(*ts));
	int rc = 0, nts = 0;
	for (int i = 0; i < n && !rc; i++) {
		char *json = cli_slurp(files[i]), label[256];
		if (!json) {
			fprintf(stderr, "mmsim plot: cannot read %s: %s\n", files[i],
				strerror(errno));
			rc = 2;
			break;
		}
		file_label(files[i], label, sizeof(label));
		int p = ts_parse(json, label, &ts[nts]);
		free(json);
		if (p < 0) {
			fprintf(stderr, "mmsim plot: %s: not a run's JSON\n", files[i]);
			rc = 2;
		} else if (p == 0) {
			fprintf(stderr,
				"mmsim plot: %s has no samples (run it with mmsim run --sample "
				"INTERVAL)\n",
				files[i]);
			rc = 2;
		} else {
			nts++;
		}
	}
	char **svgs = NULL;
	size_t nsvgs = 0;
	if (!rc && plot_timeseries(ts, (size_t)nts, nts == 1 ? ts[0].label : "runs", out, "plot",
				   &svgs, &nsvgs) < 0)
		rc = 1;
	for (size_t g = 0; g < nsvgs; g++) {
		printf("%s\n", svgs[g]);
		free(svgs[g]);
	}
	free(svgs);
	for (int i = 0; i < nts; i++)
		ts_free(&ts[i]);
	free(ts);
	return rc;
}

static int plot_store(const char *db, int64_t id, const char *out)
{
	struct store *st = driver_open_store(db);
	if (!st)
		return 2;
	char *spec = NULL, err[256];
	int64_t found;
	int rc = 2, g = store_get_experiment(st, id, &found, &spec);
	struct experiment e;
	memset(&e, 0, sizeof(e));
	cJSON *j = NULL;
	if (g <= 0) {
		if (g < 0)
			fprintf(stderr, "mmsim: %s\n", store_error(st));
		else
			fprintf(stderr, "mmsim plot: no experiment %s in %s\n",
				id ? "so numbered" : "", db);
		goto out;
	}
	j = cJSON_Parse(spec);
	if (!j || plan_from_json(j, &e, err, sizeof(err))) {
		fprintf(stderr, "mmsim plot: experiment %lld: %s\n", (long long)found,
			j ? err : "unreadable record");
		goto out;
	}
	struct loaded l;
	if ((rc = driver_load(&e, st, &l)))
		goto out;
	if (!l.nts) {
		fprintf(stderr,
			"mmsim plot: experiment %lld has no sampled runs (run it again with "
			"--sample INTERVAL)\n",
			(long long)found);
		rc = 2;
	} else {
		char prefix[64];
		snprintf(prefix, sizeof(prefix), "exp%lld", (long long)found);
		char **svgs = NULL;
		size_t nsvgs = 0;
		if (plot_timeseries(l.ts, l.nts, e.scenario_name, out, prefix, &svgs, &nsvgs) < 0)
			rc = 1;
		for (size_t k = 0; k < nsvgs; k++) {
			printf("%s\n", svgs[k]);
			free(svgs[k]);
		}
		free(svgs);
	}
	driver_loaded_free(&l);
out:
	cJSON_Delete(j);
	free(spec);
	plan_free(&e);
	store_close(st);
	return rc;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option lo[] = {
	    {"experiment", required_argument, 0, 'e'},
	    {"out", required_argument, 0, 'o'},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	const char *out = "plots";
	int64_t id = 0;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'e': {
			char *end;
			long long v = strtoll(optarg, &end, 10);
			if (*end || v <= 0) {
				fprintf(stderr, "mmsim plot: --experiment: '%s' is not an id\n",
					optarg);
				return 2;
			}
			id = v;
			break;
		}
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			return cli_unknown_option("plot", argv);
		}
	}
	if (optind >= argc) {
		fputs(usage, stderr);
		return 2;
	}
	if (mkdir(out, 0777) && errno != EEXIST) {
		fprintf(stderr, "mmsim plot: cannot create %s: %s\n", out, strerror(errno));
		return 2;
	}
	if (argc - optind == 1 && is_store(argv[optind]))
		return plot_store(argv[optind], id, out);
	if (id) {
		fprintf(stderr, "mmsim plot: --experiment needs a results store, not run files\n");
		return 2;
	}
	return plot_files(argv + optind, argc - optind, out);
}
