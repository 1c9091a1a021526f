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
/* Every rule variant, in vm.reclaim_lru's index order, NULL-terminated. */
extern const struct reclaim_rules *const reclaim_rules_table[];
/* vm.reclaim_lru's choices, built from the table */
const char *const *reclaim_rules_names(void);

struct kernel_era {
	const char *name;    /* the era's base version, e.g. "2.6.28" */
	const char *summary; /* which versions it stands for, and what it leaves out */
	/* the sysctls this kernel boots with: every key's value, policies included */
	void (*defaults)(struct vm_sysctl *s);
};

extern const struct kernel_era *const kernel_eras[];
/* The era a machine boots when nothing names one. */
const struct kernel_era *kernel_era_default(void);

/* The core sysctl values every era shares (2.6.2x), for the eras' defaults to start from. */
void vm_sysctl_common(struct vm_sysctl *s);

#endif
