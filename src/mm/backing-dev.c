/* congestion_wait (mm/backing-dev.c, kernel-reclaim.md §1.17): sleep for the timeout or until
 * a queue leaves the congested state, whichever comes first; the block device's clearing of
 * congestion wakes every sleeper of that direction, as clear_bdi_congested does. */
#include "mm/mm.h"

sim_time_t congestion_wait_untraced(int rw, sim_time_t timeout)
{
	sim_time_t start = local_now();
	sleep_on(&MM->congestion_wqh[rw], timeout, false);
	return local_now() - start;
}

void congestion_wait(int rw, sim_time_t timeout)
{
	sim_time_t delayed = congestion_wait_untraced(rw, timeout);
	trace_event(writeback_congestion_wait, "usec_timeout=%u usec_delayed=%u",
		    (unsigned)(timeout / 1000), (unsigned)(delayed / 1000));
}

void mm_bdi_uncongested(struct blockdev *bd, int rw)
{
	(void)bd;
	wake_up_all(&MM->congestion_wqh[rw]);
}
