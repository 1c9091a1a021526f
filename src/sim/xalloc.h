/* Checked allocation: the one allocator of every mmsim layer. Host memory running out is not
 * a condition the model can recover from or report as a result (no partial run is worth
 * storing), so each call either returns usable memory or prints what it could not allocate
 * and aborts; no caller tests for NULL. Sizes that come from user input are bounded before
 * they get here (run.host_memory_limit, the parsers' ranges), so an abort means the host,
 * not the input, is at fault. */
#ifndef MMSIM_SIM_XALLOC_H
#define MMSIM_SIM_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
/* nmemb * size checked for overflow, as calloc itself does. */
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t size);
/* xrealloc of nmemb elements of size bytes, the product checked for overflow. */
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Report an allocation of size bytes that failed, and abort. */
_Noreturn void xalloc_die(size_t size);

#endif
