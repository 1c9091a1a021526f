/* The experiment's tables in the shape of mmtests' compare-kernels.sh: per metric (Min, Amean
 * or Hmean, Stddev, CoeffVar, %, Welch p), the duration and vmstat blocks, and the sweep table. */
#include "harness/report.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness/vmstat.h"
#include "sim/xalloc.h"

struct exp_results *results_build(const struct experiment *e, const struct job *jobs, size_t njobs,
				  const struct run_result *runs, const bool *have)
{
	struct exp_results *r = xcalloc(1, sizeof(*r));
	r->e = e;
	r->npoints = plan_npoints(e);
	r->cells = xcalloc(r->npoints * e->narms + 1, sizeof(*r->cells));
	r->expected = njobs;
	for (size_t i = 0; i < njobs; i++) {
		if (!have[i])
			continue;
		struct cell *c = results_cell(r, jobs[i].point, jobs[i].arm);
		const struct run_result **nr = xrealloc(c->runs, (c->n + 1) * sizeof(*nr));
		c->runs = nr;
		c->runs[c->n++] = &runs[i];
		r->found++;
		r->incomplete += !runs[i].completed;
	}
	/* The figure of merit: the one asked for, else the workload's primary metric. */
	for (size_t i = 0; i < njobs; i++) {
		if (!have[i])
			continue;
		const struct metric *m =
		    e->metric ? runres_metric(&runs[i], e->metric) : runres_primary(&runs[i]);
		if (m) {
			r->metric = m->name;
			r->unit = m->unit;
			r->better = m->better;
			break;
		}
	}
	if (!r->metric) {
		r->metric = e->metric ? e->metric : "(none)";
		r->unit = "";
	}
	return r;
}

void results_free(struct exp_results *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->npoints * r->e->narms; i++)
		free(r->cells[i].runs);
	free(r->cells);
	free(r);
}

struct cell *results_cell(const struct exp_results *r, size_t point, size_t arm)
{
	return &r->cells[point * r->e->narms + arm];
}

size_t cell_values(const struct cell *c, const char *metric, double *out)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct metric *m = runres_metric(c->runs[i], metric);
		if (m)
			out[n++] = m->value;
	}
	return n;
}

void report_free_tables(struct table **t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		table_free(t[i]);
	free(t);
}

static void push_table(struct table ***v, size_t *n, struct table *t)
{
	struct table **nv = xrealloc(*v, (*n + 1) * sizeof(*nv));
	*v = nv;
	(*v)[(*n)++] = t;
}

/* Enough decimals to show a value the size of m with about four significant digits. */
static int decimals_for(double m)
{
	m = fabs(m);
	if (!(m > 0) || m >= 1)
		return 2;
	int d = (int)ceil(-log10(m)) + 3;
	return d > 8 ? 8 : d;
}

static void fmt_pct(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "(    n/a)");
	else
		snprintf(buf, len, "(%7.2f%%)", pct);
}

/* Metric names in the order the first run lists them, primary first, then any others. */
static size_t metric_names(const struct exp_results *r, const char ***out)
{
	const char **names = NULL;
	size_t n = 0;
	for (size_t c = 0; c < r->npoints * r->e->narms; c++)
		for (size_t i = 0; i < r->cells[c].n; i++) {
			const struct run_result *run = r->cells[c].runs[i];
			for (size_t m = 0; m < run->nmetrics; m++) {
				size_t k;
				for (k = 0; k < n && strcmp(names[k], run->metrics[m].name); k++)
					;
				if (k < n)
					continue;
				const char **nn = xrealloc(names, (n + 1) * sizeof(*nn));
				names = nn;
				names[n++] = run->metrics[m].name;
			}
		}
	for (size_t k = 0; k < n; k++)
		if (!strcmp(names[k], r->metric) && k) {
			const char *t = names[k];
			memmove(names + 1, names, k * sizeof(*names));
			names[0] = t;
		}
	*out = names;
	return n;
}

static const struct metric *find_metric(const struct exp_results *r, const char *name)
{
	for (size_t c = 0; c < r->npoints * r->e->narms; c++)
		for (size_t i = 0; i < r->cells[c].n; i++) {
			const struct metric *m = runres_metric(r->cells[c].runs[i], name);
			if (m)
				return m;
		}
	return NULL;
}

static struct table *compare_metric_table(const struct exp_results *r, const char *name)
{
	const struct experiment *e = r->e;
	const struct metric *proto = find_metric(r, name);
	enum better better = proto ? proto->better : BETTER_LOWER;
	char title[512];
	snprintf(title, sizeof(title), "%s%s%s%s (%s is better)", name,
		 proto && *proto->unit ? " [" : "", proto && *proto->unit ? proto->unit : "",
		 proto && *proto->unit ? "]" : "", better == BETTER_HIGHER ? "higher" : "lower");
	struct table *t = table_new(title, 2 + e->narms, 2);
	size_t row = table_add_row(t, ROW_HEADER);
	for (size_t a = 0; a < e->narms; a++)
		table_set(t, row, 2 + a, "%s", e->arms[a].name);
	table_add_row(t, ROW_RULE);

	struct summary *s = xcalloc(e->narms, sizeof(*s));
	double **vals = xcalloc(e->narms, sizeof(*vals));
	size_t *nv = xcalloc(e->narms, sizeof(*nv));
	for (size_t a = 0; a < e->narms; a++) {
		const struct cell *c = results_cell(r, 0, a);
		vals[a] = xcalloc(c->n + 1, sizeof(double));
		nv[a] = cell_values(c, name, vals[a]);
		stats_summarise(vals[a], nv[a], better, &s[a]);
	}
	int dec = decimals_for(s[0].amean);
	const char *mean_label = better == BETTER_HIGHER ? "Hmean" : "Amean";
	struct {
		const char *label;
		size_t off;
		int lower_better; /* spread rows: smaller is always better */
	} rows[] = {
	    {"Min", offsetof(struct summary, min), 0},
	    {mean_label, offsetof(struct summary, mean), 0},
	    {"Stddev", offsetof(struct summary, stddev), 1},
	    {"CoeffVar", offsetof(struct summary, coeffvar), 1},
	    {"Max", offsetof(struct summary, max), 0},
	};
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		row = table_add_row(t, ROW_DATA);
		table_set(t, row, 0, "%s", rows[k].label);
		table_set(t, row, 1, "%s", name);
		double base = *(double *)((char *)&s[0] + rows[k].off);
		for (size_t a = 0; a < e->narms; a++) {
			double v = *(double *)((char *)&s[a] + rows[k].off);
			/* no runs, or a figure that does not apply: one run's stddev, the
			 * harmonic mean of values that include 0 */
			if (!nv[a] || isnan(v)) {
				table_set(t, row, 2 + a, "-");
				continue;
			}
			char pct[32];
			fmt_pct(
			    pct, sizeof(pct),
			    stats_pct_vs(base, v, rows[k].lower_better ? BETTER_LOWER : better));
			const char *mark = "";
			if (k == 1 && a > 0) {
				struct welch w;
				stats_welch(vals[0], nv[0], vals[a], nv[a], &w);
				mark = stats_sig_mark(w.p);
			}
			table_set(t, row, 2 + a, "%.*f %s%-2s", rows[k].lower_better ? 2 : dec, v,
				  pct, mark);
		}
	}
	row = table_add_row(t, ROW_DATA);
	table_set(t, row, 0, "Welch p");
	table_set(t, row, 1, "%s", name);
	for (size_t a = 0; a < e->narms; a++) {
		struct welch w;
		stats_welch(vals[0], nv[0], vals[a], nv[a], &w);
		if (a == 0 || isnan(w.p))
			table_set(t, row, 2 + a, "-");
		else if (w.p < 1e-4)
			table_set(t, row, 2 + a, "%.1e", w.p);
		else
			table_set(t, row, 2 + a, "%.4f", w.p);
	}
	row = table_add_row(t, ROW_DATA);
	table_set(t, row, 0, "Runs");
	table_set(t, row, 1, "%s", name);
	for (size_t a = 0; a < e->narms; a++)
		table_set(t, row, 2 + a, "%zu", nv[a]);
	for (size_t a = 0; a < e->narms; a++)
		free(vals[a]);
	free(vals);
	free(nv);
	free(s);
	return t;
}

/* Mean over the cell's runs of f(run), skipping runs where f is NAN; NAN if none. */
static double cell_mean(const struct cell *c, double (*f)(const struct run_result *))
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++) {
		double v = f(c->runs[i]);
		if (!isnan(v)) {
			sum += v;
			n++;
		}
	}
	return n ? sum / (double)n : NAN;
}

static double get_user(const struct run_result *r)
{
	return r->user_s;
}
static double get_sys(const struct run_result *r)
{
	return r->sys_s;
}
static double get_elapsed(const struct run_result *r)
{
	return r->elapsed_s;
}
static double get_minflt(const struct run_result *r)
{
	return r->minor_faults;
}
static double get_majflt(const struct run_result *r)
{
	return r->major_faults;
}

static struct table *duration_table(const struct exp_results *r)
{
	const struct experiment *e = r->e;
	struct table *t = table_new("MMTests-style statistics: duration (simulated, mean per run)",
				    1 + e->narms, 1);
	size_t row = table_add_row(t, ROW_HEADER);
	for (size_t a = 0; a < e->narms; a++)
		table_set(t, row, 1 + a, "%s", e->arms[a].name);
	table_add_row(t, ROW_RULE);
	struct {
		const char *label;
		double (*f)(const struct run_result *);
		const char *fmt;
	} rows[] = {
	    {"Duration User (s)", get_user, "%.2f"},	   {"Duration System (s)", get_sys, "%.2f"},
	    {"Duration Elapsed (s)", get_elapsed, "%.2f"}, {"Minor Faults", get_minflt, "%.0f"},
	    {"Major Faults", get_majflt, "%.0f"},
	};
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		row = table_add_row(t, ROW_DATA);
		table_set(t, row, 0, "%s", rows[k].label);
		for (size_t a = 0; a < e->narms; a++) {
			double v = cell_mean(results_cell(r, 0, a), rows[k].f);
			if (isnan(v))
				table_set(t, row, 1 + a, "-");
			else
				table_set(t, row, 1 + a, rows[k].fmt, v);
		}
	}
	return t;
}

static struct table *vmstat_table(const struct exp_results *r)
{
	const struct experiment *e = r->e;
	struct table *t =
	    table_new("MMTests-style statistics: vmstat (mean per run)", 1 + e->narms, 1);
	size_t row = table_add_row(t, ROW_HEADER);
	for (size_t a = 0; a < e->narms; a++)
		table_set(t, row, 1 + a, "%s", e->arms[a].name);
	table_add_row(t, ROW_RULE);
	struct vmstat_summary *vs = xcalloc(e->narms, sizeof(*vs));
	for (size_t a = 0; a < e->narms; a++) {
		const struct cell *c = results_cell(r, 0, a);
		vmstat_summarise(c->runs, c->n, &vs[a]);
	}
	for (size_t k = 0; k < VMS_NROWS; k++) {
		row = table_add_row(t, ROW_DATA);
		table_set(t, row, 0, "%s", vmstat_row_label(k));
		for (size_t a = 0; a < e->narms; a++) {
			double v = vs[a].v[k];
			if (isnan(v))
				table_set(t, row, 1 + a, "-");
			else
				table_set(t, row, 1 + a, vmstat_row_format(k), v);
		}
	}
	free(vs);
	return t;
}

static struct table *sweep_table(const struct exp_results *r)
{
	const struct experiment *e = r->e;
	char title[512];
	snprintf(title, sizeof(title), "%s%s%s%s: %s of %zu run(s) per cell%s", r->metric,
		 *r->unit ? " [" : "", r->unit, *r->unit ? "]" : "",
		 r->better == BETTER_HIGHER ? "Hmean (higher is better)"
					    : "Amean (lower is better)",
		 e->nseeds, e->nseeds > 1 ? ", ± sample stddev" : "");
	size_t ncols = e->nvary + e->narms + (e->narms - 1);
	struct table *t = table_new(title, ncols, e->nvary);
	size_t row = table_add_row(t, ROW_HEADER);
	for (size_t d = 0; d < e->nvary; d++)
		table_set(t, row, d, "%s", e->vary[d].key);
	for (size_t a = 0; a < e->narms; a++)
		table_set(t, row, e->nvary + a, "%s", e->arms[a].name);
	for (size_t a = 1; a < e->narms; a++)
		table_set(t, row, e->nvary + e->narms + a - 1, "%s vs %s", e->arms[a].name,
			  e->arms[0].name);
	table_add_row(t, ROW_RULE);
	double *base = xcalloc(e->nseeds + 1, sizeof(double)),
	       *vals = xcalloc(e->nseeds + 1, sizeof(double));
	for (size_t p = 0; p < r->npoints; p++) {
		/* Decimals per row: a sweep can span orders of magnitude (0.05 s to 400 s). */
		int dec = -1;
		row = table_add_row(t, ROW_DATA);
		for (size_t d = 0; d < e->nvary; d++)
			table_set(t, row, d, "%s", plan_point_value(e, p, d));
		struct summary s0;
		size_t n0 = 0;
		for (size_t a = 0; a < e->narms; a++) {
			const struct cell *c = results_cell(r, p, a);
			double *v = a ? vals : base;
			size_t n = cell_values(c, r->metric, v);
			struct summary s;
			stats_summarise(v, n, r->better, &s);
			if (!a) {
				s0 = s;
				n0 = n;
			}
			if (dec < 0 && n)
				dec = decimals_for(s.mean);
			if (!n) {
				/* runs there, none with a value: they did not finish */
				table_set(t, row, e->nvary + a, c->n ? "no result" : "-");
				continue;
			}
			if (isnan(s.mean))
				table_set(t, row, e->nvary + a, "-");
			else if (isnan(s.stddev)) /* one run: no spread to show */
				table_set(t, row, e->nvary + a, "%.*f%s", dec, s.mean,
					  n < e->nseeds ? " (partial)" : "");
			else
				table_set(t, row, e->nvary + a, "%.*f ± %.*f%s", dec, s.mean, dec,
					  s.stddev, n < e->nseeds ? " (partial)" : "");
			if (!a)
				continue;
			size_t col = e->nvary + e->narms + a - 1;
			if (!n0) {
				table_set(t, row, col, "-");
				continue;
			}
			struct welch w;
			stats_welch(base, n0, v, n, &w);
			double pct = stats_pct_vs(s0.mean, s.mean, r->better);
			if (isnan(pct))
				table_set(t, row, col, "n/a");
			else
				table_set(t, row, col, "%+.2f%% %-2s", pct, stats_sig_mark(w.p));
		}
	}
	table_set_note(t,
		       "%% vs the first arm: positive is better. Welch's t-test on the per-seed "
		       "values: * p < 0.05, ** p < 0.01.%s",
		       r->incomplete
			   ? " Some runs did not finish (the simulated time limit, or the "
			     "benchmark failed, e.g. a worker OOM-killed): \"no result\"."
			   : "");
	free(base);
	free(vals);
	return t;
}

size_t report_tables(const struct exp_results *r, struct table ***out)
{
	struct table **v = NULL;
	size_t n = 0;
	if (r->e->kind == EXP_SWEEP) {
		push_table(&v, &n, sweep_table(r));
	} else {
		const char **names;
		size_t nn = metric_names(r, &names);
		/* a metric the runs do not list (the host's cost: host_cpu_s, ...) only when
		 * --metric asks for it, first */
		bool listed = false;
		for (size_t i = 0; i < nn; i++)
			listed |= !strcmp(names[i], r->metric);
		if (!listed && find_metric(r, r->metric))
			push_table(&v, &n, compare_metric_table(r, r->metric));
		for (size_t i = 0; i < nn; i++)
			push_table(&v, &n, compare_metric_table(r, names[i]));
		free(names);
		if (n)
			table_set_note(
			    v[n - 1],
			    "Min/Max/mean %%: positive is better than the first arm; "
			    "Stddev/CoeffVar: positive is less variable. Stddev uses n-1. "
			    "Welch's t-test on the means: * p < 0.05, ** p < 0.01.");
		push_table(&v, &n, duration_table(r));
		push_table(&v, &n, vmstat_table(r));
	}
	*out = v;
	return n;
}

void report_describe(FILE *out, const struct exp_results *r)
{
	const struct experiment *e = r->e;
	fprintf(out, "%s of scenario %s (%s, content fnv1a64 %s), mmsim %s\n",
		e->kind == EXP_SWEEP ? "sweep" : "compare", e->scenario_name, e->scenario_file,
		e->scenario_hash, e->version);
	for (size_t a = 0; a < e->narms; a++) {
		char *ov = overrides_text(&e->arms[a].set);
		fprintf(out, "  arm %-12s %s\n", e->arms[a].name, *ov ? ov : "(scenario as is)");
		free(ov);
	}
	for (size_t d = 0; d < e->nvary; d++) {
		fprintf(out, "  vary %s =", e->vary[d].key);
		for (size_t i = 0; i < e->vary[d].n; i++)
			fprintf(out, "%s%s", i ? "," : " ", e->vary[d].values[i]);
		fputc('\n', out);
	}
	fprintf(out, "  seeds:");
	for (size_t s = 0; s < e->nseeds; s++)
		fprintf(out, "%s%llu", s ? "," : " ", (unsigned long long)e->seeds[s]);
	fprintf(out, "; %zu of %zu runs stored", r->found, r->expected);
	if (r->incomplete)
		fprintf(out, ", %zu did not finish", r->incomplete);
	fprintf(out, "\n\n");
}
