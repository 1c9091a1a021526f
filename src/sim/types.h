/* Basic types shared by every layer of the simulated machine. */
#ifndef MMSIM_SIM_TYPES_H
#define MMSIM_SIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t sim_time_t; /* virtual nanoseconds since boot */

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC  1000000000ULL

/* HZ of the modelled kernel (its config HZ): the timer tick and the timeouts counted in
 * jiffies. The machine's profile sets it at boot (sched_set_hz); 1000 otherwise. */
extern unsigned sim_hz;
#define HZ	 sim_hz
#define JIFFY_NS (NSEC_PER_SEC / HZ)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b)     ((a) < (b) ? (a) : (b))
#define MAX(a, b)     ((a) > (b) ? (a) : (b))

#endif
