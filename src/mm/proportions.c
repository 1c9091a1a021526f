/* Floating proportions (lib/proportions.c, 2.6.28): see proportions.h. */
#include "mm/proportions.h"

#define PROP_MAX_SHIFT 48 /* 3 * BITS_PER_LONG / 4 */

void prop_init(struct prop_global *pg, int shift)
{
	pg->shift = shift > PROP_MAX_SHIFT ? PROP_MAX_SHIFT : shift < 1 ? 1 : shift;
	pg->events = 0;
}

/* prop_norm_percpu / prop_norm_single: halve the local count once per missed period. */
static void prop_norm(const struct prop_global *pg, struct prop_local *pl)
{
	uint64_t period = 1ull << (pg->shift - 1);
	uint64_t global_period = pg->events & ~(period - 1);
	if (pl->period == global_period)
		return;
	uint64_t missed = (global_period - pl->period) >> (pg->shift - 1);
	pl->events = missed < 64 ? pl->events >> missed : 0;
	pl->period = global_period;
}

void prop_inc(struct prop_global *pg, struct prop_local *pl)
{
	prop_norm(pg, pl);
	pl->events++;
	pg->events++;
}

void prop_fraction(const struct prop_global *pg, struct prop_local *pl, long *numerator,
		   long *denominator)
{
	uint64_t period_2 = 1ull << (pg->shift - 1);
	prop_norm(pg, pl);
	*numerator = (long)pl->events;
	*denominator = (long)(period_2 + (pg->events & (period_2 - 1)));
}
