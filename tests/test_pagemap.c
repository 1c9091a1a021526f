/* The page-number -> dense-id map: ids in order of first appearance whatever the shape of the
 * keys (runs, single pages, chunks that fill up slowly, random 64-bit keys), through every
 * growth of its tables, checked against a plain reference map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "trace/pagemap.h"

/* Reference: a plain open-addressing table of (page, id), no chunks. */
struct ref {
	uint64_t *key;
	uint32_t *id1;
	size_t mask, n;
};

static void ref_init(struct ref *r, size_t cap_pow2)
{
	r->key = calloc(cap_pow2, sizeof(*r->key));
	r->id1 = calloc(cap_pow2, sizeof(*r->id1));
	r->mask = cap_pow2 - 1;
	r->n = 0;
	assert_non_null(r->key);
	assert_non_null(r->id1);
}

static uint32_t ref_get(struct ref *r, uint64_t page, int *is_new)
{
	size_t h = (size_t)((page * 0xff51afd7ed558ccdull) >> 17) & r->mask;
	while (r->id1[h] && r->key[h] != page)
		h = (h + 1) & r->mask;
	*is_new = !r->id1[h];
	if (*is_new) {
		assert_true(r->n < r->mask / 2);
		r->key[h] = page;
		r->id1[h] = (uint32_t)++r->n;
	}
	return r->id1[h] - 1;
}

static void ref_free(struct ref *r)
{
	free(r->key);
	free(r->id1);
}

static uint64_t xs(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Looks page up in both maps and checks they agree, on the id and on newness. */
static void both(struct pagemap *m, struct ref *r, uint64_t page)
{
	int n1, n2;
	uint32_t a = pagemap_get(m, page, &n1);
	uint32_t b = ref_get(r, page, &n2);
	assert_int_equal(a, b);
	assert_int_equal(n1, n2);
}

static void check_all(const struct pagemap *m, const struct ref *r)
{
	for (size_t h = 0; h <= r->mask; h++)
		if (r->id1[h])
			assert_int_equal(pagemap_find(m, r->key[h]), r->id1[h] - 1);
	assert_int_equal(m->n, r->n);
}

static void test_first_appearance_order(void **state)
{
	(void)state;
	struct pagemap m;
	pagemap_init(&m);
	const uint64_t pages[] = {5, 100, 5, 7, 100, 6, 37, 5, 1ull << 63, 6};
	const uint32_t want[] = {0, 1, 0, 2, 1, 3, 4, 0, 5, 3};
	const int fresh[] = {1, 1, 0, 1, 0, 1, 1, 0, 1, 0};
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		int is_new = -1;
		assert_int_equal(pagemap_get(&m, pages[i], &is_new), want[i]);
		assert_int_equal(is_new, fresh[i]);
	}
	assert_int_equal(m.n, 6);
	assert_int_equal(pagemap_find(&m, 8), PAGEMAP_FAIL);
	assert_int_equal(pagemap_find(&m, (1ull << 63) | 5), PAGEMAP_FAIL);
	assert_int_equal(pagemap_find(&m, 1ull << 63), 5);
	pagemap_free(&m);
}

/* Runs across chunk boundaries, walked forwards then backwards, and the gaps inside a chunk
 * that has a block stay absent. */
static void test_runs(void **state)
{
	(void)state;
	struct pagemap m;
	pagemap_init(&m);
	int is_new;
	for (uint64_t p = 1000; p < 1100; p++)
		assert_int_equal(pagemap_get(&m, p, &is_new), p - 1000);
	for (uint64_t p = 1099; p >= 1000; p--) {
		assert_int_equal(pagemap_get(&m, p, &is_new), p - 1000);
		assert_int_equal(is_new, 0);
	}
	/* every other page of a second run: chunks half filled */
	for (uint64_t p = 5000; p < 5200; p += 2)
		assert_int_equal(pagemap_get(&m, p, &is_new), 100 + (p - 5000) / 2);
	for (uint64_t p = 5001; p < 5200; p += 2)
		assert_int_equal(pagemap_find(&m, p), PAGEMAP_FAIL);
	assert_int_equal(pagemap_find(&m, 999), PAGEMAP_FAIL);
	assert_int_equal(pagemap_find(&m, 1100), PAGEMAP_FAIL);
	/* the odd pages now come in between, in order */
	for (uint64_t p = 5001; p < 5200; p += 2)
		assert_int_equal(pagemap_get(&m, p, &is_new), 200 + (p - 5001) / 2);
	assert_int_equal(m.n, 300);
	pagemap_free(&m);
}

/* A chunk filled one page at a time, with other chunks' lookups in between so no fast path
 * carries it: each page is found before and after the chunk changes representation. */
static void test_chunk_fills_slowly(void **state)
{
	(void)state;
	struct pagemap m;
	struct ref r;
	pagemap_init(&m);
	ref_init(&r, 1 << 12);
	const uint64_t base = 7ull * PAGEMAP_CHUNK;
	for (uint32_t k = 0; k < PAGEMAP_CHUNK; k++) {
		both(&m, &r, base + (k * 7) % PAGEMAP_CHUNK);
		both(&m, &r, 1000003ull * (k + 1)); /* elsewhere */
		for (uint32_t j = 0; j <= k; j++)
			both(&m, &r, base + (j * 7) % PAGEMAP_CHUNK);
		check_all(&m, &r);
	}
	pagemap_free(&m);
	ref_free(&r);
}

/* Random 64-bit keys, some sharing a chunk, through many table growths; memory stays bounded
 * near a plain hash's. */
static void test_sparse_keys_and_growth(void **state)
{
	(void)state;
	struct pagemap m;
	struct ref r;
	pagemap_init(&m);
	ref_init(&r, 1 << 19);
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < 200000; i++) {
		uint64_t k = xs(&x);
		both(&m, &r, k);
		if (i % 7 == 0)
			both(&m, &r, k ^ 1); /* a neighbour in the same chunk */
		if (i % 11 == 0)
			both(&m, &r, k ^ (1ull << 63)); /* same low bits, far away */
	}
	check_all(&m, &r);
	double per_page = (double)pagemap_bytes(&m) / (double)m.n;
	assert_true(per_page < 48);
	pagemap_free(&m);
	ref_free(&r);
}

/* A mix of the shapes a trace has: runs of random length, re-references of old pages, pages
 * near old ones, and far random keys. */
static void test_mixed_against_reference(void **state)
{
	(void)state;
	struct pagemap m;
	struct ref r;
	pagemap_init(&m);
	ref_init(&r, 1 << 21);
	uint64_t x = 0x2545f4914f6cdd1dull, hist[256] = {0};
	for (int i = 0; i < 40000; i++) {
		uint64_t v = xs(&x);
		uint64_t p;
		switch (v % 4) {
		case 0:
			p = (v >> 8) % 4000000;
			break;
		case 1:
			p = hist[(v >> 8) % 256];
			break;
		case 2:
			p = hist[(v >> 8) % 256] + (v >> 16) % 70 - 35;
			break;
		default:
			p = xs(&x);
		}
		hist[i % 256] = p;
		uint64_t len = 1 + (v >> 40) % 40;
		for (uint64_t j = 0; j < len; j++)
			both(&m, &r, p + j);
	}
	check_all(&m, &r);
	pagemap_free(&m);
	ref_free(&r);
}

static void test_append(void **state)
{
	(void)state;
	struct pagemap m;
	pagemap_init(&m);
	for (uint32_t i = 0; i < 5000; i++)
		assert_int_equal(pagemap_append(&m, 3ull * i + 1), i);
	assert_int_equal(m.n, 5000);
	assert_true(m.pages[4999] == 3ull * 4999 + 1);
	pagemap_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_first_appearance_order),
	    cmocka_unit_test(test_runs),
	    cmocka_unit_test(test_chunk_fills_slowly),
	    cmocka_unit_test(test_sparse_keys_and_growth),
	    cmocka_unit_test(test_mixed_against_reference),
	    cmocka_unit_test(test_append),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
