/* Summary statistics the way mmtests' compare reports show them. */
#ifndef MMSIM_HARNESS_STATS_H
#define MMSIM_HARNESS_STATS_H

#include <stdbool.h>
#include <stddef.h>

enum better { BETTER_LOWER, BETTER_HIGHER };

struct summary {
	size_t n;
	double min, max;
	double amean;	 /* arithmetic mean */
	double hmean;	 /* harmonic mean; NAN when a sample is <= 0 */
	double mean;	 /* amean for lower-is-better, hmean for higher-is-better */
	double stddev;	 /* sample standard deviation (n - 1), 0 when n < 2 */
	double coeffvar; /* stddev * 100 / amean, 0 when amean == 0 */
};

void stats_summarise(const double *x, size_t n, enum better better, struct summary *s);

double stats_amean(const double *x, size_t n);
double stats_hmean(const double *x, size_t n);
double stats_stddev(const double *x, size_t n);

/* Percentage against the baseline, positive meaning "better than the baseline" (mmtests'
 * pdiff/pndiff of today): higher-better new*100/base - 100, lower-better 100 - new*100/base. */
double stats_pct_vs(double base, double val, enum better better);

struct welch {
	double t;  /* Welch's t statistic */
	double df; /* Welch-Satterthwaite degrees of freedom */
	double p;  /* two-sided p-value; NAN when the test is undefined (n < 2) */
};

void stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *w);

/* Regularised incomplete beta function I_x(a, b). */
double stats_betai(double a, double b, double x);
/* Cumulative distribution of Student's t with df degrees of freedom. */
double stats_t_cdf(double t, double df);

/* "**" for p < 0.01, "*" for p < 0.05, "" otherwise (and for NAN). */
const char *stats_sig_mark(double p);

#endif
