/* congestion_wait (mm/backing-dev.c, kernel-reclaim.md §1.17): sleep for the timeout or until
 * a request is freed on a queue below its congestion off threshold, whichever comes first:
 * __freed_request's clear_bdi_congested wakes every sleeper of that direction. */
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
