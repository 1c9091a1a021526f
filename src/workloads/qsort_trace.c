/* See qsort_trace.h. glibc's rand(): srand(s) seeds r[0] = s (1 if 0), r[1..30] by the
 * Park-Miller step 16807·r mod (2^31 − 1), r[31..33] copies of r[0..2], then throws away 310
 * outputs; each output is r[k] = r[k−31] + r[k−3] (mod 2^32), returned shifted right by one. */
#include "workloads/qsort_trace.h"

#include "sim/xalloc.h"

#include <stdlib.h>
#include <string.h>

void glibc_srand(struct glibc_rand *g, uint32_t seed)
{
	int32_t w[344];
	w[0] = seed ? (int32_t)seed : 1;
	for (int i = 1; i < 31; i++) {
		/* 16807 · w mod (2^31 − 1) without overflow (Schrage) */
		int32_t hi = w[i - 1] / 127773, lo = w[i - 1] % 127773;
		int32_t v = 16807 * lo - 2836 * hi;
		w[i] = v < 0 ? v + 2147483647 : v;
	}
	for (int i = 31; i < 34; i++)
		w[i] = w[i - 31];
	for (int i = 34; i < 344; i++)
		w[i] = (int32_t)((uint32_t)w[i - 31] + (uint32_t)w[i - 3]);
	memcpy(g->r, w + 344 - 34, sizeof(g->r));
	g->k = 0;
}

int32_t glibc_rand(struct glibc_rand *g)
{
	/* g->r is a ring of the last 34 values; slot k holds w[n−34], the oldest */
	unsigned k = g->k;
	uint32_t v = (uint32_t)g->r[(k + 3) % 34] + (uint32_t)g->r[(k + 31) % 34];
	g->r[k] = (int32_t)v;
	g->k = (k + 1) % 34;
	return (int32_t)(v >> 1);
}

struct emitter {
	struct qs_trace *tr;
	unsigned shift;	   /* elems_per_page is 1 << shift */
	uint64_t pages[2]; /* the two pages touched last, [0] the most recent */
	int written[2];
	uint32_t pending;	    /* operations since the last touch */
	uint64_t recorded, max_ops; /* operations in the touches pushed; the bound (0: none) */
	int stop;		    /* recorded passed max_ops: the rest is never replayed */
};

static void push(struct emitter *e, uint64_t page, int write)
{
	struct qs_trace *tr = e->tr;
	if (tr->n == tr->cap) {
		size_t cap = tr->cap ? tr->cap * 2 : 4096;
		tr->t = xrealloc(tr->t, cap * sizeof(*tr->t));
		tr->cap = cap;
	}
	tr->t[tr->n++] = (struct qs_touch){(uint32_t)page, (e->pending << 2) | (uint32_t)write};
	e->recorded += e->pending;
	e->pending = 0;
	if (e->max_ops && e->recorded > e->max_ops)
		e->stop = tr->truncated = 1;
}

static void access_slow(struct emitter *e, uint64_t page, int write)
{
	int slot = page == e->pages[0] ? 0 : page == e->pages[1] ? 1 : -1;
	if (slot < 0) {
		e->pages[1] = e->pages[0];
		e->written[1] = e->written[0];
		e->pages[0] = page;
		e->written[0] = write;
		push(e, page, write);
		return;
	}
	if (slot == 1) { /* keep [0] the most recent */
		uint64_t p = e->pages[0];
		int w = e->written[0];
		e->pages[0] = e->pages[1];
		e->written[0] = e->written[1];
		e->pages[1] = p;
		e->written[1] = w;
	}
	if (write && !e->written[0]) {
		e->written[0] = 1;
		push(e, page, 1);
	}
}

/* the common case inline: the same page as the last access, nothing new to record */
static inline void access_elem(struct emitter *e, uint64_t idx, int write)
{
	uint64_t page = idx >> e->shift;
	if (page == e->pages[0] && (e->written[0] || !write))
		return;
	access_slow(e, page, write);
}

static inline void op(struct emitter *e)
{
	if (e->pending < (1u << 30) - 1)
		e->pending++;
}

struct range {
	int64_t l, r;
};

/* quick_sort of a range inside one page, without the emitter: every access of it is to that
 * page, so the reference string is one read, then (at the first swap) one write. Counts the
 * operations before that first write and after it, as the emitter would have attached them.
 * st holds 2 × (r − l + 1) ranges: the stack cannot grow deeper. */
static void sort_in_page(int32_t *a, int64_t l0, int64_t r0, struct range *st, uint64_t *before,
			 uint64_t *after, int *wrote)
{
	uint64_t ops = 0;
	size_t top = 0;
	*wrote = 0;
	st[top++] = (struct range){l0, r0};
	while (top) {
		struct range g = st[--top];
		int64_t l = g.l, r = g.r, i = l, j = r, m = (l + r) >> 1;
		int32_t p, lo, hi;
		if (a[m] >= a[l])
			hi = a[m], lo = a[l];
		else
			hi = a[l], lo = a[m];
		p = a[r] >= hi ? hi : a[r] >= lo ? a[r] : lo;
		ops += 2;
		do {
			while (ops++, a[i] < p)
				i++;
			while (ops++, p < a[j])
				j--;
			if (i <= j) {
				if (!*wrote) {
					*wrote = 1;
					*before = ops;
				}
				int32_t t = a[i];
				a[i] = a[j];
				a[j] = t;
				ops++;
				i++;
				j--;
			}
		} while (i <= j);
		if (i < r)
			st[top++] = (struct range){i, r};
		if (l < j)
			st[top++] = (struct range){l, j};
	}
	if (!*wrote)
		*before = ops;
	*after = ops - *before;
}

static void add_ops(struct emitter *e, uint64_t n)
{
	uint64_t v = e->pending + n;
	e->pending = v < (1u << 30) - 1 ? (uint32_t)v : (1u << 30) - 1;
}

/* quick_sort(a, l, r) of qsbench.c, with its recursion as an explicit stack in the same
 * order: all of [l, j] before [i, r]. */
static void quick_sort(struct emitter *e, int32_t *a, int64_t n)
{
	size_t cap = 64, top = 0;
	struct range *st = xmalloc(cap * sizeof(*st));
	struct range *small = xmalloc(2 * (e->tr->elems_per_page + 1) * sizeof(*small));
	st[top++] = (struct range){0, n - 1};
	while (top && !e->stop) {
		struct range g = st[--top];
		int64_t l = g.l, r = g.r, i = l, j = r, m = (l + r) >> 1;
		if ((uint64_t)l >> e->shift == (uint64_t)r >> e->shift) {
			uint64_t before, after;
			int wrote;
			sort_in_page(a, l, r, small, &before, &after, &wrote);
			access_elem(e, (uint64_t)m, 0);
			add_ops(e, before);
			if (wrote)
				access_elem(e, (uint64_t)m, 1);
			add_ops(e, after);
			continue;
		}
		int32_t p, lo, hi;
		access_elem(e, (uint64_t)m, 0);
		access_elem(e, (uint64_t)l, 0);
		op(e);
		if (a[m] >= a[l])
			hi = a[m], lo = a[l];
		else
			hi = a[l], lo = a[m];
		access_elem(e, (uint64_t)r, 0);
		op(e);
		p = a[r] >= hi ? hi : a[r] >= lo ? a[r] : lo;
		do {
			for (;;) {
				access_elem(e, (uint64_t)i, 0);
				op(e);
				if (!(a[i] < p) || e->stop)
					break;
				i++;
			}
			for (;;) {
				access_elem(e, (uint64_t)j, 0);
				op(e);
				if (!(p < a[j]) || e->stop)
					break;
				j--;
			}
			if (e->stop)
				break;
			if (i <= j) {
				int32_t t = a[i];
				access_elem(e, (uint64_t)i, 1);
				a[i] = a[j];
				access_elem(e, (uint64_t)j, 1);
				a[j] = t;
				op(e);
				i++;
				j--;
			}
		} while (i <= j);
		if (top + 2 > cap) {
			cap *= 2;
			st = xrealloc(st, cap * sizeof(*st));
		}
		if (i < r)
			st[top++] = (struct range){i, r};
		if (l < j)
			st[top++] = (struct range){l, j};
	}
	free(small);
	free(st);
}

int qs_trace_build(struct qs_trace *tr, const int32_t *src, uint64_t n, uint32_t seed,
		   uint64_t elems_per_page, uint64_t max_ops)
{
	memset(tr, 0, sizeof(*tr));
	tr->elems = n;
	tr->elems_per_page = elems_per_page;
	unsigned shift = 0;
	while ((1ULL << shift) < elems_per_page)
		shift++;
	if (!elems_per_page || (1ULL << shift) != elems_per_page)
		return -1; /* pages hold a power of two of ints */
	if (!n)
		return 0;
	struct emitter e = {
	    .tr = tr, .shift = shift, .pages = {UINT64_MAX, UINT64_MAX}, .max_ops = max_ops};
	/* a bound the fill alone passes (a touch every page at least) needs no array: a run
	 * that can replay only part of the fill must not cost the host the whole one */
	int fill_only = max_ops && n > max_ops + 2 * elems_per_page;
	int32_t *a = fill_only ? NULL : xmalloc(n * sizeof(*a));
	struct glibc_rand g;
	glibc_srand(&g, seed);
	for (uint64_t i = 0; i < n && !e.stop; i++) { /* a[i] = rand() */
		int32_t v = src ? src[i] : glibc_rand(&g);
		if (a)
			a[i] = v;
		access_elem(&e, i, 1);
		op(&e);
	}
	if (!e.stop && a)
		quick_sort(&e, a, (int64_t)n);
	for (uint64_t i = 0; i + 1 < n && !e.stop; i++) { /* a[i] > a[i + 1] ? */
		access_elem(&e, i, 0);
		access_elem(&e, i + 1, 0);
		op(&e);
	}
	if (e.pending && !e.stop) { /* the operations after the last touch */
		uint64_t last = (n - 1) / tr->elems_per_page;
		e.pages[0] = e.pages[1] = UINT64_MAX;
		push(&e, last, 0);
	}
	for (size_t k = 0; k < tr->n; k++)
		tr->ops += qs_touch_ops(&tr->t[k]);
	free(a);
	return 0;
}

void qs_trace_free(struct qs_trace *tr)
{
	free(tr->t);
	memset(tr, 0, sizeof(*tr));
}
