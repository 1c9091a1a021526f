/* Kernel eras and reclaim rule variants as descriptors.
 *
 * A rule variant (`struct reclaim_rules`) is a kernel's own version of the core of global
 * reclaim where it differs from 2.6.28's: how shrink_zone walks the lists (2.6.25's two
 * lists, vmscan_2625.c; 2.6.28's split LRU, vmscan.c), whether anon and file pages have
 * lists of their own, and what try_to_free_pages reports. vm.reclaim_lru chooses one.
 *
 * An era (`struct kernel_era`) is a mainline kernel line: the versions it stands for, and
 * the sysctls it boots with, which include its rule variant and the policies that were
 * mainline in it. One file per era (era_<version>.c), one line in eras.c. */
#ifndef MMSIM_MM_ERA_ERA_H
#define MMSIM_MM_ERA_ERA_H

#include "mm/vmscan.h"

/* struct reclaim_rules is in mm/mm.h (page_lru reads it). */
extern const struct reclaim_rules reclaim_rules_2628; /* vmscan.c */
extern const struct reclaim_rules reclaim_rules_2625; /* vmscan_2625.c */
extern const struct reclaim_rules reclaim_rules_268;  /* vmscan_268.c */
/* Every rule variant, in vm.reclaim_lru's index order, NULL-terminated. */
extern const struct reclaim_rules *const reclaim_rules_table[];
/* The rule variant of vm.reclaim_lru index i; 2.6.28's for an index out of range. */
const struct reclaim_rules *reclaim_rules_at(int i);
/* vm.reclaim_lru's choices, built from the table */
const char *const *reclaim_rules_names(void);

struct kernel_era {
	const char *name;	/* the era's base version, e.g. "2.6.28" */
	kernel_version_t since; /* the first release it stands for */
	kernel_version_t until; /* the first it no longer stands for (0: up to the next era) */
	const char *summary;	/* which versions it stands for, and what it leaves out */
	/* the core sysctls and the rule variant kernel v of this era boots with; the
	 * policies' own mainline values are applied after it (mm_policies_mainline) */
	void (*defaults)(struct vm_sysctl *s, kernel_version_t v);
};

extern const struct kernel_era *const kernel_eras[];

/* "2.6.25-rc1", "2.6.25-mm1", "3.0-rc", "2.6.31": 0, or -1 when it is no kernel version. */
int kernel_version_parse(const char *text, kernel_version_t *out);
/* The era with the latest base not after v that still stands for v; for a version no era
 * stands for, the next era after it (the oldest, for a version older than every era). */
const struct kernel_era *kernel_era_for(kernel_version_t v);
/* Every sysctl as kernel v boots: its era's defaults, then each policy's mainline value. */
void kernel_version_defaults(kernel_version_t v, struct vm_sysctl *s);
/* The version a scenario runs when it states none. */
#define KERNEL_VERSION_DEFAULT "2.6.28"

/* The core sysctl values of kernel v, for the eras' defaults to start from: the dirty
 * ratios and kswapd's nice level changed across the eras; every policy absent. */
void vm_sysctl_common(struct vm_sysctl *s, kernel_version_t v);

#endif
