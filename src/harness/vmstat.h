/* mmtests' derived vmstat block, computed from /proc/vmstat counter names. */
#ifndef MMSIM_HARNESS_VMSTAT_H
#define MMSIM_HARNESS_VMSTAT_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/runres.h"

enum vmstat_row {
	VMS_PGPGIN,
	VMS_PGPGOUT,
	VMS_PSWPIN,
	VMS_PSWPOUT,
	VMS_ALLOCSTALL,
	VMS_DIRECT_SCANNED,
	VMS_KSWAPD_SCANNED,
	VMS_KSWAPD_RECLAIMED,
	VMS_DIRECT_RECLAIMED,
	VMS_KSWAPD_EFFICIENCY,
	VMS_KSWAPD_VELOCITY,
	VMS_DIRECT_EFFICIENCY,
	VMS_DIRECT_VELOCITY,
	VMS_PCT_DIRECT,
	VMS_WRITES_RECLAIM,
	VMS_WRITES_FILE,
	VMS_WRITES_ANON,
	VMS_RECLAIM_IMMEDIATE,
	VMS_SLABS_SCANNED,
	VMS_MAX_RECLAIMERS,
	VMS_MAX_STALL,
	VMS_OOM_KILLS,
	VMS_NROWS
};

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
