/* mmtests' derived vmstat block, computed from /proc/vmstat counter names. */
#ifndef MMSIM_HARNESS_VMSTAT_H
#define MMSIM_HARNESS_VMSTAT_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/runres.h"

/* mmtests' rows, in its report's order: ID, label, printf format, where the value comes from
 *   COUNTER(name)  the counter as stored (a run's /proc/vmstat line)
 *   ZONES(name)    the counter, or its per-zone lines summed (vmstat_zone_sum)
 *   DERIVED        computed by vmstat_summarise from other rows or from the run's record */
#define VMSTAT_ROWS(X)                                                                             \
	X(VMS_PGPGIN, "Page Ins", "%.0f", COUNTER("pgpgin"))                                       \
	X(VMS_PGPGOUT, "Page Outs", "%.0f", COUNTER("pgpgout"))                                    \
	X(VMS_PSWPIN, "Swap Ins", "%.0f", COUNTER("pswpin"))                                       \
	X(VMS_PSWPOUT, "Swap Outs", "%.0f", COUNTER("pswpout"))                                    \
	X(VMS_ALLOCSTALL, "Allocation stalls", "%.0f", DERIVED)                                    \
	X(VMS_DIRECT_SCANNED, "Direct pages scanned", "%.0f", ZONES("pgscan_direct"))              \
	X(VMS_KSWAPD_SCANNED, "Kswapd pages scanned", "%.0f", ZONES("pgscan_kswapd"))              \
	X(VMS_KSWAPD_RECLAIMED, "Kswapd pages reclaimed", "%.0f", DERIVED)                         \
	X(VMS_DIRECT_RECLAIMED, "Direct pages reclaimed", "%.0f", DERIVED)                         \
	X(VMS_KSWAPD_EFFICIENCY, "Kswapd efficiency (%)", "%.2f", DERIVED)                         \
	X(VMS_KSWAPD_VELOCITY, "Kswapd velocity (pages/s)", "%.2f", DERIVED)                       \
	X(VMS_DIRECT_EFFICIENCY, "Direct efficiency (%)", "%.2f", DERIVED)                         \
	X(VMS_DIRECT_VELOCITY, "Direct velocity (pages/s)", "%.2f", DERIVED)                       \
	X(VMS_PCT_DIRECT, "Percentage direct scans", "%.2f", DERIVED)                              \
	X(VMS_WRITES_RECLAIM, "Page writes by reclaim", "%.0f", COUNTER("nr_vmscan_write"))        \
	X(VMS_WRITES_FILE, "Page writes file", "%.0f", DERIVED)                                    \
	X(VMS_WRITES_ANON, "Page writes anon", "%.0f", DERIVED)                                    \
	X(VMS_RECLAIM_IMMEDIATE, "Page reclaim immediate", "%.0f",                                 \
	  COUNTER("nr_vmscan_immediate_reclaim"))                                                  \
	X(VMS_SLABS_SCANNED, "Slabs scanned", "%.0f", COUNTER("slabs_scanned"))                    \
	X(VMS_MAX_RECLAIMERS, "Max parallel direct reclaimers", "%.0f", DERIVED)                   \
	X(VMS_MAX_STALL, "Longest direct reclaim (s)", "%.4f", DERIVED)                            \
	X(VMS_OOM_KILLS, "OOM kills", "%.2f", DERIVED)

#define VMSTAT_ROW_ENUM(id, label, fmt, src) id,
enum vmstat_row { VMSTAT_ROWS(VMSTAT_ROW_ENUM) VMS_NROWS };
#undef VMSTAT_ROW_ENUM

struct vmstat_summary {
	double v[VMS_NROWS]; /* NAN where no run reports what the row needs */
};

/* Counter values are averaged over the runs, then the ratios are taken from the averages
 * (so one run with nothing scanned does not make an efficiency undefined). */
void vmstat_summarise(const struct run_result *const *runs, size_t n, struct vmstat_summary *s);
const char *vmstat_row_label(size_t row);
/* printf format for a row's value. */
const char *vmstat_row_format(size_t row);

/* A counter that may be reported plainly (pgscan_direct) or per zone (pgscan_direct_normal,
 * ...): the plain one if present, else the sum over zones; NAN if neither. */
double vmstat_zone_sum(const struct run_result *r, const char *base);

#endif
