/* The measured page sets' encoding (desktop_measured.h, "desktop_pages"): numbers in
 * little-endian groups of five bits, one base-64 digit each, the sixth bit saying another
 * group follows. desktop_anon_switch and desktop_anon_idle (desktop.h) are built on it. */
#ifndef MMSIM_WORKLOADS_DESKTOP_PAGESETS_H
#define MMSIM_WORKLOADS_DESKTOP_PAGESETS_H

#include <stdint.h>

/* The number at *p, and *p moved past it. */
uint32_t desktop_page_number(const char **p);
/* The run-encoded set at p (a count of runs, then each run's gap and length less one),
 * each page i scaled to q = i * num / den: fn(arg, q) for each q < n that differs from the
 * q before it, in increasing order. */
void desktop_for_runs(const char *p, uint64_t num, uint64_t den, uint64_t n,
		      void (*fn)(void *, uint64_t), void *arg);

#endif
