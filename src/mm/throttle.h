/* Reclaim throttles (kernel-reclaim.md §2): KOSAKI Motohiro's per-zone "page reclaim
 * throttle" v6-v8, mainline 2.6.32's too_many_isolated() and 5.16's reclaim_throttle().
 * Each is a vm.* switch, off by default; reclaim_throttle_setup() installs the hooks of the
 * switches that are on for the machine being booted. */
#ifndef MMSIM_MM_THROTTLE_H
#define MMSIM_MM_THROTTLE_H

#include "mm/vmscan.h"

/* 5.16 throttle reasons (VMSCAN_THROTTLE_*), index into zone->throttle_wait[] */
enum vmscan_throttle_state {
	VMSCAN_THROTTLE_WRITEBACK,
	VMSCAN_THROTTLE_ISOLATED,
	VMSCAN_THROTTLE_NOPROGRESS,
	VMSCAN_THROTTLE_CONGESTED,
	NR_VMSCAN_THROTTLE,
};

/* Installs (or clears) the hooks according to MM->sysctl. Called by mm_init. */
void reclaim_throttle_setup(void);

/* KOSAKI's shrink_zone wrapper, exposed for the tests. */
unsigned long throttle_shrink_zone(int priority, struct zone *z, struct scan_control *sc);
/* True when the PGFREE cut-off lets this call return without scanning (§2.2 step 6);
 * updates sc->was_freed when the count passed the threshold but the zone is still low. */
bool throttle_may_cut_off(struct zone *z, struct scan_control *sc);
/* too_many_isolated() of 2.6.32 (§2.3) or, with v516 set, of 5.16 (inactive >>= 3 for
 * __GFP_IO|__GFP_FS callers, §2.3 last point). */
bool too_many_isolated(struct zone *z, int file, struct scan_control *sc, bool v516);

#endif
