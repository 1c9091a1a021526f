/* Spinlocks whose waiters burn CPU: a holder keeps the lock for a stretch of system time, and
 * a task that arrives while another's hold reaches past its local time spins until then. */
#include "sim/sched.h"

void spin_lock_hold(struct spinlock *lock, sim_time_t hold_ns)
{
	sim_time_t t = local_now();
	lock->acquisitions++;
	if (lock->free_at > t) {
		sim_time_t wait = lock->free_at - t;
		lock->contended++;
		lock->spin_ns += wait;
		t = lock->free_at;
		lock->free_at = t + hold_ns;
		cpu_work_sys(wait + hold_ns);
	} else {
		lock->free_at = t + hold_ns;
		cpu_work_sys(hold_ns);
	}
}
