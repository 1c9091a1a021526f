/* Checked allocation (see xalloc.h): a failed request names its size and aborts, so a core
 * dump or sanitizer trace shows the call that asked for it. */
#include "sim/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
