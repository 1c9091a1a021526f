/* The samples of a run (mmsim run --sample, docs/run-json.md) reduced to what the graphs
 * draw, and the graphs: free memory, LRU sizes, pages scanned and reclaimed per second,
 * swap-ins and swap-outs per second, direct reclaimers, one line per arm. */
#ifndef MMSIM_HARNESS_TIMESERIES_H
#define MMSIM_HARNESS_TIMESERIES_H

#include <stddef.h>

enum ts_col {
	TS_FREE,	  /* nr_free_pages */
	TS_ACTIVE_ANON,	  /* nr_active_anon */
	TS_INACTIVE_ANON, /* nr_inactive_anon */
	TS_ACTIVE_FILE,	  /* nr_active_file */
	TS_INACTIVE_FILE, /* nr_inactive_file */
	TS_SCANNED,	  /* pgscan_kswapd_<zone> + pgscan_direct_<zone>, cumulative */
	TS_STOLEN,	  /* pgsteal_<zone>, cumulative */
	TS_PSWPIN,
	TS_PSWPOUT,
	TS_DIRECT, /* mmsim_direct_reclaimers */
	TS_NCOLS
};

struct timeseries {
	char *label; /* the arm's name in the legend */
	size_t n;
	double *t;	       /* seconds */
	double (*v)[TS_NCOLS]; /* NAN where a sample lacks the counter */
};

/* Reads the samples of one run document into ts (label copied). 1 when it has samples,
 * 0 when not, -1 when the JSON is unreadable. */
int ts_parse(const char *json, const char *label, struct timeseries *ts);
void ts_free(struct timeseries *ts);

/* The five graphs of n series, as DIR/PREFIX-ts-*.{dat,gp,svg,png}, their SVG paths added
 * to svgs. Returns the graphs drawn, or -1 (gnuplot missing or failed). */
int plot_timeseries(const struct timeseries *ts, size_t n, const char *title, const char *dir,
		    const char *prefix, char ***svgs, size_t *nsvgs);

#endif
