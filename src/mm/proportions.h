/* Floating proportions (lib/proportions.c, 2.6.28): each local counter's share of the
 * events of the last periods, older periods weighing half as much per period. The global
 * count is the clock: every 2^(shift-1) events a period ends, and a local counter is halved
 * for each period it missed when next read or incremented. balance_dirty_pages uses two:
 * a backing device's share of writeback completions (its part of the dirty limit) and a
 * task's share of page dirtying (which lowers a heavy dirtier's limit). The kernel's
 * per-CPU counters are read exactly here (their error, up to nr_cpus * PROP_BATCH, is
 * not modelled). */
#ifndef MMSIM_MM_PROPORTIONS_H
#define MMSIM_MM_PROPORTIONS_H

#include <stdint.h>

struct prop_global {
	int shift; /* a period is 2^(shift-1) events */
	uint64_t events;
};

struct prop_local {
	uint64_t period; /* the global count, rounded down to a period, when last normalised */
	uint64_t events;
};

void prop_init(struct prop_global *pg, int shift);
/* __prop_inc_percpu / __prop_inc_single: one event of pl */
void prop_inc(struct prop_global *pg, struct prop_local *pl);
/* prop_fraction_percpu / prop_fraction_single: pl's share as numerator / denominator */
void prop_fraction(const struct prop_global *pg, struct prop_local *pl, long *numerator,
		   long *denominator);

#endif
