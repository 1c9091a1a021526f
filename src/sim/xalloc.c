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

#define BIG_MIN	  ((size_t)1 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

static int big_fresh; /* blocks from BIG_MIN on are fresh mappings, so already zero */

void xalloc_init(void)
{
#if defined(__GLIBC__)
	/* A fixed threshold (the default one rises after each free of a mapped block): blocks
	 * from BIG_MIN on are then always fresh mappings. */
	big_fresh = mallopt(M_MMAP_THRESHOLD, (int)BIG_MIN) == 1;
#endif
}

void *xbig_alloc(size_t size)
{
	if (size < BIG_MIN)
		return xcalloc(1, size);
	/* whole huge pages, aligned: THP backs only 2 MiB ranges that lie wholly in the advice */
	if (size > SIZE_MAX - HUGE_PAGE)
		xalloc_die(size);
	size_t len = (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	void *p;
	if (posix_memalign(&p, HUGE_PAGE, len))
		xalloc_die(len);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	(void)madvise(p, len, MADV_HUGEPAGE); /* advice only: without THP the pages are small */
#endif
	if (!big_fresh)
		memset(p, 0, len);
	return p;
}

void *xbig_realloc(void *p, size_t size)
{
	if (size < BIG_MIN)
		return xrealloc(p, size);
	void *np = xbig_alloc(size);
	if (p) {
#if defined(__GLIBC__)
		size_t old = malloc_usable_size(p);
		memcpy(np, p, old < size ? old : size);
#else
#error "xbig_realloc needs the old block's size"
#endif
		free(p);
	}
	return np;
}
