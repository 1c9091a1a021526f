/* mmtests' derived vmstat block (page ins/outs, scan and steal by kswapd and direct reclaim,
 * efficiency, velocity) from /proc/vmstat names, zone forms summed (docs/harness.md). */
#include "harness/vmstat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const zones[] = {"dma",     "dma32",	  "normal", "high",
				    "highmem", "movable", "device"};

double vmstat_zone_sum(const struct run_result *r, const char *base)
{
	double v = runres_counter(r, base);
	if (!isnan(v))
		return v;
	double sum = NAN;
	char name[128];
	/* Only real zone suffixes: pgscan_direct_throttle is a different counter. */
	for (size_t z = 0; z < sizeof(zones) / sizeof(zones[0]); z++) {
		snprintf(name, sizeof(name), "%s_%s", base, zones[z]);
		double c = runres_counter(r, name);
		if (!isnan(c))
			sum = isnan(sum) ? c : sum + c;
	}
	return sum;
}

static double kswapd_reclaimed(const struct run_result *r)
{
	double v = vmstat_zone_sum(r, "pgsteal_kswapd");
	return isnan(v) ? runres_counter(r, "kswapd_steal") : v;
}

static double direct_reclaimed(const struct run_result *r)
{
	double v = vmstat_zone_sum(r, "pgsteal_direct");
	if (!isnan(v))
		return v;
	/* 2.6-era kernels count all reclaim in pgsteal_<zone> and kswapd's share apart. */
	double all = vmstat_zone_sum(r, "pgsteal"), k = kswapd_reclaimed(r);
	if (isnan(all))
		return NAN;
	return all - (isnan(k) ? 0 : k);
}

static double allocstall(const struct run_result *r)
{
	double v = vmstat_zone_sum(r, "allocstall");
	return isnan(v) ? r->allocstall : v;
}

enum row_source { ROW_DERIVED, ROW_COUNTER, ROW_ZONES };
#define COUNTER(name)	   ROW_COUNTER, name
#define ZONES(name)	   ROW_ZONES, name
#define DERIVED		   ROW_DERIVED, NULL
#define ROW(id, l, f, src) [id] = {l, f, src},
static const struct {
	const char *label;
	const char *fmt;
	enum row_source source;
	const char *counter;
} rows[VMS_NROWS] = {VMSTAT_ROWS(ROW)};
#undef ROW
#undef DERIVED
#undef ZONES
#undef COUNTER

const char *vmstat_row_label(size_t row)
{
	return row < VMS_NROWS ? rows[row].label : "?";
}

const char *vmstat_row_format(size_t row)
{
	return row < VMS_NROWS ? rows[row].fmt : "%g";
}

struct acc {
	double sum;
	size_t n;
};

static void add(struct acc *a, double v)
{
	if (!isnan(v)) {
		a->sum += v;
		a->n++;
	}
}

static double mean(const struct acc *a)
{
	return a->n ? a->sum / (double)a->n : NAN;
}

static double ratio(double num, double den, double scale)
{
	if (isnan(num) || isnan(den))
		return NAN;
	return den > 0 ? num * scale / den : 0;
}

void vmstat_summarise(const struct run_result *const *runs, size_t n, struct vmstat_summary *s)
{
	struct acc a[VMS_NROWS] = {{0, 0}}, elapsed = {0, 0};
	for (size_t i = 0; i < n; i++) {
		const struct run_result *r = runs[i];
		for (size_t k = 0; k < VMS_NROWS; k++)
			if (rows[k].source == ROW_COUNTER)
				add(&a[k], runres_counter(r, rows[k].counter));
			else if (rows[k].source == ROW_ZONES)
				add(&a[k], vmstat_zone_sum(r, rows[k].counter));
		add(&a[VMS_ALLOCSTALL], allocstall(r));
		add(&a[VMS_KSWAPD_RECLAIMED], kswapd_reclaimed(r));
		add(&a[VMS_DIRECT_RECLAIMED], direct_reclaimed(r));
		double wr = runres_counter(r, "nr_vmscan_write"), so = runres_counter(r, "pswpout");
		/* mmtests' split: what reclaim wrote that was not swap is file. */
		add(&a[VMS_WRITES_FILE], isnan(wr) ? NAN : wr - (isnan(so) ? 0 : so));
		add(&a[VMS_WRITES_ANON], isnan(wr) ? NAN : (isnan(so) ? 0 : so));
		add(&a[VMS_MAX_STALL], r->max_try_to_free_pages_s);
		add(&a[VMS_OOM_KILLS], r->oom_kills);
		add(&elapsed, r->elapsed_s);
	}
	for (size_t k = 0; k < VMS_NROWS; k++)
		s->v[k] = mean(&a[k]);
	/* The worst concurrency any run saw, not a mean: it is the number that predicts OOM. */
	s->v[VMS_MAX_RECLAIMERS] = NAN;
	for (size_t i = 0; i < n; i++) {
		double v = runs[i]->max_parallel_reclaimers;
		if (!isnan(v) && (isnan(s->v[VMS_MAX_RECLAIMERS]) || v > s->v[VMS_MAX_RECLAIMERS]))
			s->v[VMS_MAX_RECLAIMERS] = v;
	}
	double ks = s->v[VMS_KSWAPD_SCANNED], ds = s->v[VMS_DIRECT_SCANNED];
	double el = mean(&elapsed);
	s->v[VMS_KSWAPD_EFFICIENCY] = ratio(s->v[VMS_KSWAPD_RECLAIMED], ks, 100);
	s->v[VMS_DIRECT_EFFICIENCY] = ratio(s->v[VMS_DIRECT_RECLAIMED], ds, 100);
	s->v[VMS_KSWAPD_VELOCITY] = ratio(ks, el, 1);
	s->v[VMS_DIRECT_VELOCITY] = ratio(ds, el, 1);
	s->v[VMS_PCT_DIRECT] = (isnan(ks) || isnan(ds)) ? NAN : ratio(ds, ds + ks, 100);
}
