/* Time-series graphs of sampled runs, as mmtests' graph-mmtests.sh draws its vmstat monitor:
 * gauges as they are, cumulative counters as rates between consecutive samples. */
#include "harness/timeseries.h"

#include "harness/report.h"
#include "sim/xalloc.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* pgscan_kswapd_<zone> and the like, not the machine-wide pgsteal_kswapd of later kernels */
static bool zone_line(const char *name, const char *base)
{
	static const char *const zones[] = {"dma", "dma32", "normal", "high", "movable"};
	size_t l = strlen(base);
	if (strncmp(name, base, l) || name[l] != '_')
		return false;
	for (size_t z = 0; z < sizeof(zones) / sizeof(zones[0]); z++)
		if (!strcmp(name + l + 1, zones[z]))
			return true;
	return false;
}

static void add(double *v, double x)
{
	*v = isnan(*v) ? x : *v + x;
}

static void parse_row(const cJSON *o, double *v)
{
	static const struct {
		const char *name;
		enum ts_col col;
	} plain[] = {
	    {"nr_free_pages", TS_FREE},
	    {"nr_active_anon", TS_ACTIVE_ANON},
	    {"nr_inactive_anon", TS_INACTIVE_ANON},
	    {"nr_active_file", TS_ACTIVE_FILE},
	    {"nr_inactive_file", TS_INACTIVE_FILE},
	    {"pswpin", TS_PSWPIN},
	    {"pswpout", TS_PSWPOUT},
	    {"mmsim_direct_reclaimers", TS_DIRECT},
	};
	for (int c = 0; c < TS_NCOLS; c++)
		v[c] = NAN;
	const cJSON *it;
	cJSON_ArrayForEach(it, o)
	{
		if (!cJSON_IsNumber(it))
			continue;
		const char *k = it->string;
		for (size_t p = 0; p < sizeof(plain) / sizeof(plain[0]); p++)
			if (!strcmp(k, plain[p].name))
				v[plain[p].col] = it->valuedouble;
		if (zone_line(k, "pgscan_kswapd") || zone_line(k, "pgscan_direct"))
			add(&v[TS_SCANNED], it->valuedouble);
		else if (zone_line(k, "pgsteal"))
			add(&v[TS_STOLEN], it->valuedouble);
	}
}

int ts_parse(const char *json, const char *label, struct timeseries *ts)
{
	memset(ts, 0, sizeof(*ts));
	cJSON *root = cJSON_Parse(json);
	if (!root)
		return -1;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "samples");
	int n = cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0;
	if (n <= 0) {
		cJSON_Delete(root);
		return 0;
	}
	ts->label = xstrdup(label);
	ts->t = xcalloc((size_t)n, sizeof(*ts->t));
	ts->v = xcalloc((size_t)n, sizeof(*ts->v));
	const cJSON *o;
	cJSON_ArrayForEach(o, arr)
	{
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "t");
		if (!cJSON_IsNumber(t))
			continue;
		ts->t[ts->n] = t->valuedouble;
		parse_row(o, ts->v[ts->n]);
		ts->n++;
	}
	cJSON_Delete(root);
	return ts->n > 0;
}

void ts_free(struct timeseries *ts)
{
	free(ts->label);
	free(ts->t);
	free(ts->v);
	memset(ts, 0, sizeof(*ts));
}

struct graph {
	const char *name, *title, *ylabel;
	enum ts_col cols[4];
	const char *col_names[4];
	int ncols;
	bool rate; /* per second between samples */
};

static const struct graph graphs[] = {
    {"free", "free memory", "pages", {TS_FREE}, {""}, 1, false},
    {"lru",
     "LRU list sizes",
     "pages",
     {TS_ACTIVE_ANON, TS_INACTIVE_ANON, TS_ACTIVE_FILE, TS_INACTIVE_FILE},
     {"active_anon", "inactive_anon", "active_file", "inactive_file"},
     4,
     false},
    {"reclaim",
     "pages scanned and reclaimed",
     "pages/s",
     {TS_SCANNED, TS_STOLEN},
     {"scanned", "reclaimed"},
     2,
     true},
    {"swap", "swap-ins and swap-outs", "pages/s", {TS_PSWPIN, TS_PSWPOUT}, {"in", "out"}, 2, true},
    {"reclaimers", "direct reclaimers running", "tasks", {TS_DIRECT}, {""}, 1, false},
};

struct ctx {
	const struct timeseries *ts;
	size_t n;
	const struct graph *g;
	const char *title;
};

/* One datablock index per (series, column): t and the value, or the rate since the
 * sample before. */
static int ts_graph(const void *p, FILE *gp, FILE *dat)
{
	const struct ctx *c = p;
	const struct graph *g = c->g;
	char buf[512];
	snprintf(buf, sizeof(buf), "%s: %s", c->title, g->title);
	fputs("set title ", gp);
	gp_quote(gp, buf);
	fprintf(gp,
		" noenhanced\nset xlabel 'simulated time (s)'\nset ylabel '%s'\n"
		"set key outside right top noenhanced\nset grid ytics\nset border 3\n"
		"set tics nomirror\n",
		g->ylabel);
	/* an all-zero graph (no swap) gets a range, not gnuplot's warning */
	bool any = false;
	for (size_t s = 0; s < c->n && !any; s++)
		for (size_t i = 1; i < c->ts[s].n && !any; i++)
			for (int k = 0; k < g->ncols; k++)
				any |= c->ts[s].v[i][g->cols[k]] !=
					   c->ts[s].v[g->rate ? i - 1 : 0][g->cols[k]] ||
				       (!g->rate && c->ts[s].v[i][g->cols[k]] > 0);
	fputs(any ? "set yrange [0:*]\nplot " : "set yrange [0:1]\nplot ", gp);
	int index = 0;
	for (size_t s = 0; s < c->n; s++)
		for (int k = 0; k < g->ncols; k++) {
			const struct timeseries *ts = &c->ts[s];
			enum ts_col col = g->cols[k];
			for (size_t i = g->rate ? 1 : 0; i < ts->n; i++) {
				double v = ts->v[i][col];
				if (g->rate) {
					double dt = ts->t[i] - ts->t[i - 1];
					v = dt > 0 ? (v - ts->v[i - 1][col]) / dt : NAN;
				}
				if (isnan(v))
					fprintf(dat, "%.9g NaN\n", ts->t[i]);
				else
					fprintf(dat, "%.9g %.9g\n", ts->t[i], v);
			}
			fputs("\n\n", dat);
			snprintf(buf, sizeof(buf), "%s%s%s", ts->label, *g->col_names[k] ? " " : "",
				 g->col_names[k]);
			fprintf(gp, "%s$data index %d using 1:2 with lines lw 1.5 title ",
				index ? ", " : "", index);
			gp_quote(gp, buf);
			index++;
		}
	fputc('\n', gp);
	return 0;
}

int plot_timeseries(const struct timeseries *ts, size_t n, const char *title, const char *dir,
		    const char *prefix, char ***svgs, size_t *nsvgs)
{
	if (!n)
		return 0;
	char name[512];
	int drawn = 0;
	for (size_t g = 0; g < sizeof(graphs) / sizeof(graphs[0]); g++) {
		struct ctx c = {ts, n, &graphs[g], title};
		snprintf(name, sizeof(name), "%s-ts-%s", prefix, graphs[g].name);
		if (plot_draw(&c, dir, name, ts_graph))
			return -1;
		plot_add_svg(svgs, nsvgs, dir, name);
		drawn++;
	}
	return drawn;
}
