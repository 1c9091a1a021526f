/* mmsim import: `mmsim run --json` documents made elsewhere (an --emit-jobs line run by GNU
 * parallel or a Slurm array) into the results store, under the key a local run would have. */
#include "cli/commands.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/plan.h"
#include "harness/runres.h"
#include "harness/store.h"
#include "version.h"

static const char usage[] =
    "usage: mmsim import [--db FILE] [--scenario FILE] [--replace] JSON...\n"
    "\n"
    "Loads `mmsim run --json` outputs (for instance from the commands `mmsim sweep\n"
    "--emit-jobs` wrote, run by GNU parallel or a Slurm array job) into the results store,\n"
    "under the same key a local run would have: the scenario file's content, the\n"
    "overrides, the seed and the mmsim version the JSON reports. The scenario file is read\n"
    "from the path in the JSON (relative to the current directory) unless --scenario says\n"
    "where it is.\n"
    "\n"
    "  --db FILE        results store (default ./" STORE_DEFAULT_PATH ")\n"
    "  --scenario FILE  the scenario the runs used\n"
    "  --replace        overwrite runs already stored (default: keep them)\n"
    "  -h, --help       this text\n";

int cmd_import(int argc, char **argv)
{
	static const struct option lo[] = {
	    {"db", required_argument, 0, 'd'},
	    {"scenario", required_argument, 0, 's'},
	    {"replace", no_argument, 0, 'r'},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	const char *db = STORE_DEFAULT_PATH, *scenario = NULL;
	int replace = 0, c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 's':
			scenario = optarg;
			break;
		case 'r':
			replace = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			return cli_unknown_option("import", argv);
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "mmsim import: no JSON files given (try mmsim import --help)\n");
		return 2;
	}
	char err[600];
	struct store *st = store_open(db, err, sizeof(err));
	if (!st) {
		fprintf(stderr, "mmsim: %s\n", err);
		return 2;
	}
	char fixed_hash[17] = "";
	if (scenario && plan_hash_file(scenario, fixed_hash, err, sizeof(err))) {
		fprintf(stderr, "mmsim import: %s\n", err);
		store_close(st);
		return 2;
	}
	/* One transaction: a large import is fast, and a killed one leaves the store as it
	 * was before, never half-written. */
	if (store_begin(st)) {
		fprintf(stderr, "mmsim: %s\n", store_error(st));
		store_close(st);
		return 2;
	}
	size_t added = 0, present = 0, bad = 0;
	for (int i = optind; i < argc; i++) {
		char *text = cli_slurp(argv[i]);
		struct run_result r;
		if (!text) {
			fprintf(stderr, "mmsim import: cannot read %s\n", argv[i]);
			bad++;
			continue;
		}
		if (runres_parse(text, &r, err, sizeof(err))) {
			fprintf(stderr, "mmsim import: %s: %s\n", argv[i], err);
			free(text);
			bad++;
			continue;
		}
		char hash[17];
		if (*fixed_hash)
			memcpy(hash, fixed_hash, sizeof(hash));
		else if (plan_hash_file(r.scenario_file, hash, err, sizeof(err))) {
			fprintf(stderr, "mmsim import: %s: %s (use --scenario)\n", argv[i], err);
			runres_free(&r);
			free(text);
			bad++;
			continue;
		}
		char key[17], *canon;
		plan_key(hash, &r.overrides, r.seed, r.version, key, &canon);
		int have = replace ? 0 : store_get(st, key, NULL);
		char *ovt = overrides_text(&r.overrides);
		struct stored_run sr = {
		    .key = key,
		    .canon = canon,
		    .scenario_hash = hash,
		    .scenario_file = scenario ? scenario : r.scenario_file,
		    .overrides = ovt,
		    .seed = r.seed,
		    .version = r.version,
		    .completed = r.completed,
		    .json = text,
		};
		int rc = have < 0 ? -1 : have ? 0 : store_put(st, &sr);
		if (!rc && have)
			present++;
		else if (!rc)
			added++;
		if (strcmp(r.version, MMSIM_VERSION))
			fprintf(stderr,
				"mmsim import: warning: %s comes from mmsim %s, this is %s; "
				"experiments of this version will not use it\n",
				argv[i], r.version, MMSIM_VERSION);
		free(ovt);
		free(canon);
		runres_free(&r);
		free(text);
		if (rc) {
			fprintf(stderr, "mmsim: %s; nothing of this import was stored\n",
				store_error(st));
			store_close(st);
			return 2;
		}
	}
	if (store_commit(st)) {
		fprintf(stderr, "mmsim: %s; nothing of this import was stored\n", store_error(st));
		store_close(st);
		return 2;
	}
	store_close(st);
	fprintf(stderr, "mmsim import: %zu stored, %zu already present, %zu unreadable\n", added,
		present, bad);
	return bad ? 2 : 0;
}
