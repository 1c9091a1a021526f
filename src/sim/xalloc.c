/* Checked allocation (see xalloc.h): a failed request names its size and aborts, so a core
 * dump or sanitizer trace shows the call that asked for it. */
#include "sim/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

_Noreturn void xalloc_die(size_t size)
{
	fprintf(stderr, "mmsim: out of host memory allocating %zu bytes\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		xalloc_die(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		xalloc_die(SIZE_MAX);
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		xalloc_die(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	void *np = realloc(p, size ? size : 1);
	if (!np)
		xalloc_die(size);
	return np;
}

void *xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		xalloc_die(SIZE_MAX);
	return xrealloc(p, nmemb * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *r = xmalloc(n);
	memcpy(r, s, n);
	return r;
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *r = xmalloc(len + 1);
	memcpy(r, s, len);
	r[len] = '\0';
	return r;
}

#define HUGE_PAGE ((size_t)2 << 20)
#define BIG_HEAD  ((size_t)64) /* the block's header; keeps the data on a cache line */

#if defined(__SANITIZE_ADDRESS__)
#define BIG_MAPPED 0 /* every block from malloc, so the sanitizer sees overruns */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIG_MAPPED 0
#endif
#endif
#if !defined(BIG_MAPPED) && defined(__linux__) && defined(MREMAP_MAYMOVE)
#define BIG_MAPPED 1
#elif !defined(BIG_MAPPED)
#define BIG_MAPPED 0
#endif

/* The header: len is the mapping's length (0 for a block from malloc). */
struct big_head {
	size_t len;
};

static struct big_head *head_of(void *p)
{
	return (struct big_head *)((char *)p - BIG_HEAD);
}

static void *from_malloc(size_t size)
{
	if (size > SIZE_MAX - BIG_HEAD)
		xalloc_die(size);
	char *b = xcalloc(1, BIG_HEAD + size);
	((struct big_head *)b)->len = 0;
	return b + BIG_HEAD;
}

#if BIG_MAPPED
static size_t mapping_len(size_t size)
{
	if (size > SIZE_MAX - BIG_HEAD - 2 * HUGE_PAGE)
		xalloc_die(size);
	return (size + BIG_HEAD + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/* A mapping of len bytes aligned to 2 MiB: over-map by 2 MiB and unmap the two ends (the tail
 * is never empty: the start moves up by less than 2 MiB). PROT_NONE reserves a target for
 * mremap without committing memory. */
static char *map_aligned(size_t len, int prot)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (prot == PROT_NONE ? MAP_NORESERVE : 0);
	char *m = mmap(NULL, len + HUGE_PAGE, prot, flags, -1, 0);
	if (m == MAP_FAILED)
		xalloc_die(len);
	char *a = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (a > m)
		munmap(m, (size_t)(a - m));
	munmap(a + len, (size_t)(m + HUGE_PAGE - a));
	return a;
}

static void *mapped(size_t size)
{
	size_t len = mapping_len(size);
	char *a = map_aligned(len, PROT_READ | PROT_WRITE);
	(void)madvise(a, len, MADV_HUGEPAGE); /* advice only: without THP the pages are small */
	((struct big_head *)a)->len = len;
	return a + BIG_HEAD;
}
#endif

void *xbig_alloc(size_t size)
{
#if BIG_MAPPED
	if (size >= XBIG_MAPPED_MIN)
		return mapped(size);
#endif
	return from_malloc(size);
}

void *xbig_realloc(void *p, size_t size)
{
	if (!p)
		return xbig_alloc(size);
	struct big_head *h = head_of(p);
#if BIG_MAPPED
	if (h->len) {
		size_t len = mapping_len(size);
		if (len <= h->len)
			return p;
		/* move the pages (no copy) to an aligned range, so 2 MiB pages stay whole */
		char *a = map_aligned(len, PROT_NONE);
		void *n = mremap(h, h->len, len, MREMAP_MAYMOVE | MREMAP_FIXED, a);
		if (n == MAP_FAILED)
			xalloc_die(len);
		((struct big_head *)n)->len = len;
		return (char *)n + BIG_HEAD;
	}
	if (size >= XBIG_MAPPED_MIN) { /* from malloc into a mapping */
		void *n = mapped(size);
		size_t old = malloc_usable_size(h) - BIG_HEAD;
		memcpy(n, p, old < size ? old : size);
		free(h);
		return n;
	}
#endif
	if (size > SIZE_MAX - BIG_HEAD)
		xalloc_die(size);
	return (char *)xrealloc(h, BIG_HEAD + size) + BIG_HEAD;
}

void xbig_free(void *p)
{
	if (!p)
		return;
	struct big_head *h = head_of(p);
#if BIG_MAPPED
	if (h->len) {
		munmap(h, h->len);
		return;
	}
#endif
	free(h);
}
