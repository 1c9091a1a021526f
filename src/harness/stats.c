/* mmtests' summary statistics (amean, hmean, sample stddev, pdiff) and Welch's t-test, its
 * p-value through the regularised incomplete beta function (libm only). */
#include "harness/stats.h"

#include <float.h>
#include <math.h>

double stats_amean(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double stats_hmean(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double inv = 0;
	for (size_t i = 0; i < n; i++) {
		/* The harmonic mean of rates is only meaningful for positive rates. */
		if (!(x[i] > 0))
			return NAN;
		inv += 1.0 / x[i];
	}
	return (double)n / inv;
}

double stats_stddev(const double *x, size_t n)
{
	if (n < 2)
		return NAN; /* the sample stddev of one value is undefined, not 0 */
	double m = stats_amean(x, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (double)(n - 1));
}

void stats_summarise(const double *x, size_t n, enum better better, struct summary *s)
{
	s->n = n;
	s->min = n ? x[0] : NAN;
	s->max = n ? x[0] : NAN;
	for (size_t i = 1; i < n; i++) {
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->amean = stats_amean(x, n);
	s->hmean = stats_hmean(x, n);
	s->mean = better == BETTER_HIGHER ? s->hmean : s->amean;
	s->stddev = stats_stddev(x, n);
	s->coeffvar =
	    (!isnan(s->stddev) && s->amean != 0) ? s->stddev * 100.0 / fabs(s->amean) : NAN;
}

double stats_pct_vs(double base, double val, enum better better)
{
	if (isnan(base) || isnan(val))
		return NAN;
	if (base == val)
		return 0;
	if (base == 0)
		return NAN;
	double ratio = val * 100.0 / base;
	return better == BETTER_HIGHER ? ratio - 100.0 : 100.0 - ratio;
}

/* Continued fraction for I_x(a,b), evaluated with the modified Lentz method; converges
 * quickly for x < (a+1)/(a+b+2), the caller uses the symmetry relation otherwise. */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m;
		double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		if (fabs(d) < tiny)
			d = tiny;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		if (fabs(d) < tiny)
			d = tiny;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		double step = d * c;
		h *= step;
		if (fabs(step - 1) < eps)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	if (isnan(x) || a <= 0 || b <= 0)
		return NAN;
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lfront) * betacf(a, b, x) / a;
	return 1 - exp(lfront) * betacf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	double tail = 0.5 * stats_betai(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

void stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *w)
{
	w->t = w->df = w->p = NAN;
	if (na < 2 || nb < 2)
		return;
	double ma = stats_amean(a, na), mb = stats_amean(b, nb);
	double sa = stats_stddev(a, na), sb = stats_stddev(b, nb);
	double va = sa * sa / (double)na, vb = sb * sb / (double)nb;
	if (va + vb == 0) {
		/* Two constant samples: identical means are indistinguishable, different ones
		 * are certainly different. */
		w->df = (double)(na + nb - 2);
		w->t = ma == mb ? 0 : (ma > mb ? INFINITY : -INFINITY);
		w->p = ma == mb ? 1 : 0;
		return;
	}
	w->t = (ma - mb) / sqrt(va + vb);
	w->df = (va + vb) * (va + vb) / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
	w->p = stats_betai(w->df / 2, 0.5, w->df / (w->df + w->t * w->t));
}

const char *stats_sig_mark(double p)
{
	if (isnan(p))
		return "";
	if (p < 0.01)
		return "**";
	if (p < 0.05)
		return "*";
	return "";
}
