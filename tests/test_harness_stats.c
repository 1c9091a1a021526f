/* Statistics of the harness against values worked out by hand (or, for the t-test, by an
 * independent numerical integration of Student's t density). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness/plan.h"
#include "harness/runres.h"
#include "harness/stats.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* A run that did not finish may carry no figure of merit; a finished one needs exactly one. */
static void test_runres_primary_rule(void **state)
{
	(void)state;
	static const char *const fmt =
	    "{\"schema\": \"mmsim-run/1\", \"mmsim_version\": \"t\", \"seed\": 1, "
	    "\"scenario\": {\"file\": \"x.conf\"}, \"time\": {}, \"completed\": %s, "
	    "\"result\": {\"metrics\": [%s]}}";
	static const char *const time_metric =
	    "{\"name\": \"time\", \"value\": 1.5, \"primary\": true}";
	char text[512], err[128];
	struct run_result r;
	snprintf(text, sizeof(text), fmt, "false", "");
	assert_int_equal(runres_parse(text, &r, err, sizeof(err)), 0);
	assert_false(r.completed);
	assert_null(runres_primary(&r));
	runres_free(&r);
	snprintf(text, sizeof(text), fmt, "true", "");
	assert_int_not_equal(runres_parse(text, &r, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "primary"));
	snprintf(text, sizeof(text), fmt, "true", time_metric);
	assert_int_equal(runres_parse(text, &r, err, sizeof(err)), 0);
	assert_true(runres_primary(&r)->value == 1.5);
	runres_free(&r);
}

static void test_means(void **state)
{
	(void)state;
	double x[] = {1, 2, 4};
	NEAR(stats_amean(x, 3), 7.0 / 3, 1e-12);
	/* 3 / (1 + 1/2 + 1/4) */
	NEAR(stats_hmean(x, 3), 3 / 1.75, 1e-12);
	double z[] = {1, 0};
	assert_true(isnan(stats_hmean(z, 2)));
	assert_true(isnan(stats_amean(x, 0)));
}

static void test_stddev(void **state)
{
	(void)state;
	/* mean 5, sum of squares 32, sample variance 32/7 */
	double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
	NEAR(stats_stddev(x, 8), sqrt(32.0 / 7), 1e-12);
	assert_true(isnan(stats_stddev(x, 1))); /* undefined for one value, not 0 */
	struct summary s;
	stats_summarise(x, 8, BETTER_LOWER, &s);
	assert_true(s.n == 8 && s.min == 2 && s.max == 9);
	NEAR(s.mean, 5, 1e-12);
	NEAR(s.coeffvar, sqrt(32.0 / 7) * 100 / 5, 1e-9);
	stats_summarise(x, 8, BETTER_HIGHER, &s);
	/* 8 / (1/2 + 3/4 + 2/5 + 1/7 + 1/9) */
	NEAR(s.mean, 8 / (0.5 + 0.75 + 0.4 + 1.0 / 7 + 1.0 / 9), 1e-12);
}

static void test_pct(void **state)
{
	(void)state;
	/* lower is better: 100 - 24.97*100/26.22 */
	NEAR(stats_pct_vs(26.22, 24.97, BETTER_LOWER), 100 - 24.97 * 100 / 26.22, 1e-12);
	NEAR(stats_pct_vs(200, 250, BETTER_HIGHER), 25, 1e-12);
	NEAR(stats_pct_vs(200, 250, BETTER_LOWER), -25, 1e-12);
	assert_true(stats_pct_vs(3, 3, BETTER_LOWER) == 0);
	assert_true(isnan(stats_pct_vs(0, 3, BETTER_LOWER)));
}

static void test_t_cdf(void **state)
{
	(void)state;
	/* Closed forms: df=1 is Cauchy, df=2 has an algebraic CDF. */
	for (double t = -5; t <= 5; t += 0.37) {
		NEAR(stats_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		NEAR(stats_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	/* The 97.5% quantile of t with 10 df is 2.228138852. */
	NEAR(2 * (1 - stats_t_cdf(2.228138852, 10)), 0.05, 1e-9);
	NEAR(stats_t_cdf(0, 7.3), 0.5, 1e-15);
	/* I_x(a,1) = x^a and I_x(1,b) = 1 - (1-x)^b */
	NEAR(stats_betai(2.5, 1, 0.3), pow(0.3, 2.5), 1e-13);
	NEAR(stats_betai(1, 3.5, 0.3), 1 - pow(0.7, 3.5), 1e-13);
}

static void test_welch(void **state)
{
	(void)state;
	/* means 3 and 7; variances 2.5 and 14; t = -4/sqrt(2.5/5 + 14/6) */
	double a[] = {1, 2, 3, 4, 5}, b[] = {2, 4, 6, 8, 10, 12};
	struct welch w;
	stats_welch(a, 5, b, 6, &w);
	NEAR(w.t, -4 / sqrt(0.5 + 14.0 / 6), 1e-12);
	NEAR(w.t, -2.3763541031440183, 1e-12);
	double va = 0.5, vb = 14.0 / 6;
	NEAR(w.df, (va + vb) * (va + vb) / (va * va / 4 + vb * vb / 5), 1e-12);
	NEAR(w.df, 6.9722557297949335, 1e-9);
	NEAR(w.p, 0.04928433820673094, 1e-8);
	assert_string_equal(stats_sig_mark(w.p), "*");

	/* KOSAKI's 80..100-group rows as two arms: not significant */
	double v[] = {26.22, 27.31, 29.23, 30.73, 32.02}, t[] = {24.97, 25.94, 26.77, 28.40, 30.62};
	stats_welch(v, 5, t, 5, &w);
	NEAR(w.t, 1.208971244079153, 1e-9);
	NEAR(w.df, 7.962513764121562, 1e-9);
	NEAR(w.p, 0.26134620055827085, 1e-8);
	assert_string_equal(stats_sig_mark(w.p), "");

	stats_welch(a, 1, b, 6, &w);
	assert_true(isnan(w.p));
	assert_string_equal(stats_sig_mark(w.p), "");
	double c1[] = {3, 3, 3}, c2[] = {4, 4, 4};
	stats_welch(c1, 3, c2, 3, &w);
	assert_true(w.p == 0);
	stats_welch(c1, 3, c1, 3, &w);
	assert_true(w.p == 1);
	assert_string_equal(stats_sig_mark(0.001), "**");
}

static void test_vary_and_keys(void **state)
{
	(void)state;
	char err[256];
	struct vary v;
	assert_int_equal(plan_parse_vary("groups=80:150:5", &v, err, sizeof(err)), 0);
	assert_int_equal(v.n, 15);
	assert_string_equal(v.values[0], "80");
	assert_string_equal(v.values[14], "150");
	struct experiment e = {0};
	e.vary = &v;
	e.nvary = 1;
	assert_int_equal(plan_npoints(&e), 15);
	for (size_t i = 0; i < v.n; i++)
		free(v.values[i]);
	free(v.values);
	free(v.key);
	assert_int_equal(plan_parse_vary("x=0:0.3:0.1", &v, err, sizeof(err)), 0);
	assert_int_equal(v.n, 4);
	assert_string_equal(v.values[3], "0.3");
	for (size_t i = 0; i < v.n; i++)
		free(v.values[i]);
	free(v.values);
	free(v.key);
	assert_int_equal(plan_parse_vary("x=1:0:1", &v, err, sizeof(err)), -1);
	assert_int_equal(plan_parse_vary("x=a,a", &v, err, sizeof(err)), -1);
	assert_int_equal(plan_parse_vary("x", &v, err, sizeof(err)), -1);

	struct arm arm;
	assert_int_equal(plan_parse_arm("thr: b=2 ,a=1", &arm, err, sizeof(err)), 0);
	assert_string_equal(arm.name, "thr");
	/* Overrides are sorted, so the key does not depend on the order they were given. */
	assert_string_equal(arm.set.v[0].key, "a");
	struct overrides o = {0};
	overrides_add(&o, "b", "2");
	overrides_add(&o, "a", "1");
	char k1[17], k2[17], k3[17];
	plan_key("0123456789abcdef", &arm.set, 1, "0.1.0", k1, NULL);
	plan_key("0123456789abcdef", &o, 1, "0.1.0", k2, NULL);
	plan_key("0123456789abcdef", &o, 2, "0.1.0", k3, NULL);
	assert_string_equal(k1, k2);
	assert_string_not_equal(k1, k3);
	overrides_free(&o);
	overrides_free(&arm.set);
	free(arm.name);
	assert_int_equal(plan_parse_arm("bad name:a=1", &arm, err, sizeof(err)), -1);
	assert_int_equal(plan_parse_arm("x:a", &arm, err, sizeof(err)), -1);
	assert_int_equal(plan_parse_arm("x:a=1,a=2", &arm, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_means),	  cmocka_unit_test(test_runres_primary_rule),
	    cmocka_unit_test(test_stddev),	  cmocka_unit_test(test_pct),
	    cmocka_unit_test(test_t_cdf),	  cmocka_unit_test(test_welch),
	    cmocka_unit_test(test_vary_and_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
