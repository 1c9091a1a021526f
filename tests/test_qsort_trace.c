/* qsbench 1.0.0's page reference string (qsort_trace.c): glibc's rand() as the fill uses it,
 * a two-element array worked by hand, and every other case against a plain recursive copy of
 * quick_sort() that records every single access, filtered by the two-page rule here. */
#include "util/testutil.h"

#include "workloads/qsort_trace.h"

#include <stdlib.h>
#include <string.h>

static void rand_is_glibcs(void **state)
{
	(void)state;
	/* first outputs of srand(1): the values every glibc prints */
	struct glibc_rand g;
	glibc_srand(&g, 1);
	assert_int_equal(glibc_rand(&g), 1804289383);
	assert_int_equal(glibc_rand(&g), 846930886);
	assert_int_equal(glibc_rand(&g), 1681692777);
#ifdef __GLIBC__
	for (unsigned seed = 0; seed < 4; seed++) {
		glibc_srand(&g, seed);
		srand(seed);
		for (int i = 0; i < 5000; i++)
			assert_int_equal(glibc_rand(&g), rand());
	}
#endif
}

/* {2, 1}, one element per page. Fill: write page 0, write page 1 (1 op before). Sort: the
 * median probes and both cursors stay on pages 0 and 1, both already written: nothing new.
 * Verify, then the trailing touch with all 7 remaining ops (2 probes, 2 cursor compares,
 * 1 swap, 1 verify compare, and the fill's last store). */
static void two_elements_by_hand(void **state)
{
	(void)state;
	const int32_t a[] = {2, 1};
	struct qs_trace tr;
	assert_int_equal(qs_trace_build(&tr, a, 2, 0, 1, 0), 0);
	assert_int_equal(tr.n, 3);
	assert_int_equal(tr.t[0].page, 0);
	assert_true(qs_touch_write(&tr.t[0]));
	assert_int_equal(qs_touch_ops(&tr.t[0]), 0);
	assert_int_equal(tr.t[1].page, 1);
	assert_true(qs_touch_write(&tr.t[1]));
	assert_int_equal(qs_touch_ops(&tr.t[1]), 1);
	assert_int_equal(tr.t[2].page, 1);
	assert_false(qs_touch_write(&tr.t[2]));
	assert_int_equal(qs_touch_ops(&tr.t[2]), 7);
	assert_int_equal(tr.ops, 8);
	qs_trace_free(&tr);
}

/* ---- the reference: qsbench.c's quick_sort as written, every access recorded ---- */

struct ref {
	int32_t *a;
	uint64_t epp;
	uint64_t pages[2];
	int written[2];
	uint32_t pending;
	struct qs_touch out[200000];
	size_t n;
};

static void ref_access(struct ref *r, int64_t idx, int write)
{
	uint64_t p = (uint64_t)idx / r->epp;
	if (p != r->pages[0] && p != r->pages[1]) {
		r->pages[1] = r->pages[0], r->written[1] = r->written[0];
		r->pages[0] = p, r->written[0] = write;
	} else {
		if (p == r->pages[1]) {
			uint64_t tp = r->pages[0];
			int tw = r->written[0];
			r->pages[0] = r->pages[1], r->written[0] = r->written[1];
			r->pages[1] = tp, r->written[1] = tw;
		}
		if (!write || r->written[0])
			return;
		r->written[0] = 1;
	}
	assert_true(r->n < ARRAY_SIZE(r->out));
	r->out[r->n++] = (struct qs_touch){(uint32_t)p, (r->pending << 2) | (uint32_t)write};
	r->pending = 0;
}

static int32_t rd(struct ref *r, int64_t i)
{
	ref_access(r, i, 0);
	return r->a[i];
}

static void ref_sort(struct ref *r, int64_t l, int64_t rr)
{
	int64_t i = l, j = rr, m = (l + rr) >> 1;
	int32_t p, mn, mx;
	int32_t am = rd(r, m), al = rd(r, l);
	r->pending++;
	if (am >= al)
		mx = am, mn = al;
	else
		mx = al, mn = am;
	int32_t ar = rd(r, rr);
	r->pending++;
	p = ar >= mx ? mx : ar >= mn ? ar : mn;
	do {
		/* an operation counts after the access it makes */
		for (;;) {
			int32_t v = rd(r, i);
			r->pending++;
			if (!(v < p))
				break;
			i++;
		}
		for (;;) {
			int32_t v = rd(r, j);
			r->pending++;
			if (!(p < v))
				break;
			j--;
		}
		if (i <= j) {
			int32_t t = r->a[i];
			ref_access(r, i, 1);
			r->a[i] = r->a[j];
			ref_access(r, j, 1);
			r->a[j] = t;
			r->pending++;
			i++;
			j--;
		}
	} while (i <= j);
	if (l < j)
		ref_sort(r, l, j);
	if (i < rr)
		ref_sort(r, i, rr);
}

static void check_against_reference(uint64_t n, uint64_t epp, uint32_t seed, int distinct)
{
	static struct ref r;
	memset(&r, 0, sizeof(r));
	r.epp = epp;
	r.pages[0] = r.pages[1] = UINT64_MAX;
	r.a = malloc(n * sizeof(*r.a));
	int32_t *src = malloc(n * sizeof(*src));
	struct glibc_rand g;
	glibc_srand(&g, seed);
	for (uint64_t i = 0; i < n; i++)
		src[i] = distinct ? glibc_rand(&g) : glibc_rand(&g) % 5; /* many equal keys */
	for (uint64_t i = 0; i < n; i++) {
		r.a[i] = src[i];
		ref_access(&r, (int64_t)i, 1);
		r.pending++;
	}
	ref_sort(&r, 0, (int64_t)n - 1);
	for (uint64_t i = 0; i + 1 < n; i++) {
		rd(&r, (int64_t)i);
		rd(&r, (int64_t)i + 1);
		r.pending++;
	}
	for (uint64_t i = 0; i + 1 < n; i++)
		assert_true(r.a[i] <= r.a[i + 1]);
	if (r.pending) { /* the trailing touch */
		r.out[r.n++] = (struct qs_touch){(uint32_t)((n - 1) / epp), r.pending << 2};
	}
	struct qs_trace tr;
	assert_int_equal(qs_trace_build(&tr, src, n, seed, epp, 0), 0);
	assert_int_equal(tr.n, r.n);
	for (size_t k = 0; k < r.n; k++) {
		assert_int_equal(tr.t[k].page, r.out[k].page);
		assert_int_equal(tr.t[k].ops_kind, r.out[k].ops_kind);
	}
	qs_trace_free(&tr);
	free(src);
	free(r.a);
}

static void matches_every_access_reference(void **state)
{
	(void)state;
	check_against_reference(2, 1, 1, 1);
	check_against_reference(200, 4, 1, 1);
	check_against_reference(1000, 8, 3, 1);
	check_against_reference(5000, 64, 2, 1);
	check_against_reference(3000, 16, 5, 0);
}

/* without an array the fill's own values: srand(seed) then rand() for every element */
static void fills_with_rand(void **state)
{
	(void)state;
	const uint64_t n = 4096;
	int32_t *src = malloc(n * sizeof(*src));
	struct glibc_rand g;
	glibc_srand(&g, 9);
	for (uint64_t i = 0; i < n; i++)
		src[i] = glibc_rand(&g);
	struct qs_trace a, b;
	assert_int_equal(qs_trace_build(&a, NULL, n, 9, 32, 0), 0);
	assert_int_equal(qs_trace_build(&b, src, n, 0, 32, 0), 0);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.t, b.t, a.n * sizeof(*a.t));
	qs_trace_free(&a);
	qs_trace_free(&b);
	free(src);
}

/* a bound cuts the whole trace at the first touch whose operations, with those before it,
 * pass the bound: a prefix, in the fill (no array built), the sort and the verify alike */
static void bounded_build_is_the_prefix(void **state)
{
	(void)state;
	const uint64_t n = 1 << 14, epp = 64;
	struct qs_trace whole;
	assert_int_equal(qs_trace_build(&whole, NULL, n, 3, epp, 0), 0);
	assert_false(whole.truncated);
	/* in the fill (n > bound + 2 pages: no array; 640 is a page boundary of the fill, ten
	 * touches of 64), in the sort, in the verify, past the end */
	const uint64_t bounds[] = {100, 640, 5000, whole.ops - 2000, whole.ops + 10};
	for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		struct qs_trace cut;
		assert_int_equal(qs_trace_build(&cut, NULL, n, 3, epp, bounds[b]), 0);
		uint64_t sum = 0;
		size_t k = 0;
		while (k < whole.n && sum <= bounds[b])
			sum += qs_touch_ops(&whole.t[k++]);
		if (sum <= bounds[b]) { /* the whole trace is within the bound */
			assert_false(cut.truncated);
			assert_int_equal(cut.n, whole.n);
		} else {
			assert_true(cut.truncated);
			assert_int_equal(cut.n, k);
			assert_true(cut.ops > bounds[b]);
		}
		assert_memory_equal(cut.t, whole.t, cut.n * sizeof(*cut.t));
		qs_trace_free(&cut);
	}
	qs_trace_free(&whole);
}

static void rejects_odd_page_sizes(void **state)
{
	(void)state;
	struct qs_trace tr;
	assert_int_equal(qs_trace_build(&tr, NULL, 100, 1, 3, 0), -1);
	assert_int_equal(qs_trace_build(&tr, NULL, 100, 1, 0, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(rand_is_glibcs),
	    cmocka_unit_test(two_elements_by_hand),
	    cmocka_unit_test(matches_every_access_reference),
	    cmocka_unit_test(fills_with_rand),
	    cmocka_unit_test(bounded_build_is_the_prefix),
	    cmocka_unit_test(rejects_odd_page_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
