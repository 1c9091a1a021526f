/* The kernel's reclaim tracepoints, printed in ftrace's trace_pipe text format.
 *
 * Event names and TP_printk formats are those of the kernel that introduced each event:
 * mm_vmscan_* from include/trace/events/vmscan.h of 2.6.36 (Mel Gorman's reclaim tracing,
 * the one mmtests' trace-vmscan-postprocess.pl parses), mm_vmscan_lru_shrink_inactive and
 * writeback_congestion_wait/wait_iff_congested from 2.6.37, replace_swap_token from 3.1,
 * oom's mark_victim from 4.8 and mm_vmscan_throttled from 5.16. The line header is 2.6.36's
 * "comm-pid [cpu] seconds.micros: " (irq-info columns came later, and parsers accept both).
 * mmsim_reclaim_ticket_wait has no kernel counterpart: the 2.6.2x "limit concurrent
 * reclaimers" patch (seed 000) had no tracepoint.
 *
 * Every call site is one line at the kernel's site; disabled, an event costs one load and
 * one predictable branch. */
#ifndef MMSIM_MM_MM_TRACE_H
#define MMSIM_MM_MM_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#define MM_TRACE_EVENTS(X)                                                                         \
	X(mm_vmscan_kswapd_sleep)                                                                  \
	X(mm_vmscan_kswapd_wake)                                                                   \
	X(mm_vmscan_wakeup_kswapd)                                                                 \
	X(mm_vmscan_direct_reclaim_begin)                                                          \
	X(mm_vmscan_direct_reclaim_end)                                                            \
	X(mm_vmscan_lru_isolate)                                                                   \
	X(mm_vmscan_writepage)                                                                     \
	X(mm_vmscan_lru_shrink_inactive)                                                           \
	X(mm_vmscan_throttled)                                                                     \
	X(writeback_congestion_wait)                                                               \
	X(writeback_wait_iff_congested)                                                            \
	X(writeback_wake_background)                                                               \
	X(writeback_pages_written)                                                                 \
	X(mark_victim)                                                                             \
	X(replace_swap_token)                                                                      \
	X(mmsim_reclaim_ticket_wait)

#define MM_TRACE_ENUM(name) TP_##name,
enum mm_trace_event { MM_TRACE_EVENTS(MM_TRACE_ENUM) NR_MM_TRACE_EVENTS };
#undef MM_TRACE_ENUM

extern bool mm_trace_enabled[NR_MM_TRACE_EVENTS];

/* Starts writing to out the events whose names match one of the comma-separated fnmatch
 * globs in filter (NULL: all). Returns -1, with the valid names in err, when a glob
 * matches no event. */
int mm_trace_start(FILE *out, const char *filter, char *err, size_t errlen);
void mm_trace_stop(void);
/* Writes one line: the header for the running task at its local time, then the fields. */
void mm_trace_printf(enum mm_trace_event ev, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* show_gfp_flags() of the kernel's gfpflags.h, for the flags mmsim models. */
const char *mm_trace_gfp_flags(unsigned gfp, char *buf, size_t len);

#define trace_event(name, ...)                                                                     \
	do {                                                                                       \
		if (__builtin_expect(mm_trace_enabled[TP_##name], 0))                              \
			mm_trace_printf(TP_##name, __VA_ARGS__);                                   \
	} while (0)

/* RECLAIM_WB_* of vmscan.h: all reclaim writeback is asynchronous in 2.6.36. */
#define TRACE_RECLAIM_FLAGS(file)                                                                  \
	((file) ? "RECLAIM_WB_FILE|RECLAIM_WB_ASYNC" : "RECLAIM_WB_ANON|RECLAIM_WB_ASYNC")

#endif
