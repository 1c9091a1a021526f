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

/* Large arrays (the replay paths' maps, stacks and per-id tables). From XBIG_MAPPED_MIN on a
 * block is its own mapping, aligned to 2 MiB and a whole number of 2 MiB long, and the kernel is
 * asked to back it in 2 MiB units (madvise MADV_HUGEPAGE, THP; a no-op where THP is off): the first
 * touch of each 4 KiB of fresh memory costs about 12 us of CPU on the 2-core VM the benchmarks
 * run on, against 0.3 us per 4 KiB in 2 MiB units (bench/README.md, "Page faults"). A block
 * grows by moving its mapping (mremap), not by copying, so old and new are never both
 * resident. Smaller blocks, and every block under AddressSanitizer, come from malloc. A block
 * is freed with xbig_free, never free(). */
void *xbig_alloc(size_t size); /* zeroed */
/* 128 KiB: a block this size costs 32 first touches of 4 KiB (about 0.45 ms here) against one
 * 2 MiB unit cleared (about 0.15 ms); with the line at 1 MiB, OLTP's replay took 1.15 times the
 * CPU (bench/README.md, "Page faults"). */
#define XBIG_MAPPED_MIN ((size_t)128 << 10)
/* As realloc: the first min(old, size) bytes kept, the rest unspecified. */
void *xbig_realloc(void *p, size_t size);
void xbig_free(void *p);

/* Report an allocation of size bytes that failed, and abort. */
_Noreturn void xalloc_die(size_t size);

#endif
