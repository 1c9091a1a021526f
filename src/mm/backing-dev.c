/* congestion_wait (kernel-reclaim.md §1.17): sleep for the timeout or until a request is
 * freed on a queue below its congestion off threshold (clear_bdi_congested wakes the
 * global congestion_wqh[rw]), whichever comes first. */
#include "mm/mm.h"

void congestion_wait(int rw, sim_time_t timeout)
{
	sleep_on(&MM->congestion_wqh[rw], timeout, false);
}

void mm_bdi_uncongested(struct blockdev *bd, int rw)
{
	(void)bd;
	wake_up_all(&MM->congestion_wqh[rw]);
}
