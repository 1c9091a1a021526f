/* The reclaim throttles' functions their tests call directly (kernel-reclaim.md §2): the
 * policies themselves are kosaki_throttle.c, too_many_isolated.c and reclaim_throttle.c. */
#ifndef MMSIM_MM_POLICY_THROTTLE_H
#define MMSIM_MM_POLICY_THROTTLE_H

#include "mm/policy/policy.h"

/* 5.16 throttle reasons (VMSCAN_THROTTLE_*), index into zone->throttle_wait[] */
enum vmscan_throttle_state {
	VMSCAN_THROTTLE_WRITEBACK,
	VMSCAN_THROTTLE_ISOLATED,
	VMSCAN_THROTTLE_NOPROGRESS,
	VMSCAN_THROTTLE_CONGESTED,
	NR_VMSCAN_THROTTLE,
};

/* KOSAKI's ticket, taken at shrink_zone's entry and given back after its list work;
 * throttle_shrink_zone_enter returns whether it took one. */
unsigned long throttle_shrink_zone_enter(struct zone *z, struct scan_control *sc, bool *skip);
void throttle_shrink_zone_exit(struct zone *z, struct scan_control *sc, unsigned long ticket);
/* True when the PGFREE cut-off lets this call return without scanning (§2.2 step 6);
 * updates sc->was_freed when the count passed the threshold but the zone is still low. */
bool throttle_may_cut_off(struct zone *z, struct scan_control *sc);
/* KOSAKI's RFC (v1): true when a zone of the allocation's zonelist has free pages above four
 * times its high watermark (classzone: the allocation's highest zone), so a task that waited
 * more than HZ for its turn returns progress without reclaiming. */
bool throttle_rfc_no_longer_needed(const struct scan_control *sc);
/* too_many_isolated() of 2.6.32 (§2.3) or, with v516 set, of 5.16 (inactive >>= 3 for
 * __GFP_IO|__GFP_FS callers, §2.3 last point). */
bool too_many_isolated(struct zone *z, int file, struct scan_control *sc, bool v516);

#endif
