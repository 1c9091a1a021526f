/* Turns an experiment's stored runs into mmtests-style tables, graphs and an HTML page. */
#ifndef MMSIM_HARNESS_REPORT_H
#define MMSIM_HARNESS_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "harness/plan.h"
#include "harness/runres.h"
#include "harness/stats.h"
#include "harness/table.h"

struct cell {
	const struct run_result **runs;
	size_t n;
};

struct exp_results {
	const struct experiment *e;
	size_t npoints;
	struct cell *cells; /* npoints * narms, point-major */
	const char *metric; /* the figure of merit tabulated and graphed */
	const char *unit;
	enum better better;
	size_t expected, found, incomplete;
};

/* runs[i] is the result of jobs[i] (have[i] says whether there is one). */
struct exp_results *results_build(const struct experiment *e, const struct job *jobs, size_t njobs,
				  const struct run_result *runs, const bool *have);
void results_free(struct exp_results *r);
struct cell *results_cell(const struct exp_results *r, size_t point, size_t arm);
/* Values of a metric in a cell; returns how many. out must hold c->n doubles. */
size_t cell_values(const struct cell *c, const char *metric, double *out);

/* The tables of a compare (per-metric statistics, duration, vmstat) or a sweep (one row per
 * point, arms as columns). Returns the count; *out is malloc'd. */
size_t report_tables(const struct exp_results *r, struct table ***out);
void report_free_tables(struct table **t, size_t n);
/* A few lines naming the scenario, arms, varied keys and seeds. */
void report_describe(FILE *out, const struct exp_results *r);

/* Graph files written into dir as PREFIX-NAME.{dat,gp,svg,png}. Returns how many graphs
 * were drawn, -1 when gnuplot is unavailable or failed (message on stderr). The SVG file
 * names are returned in svgs (malloc'd strings, caller frees). */
int plot_experiment(const struct exp_results *r, const char *dir, const char *prefix, char ***svgs,
		    size_t *nsvgs);

/* One graph: fn writes the gnuplot commands (plotting $data) into gp and the data into dat;
 * DIR/NAME.{dat,gp,svg,png} are written. 0, or -1 (message on stderr). */
int plot_draw(const void *ctx, const char *dir, const char *name,
	      int (*fn)(const void *ctx, FILE *gp, FILE *dat));
/* Appends DIR/NAME.svg to a list of graph files. */
void plot_add_svg(char ***svgs, size_t *n, const char *dir, const char *name);
/* A gnuplot single-quoted string. */
void gp_quote(FILE *f, const char *s);

/* One self-contained HTML page. */
struct report_section {
	const struct exp_results *r;
	int64_t id;
	char **svgs;
	size_t nsvgs;
};
int html_write(const char *path, const char *dir, const struct report_section *s, size_t n);

#endif
