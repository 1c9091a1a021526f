/* What `mmsim compare`, `mmsim sweep` and `mmsim report` share: option parsing, running the
 * missing runs into the store, loading stored runs, printing and rendering. */
#ifndef MMSIM_HARNESS_DRIVER_H
#define MMSIM_HARNESS_DRIVER_H

#include <stdbool.h>
#include <stdio.h>

#include "harness/plan.h"
#include "harness/timeseries.h"
#include "harness/report.h"
#include "harness/store.h"

struct exp_opts {
	struct experiment e;
	const char *db;
	const char *out_dir;
	const char *emit_jobs;
	const char *json_dir;
	const char *emit_cmd;
	const char *sample; /* --sample INTERVAL for every run, NULL for none */
	bool emit_all;
	bool progress;
	int parallel;
};

/* Parses a compare (sweep == false) or sweep command line. 0 ok, 1 --help was printed,
 * 2 bad usage (message printed). */
int driver_parse(int argc, char **argv, bool sweep, struct exp_opts *o);
void driver_opts_free(struct exp_opts *o);

/* Opens the store or prints why not; NULL means exit 2. */
struct store *driver_open_store(const char *path);

/* The whole of compare/sweep after parsing; returns the exit status. */
int driver_main(struct exp_opts *o);

/* `mmsim compare` (sweep == false) or `mmsim sweep`: parse, run, exit status. */
int driver_command(int argc, char **argv, bool sweep);

/* Loaded runs of one experiment. */
struct loaded {
	struct job *jobs;
	size_t njobs;
	struct run_result *runs;
	bool *have;
	struct exp_results *r;
	/* the sampled runs of the first seed, one per arm and point (mmsim run --sample) */
	struct timeseries *ts;
	size_t nts;
};
int driver_load(const struct experiment *e, struct store *st, struct loaded *l);
void driver_loaded_free(struct loaded *l);

void driver_print(FILE *out, const struct exp_results *r);
/* Graphs and index.html for one or more experiments into dir (created if needed). */
int driver_render(const char *dir, struct loaded *const *ls, const int64_t *ids, size_t n);

#endif
