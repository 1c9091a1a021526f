/* The measured page sets (desktop_measured.h) decoded: run-length lists of page numbers in
 * base-64 digits, and the heap sets of switches and idle periods scaled to a heap's size. */
#include "workloads/desktop_pagesets.h"

#include "workloads/desktop.h"
#include "workloads/desktop_measured.h"

static uint32_t base64_digit(char c)
{
	if (c >= 'a')
		return (uint32_t)(c - 'a') + 26;
	if (c >= 'A')
		return (uint32_t)(c - 'A');
	if (c >= '0')
		return (uint32_t)(c - '0') + 52;
	return c == '+' ? 62 : 63;
}

/* One number of desktop_pages (desktop_measured.h), *p moved past it. */
uint32_t desktop_page_number(const char **p)
{
	uint32_t v = 0;
	for (int shift = 0;; shift += 5) {
		uint32_t d = base64_digit(*(*p)++);
		v |= (d & 31) << shift;
		if (!(d & 32))
			return v;
	}
}

void desktop_for_runs(const char *p, uint64_t num, uint64_t den, uint64_t n,
		      void (*fn)(void *, uint64_t), void *arg)
{
	uint32_t runs = desktop_page_number(&p);
	uint64_t page = 0, last = UINT64_MAX;
	for (uint32_t r = 0; r < runs; r++) {
		page += desktop_page_number(&p);
		uint64_t len = (uint64_t)desktop_page_number(&p) + 1;
		for (uint64_t i = page; i < page + len; i++) {
			uint64_t q = i * num / den;
			if (q < n && q != last)
				fn(arg, q);
			last = q;
		}
		page += len;
	}
}

/* The heap pages (0 <= q < n) that measured switch k of program pi touched: the ranks of
 * desktop_anon's set k among the program's measured anonymous pages, scaled to n pages.
 * Calls fn for each; false if the program's switches were not measured. */
bool desktop_anon_switch(int pi, uint32_t k, uint64_t n, void (*fn)(void *, uint64_t), void *arg)
{
	const struct desktop_anon *a = &desktop_anon[pi];
	if (!a->nr_switches || !a->pages)
		return false;
	/* rank i of the measured a->pages goes to heap page i * n / a->pages */
	desktop_for_runs(desktop_anon_pages + desktop_anon_sets[a->first + k % a->nr_switches], n,
			 a->pages, n, fn, arg);
	return true;
}

bool desktop_anon_idle(int pi, uint32_t k, uint64_t n, void (*fn)(void *, uint64_t), void *arg)
{
	const struct desktop_idle *a = &desktop_idle[pi];
	if (!a->nr_periods || !a->pages)
		return false;
	const struct desktop_idle_period *per = &desktop_idle_periods[a->first + k % a->nr_periods];
	desktop_for_runs(desktop_idle_pages + per->anon, n, a->pages, n, fn, arg);
	return true;
}
