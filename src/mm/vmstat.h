/* /proc/vmstat: zone gauges, per-zone event counters and global event counters, under the
 * kernel's names (kernel-reclaim.md §1.20), printed in the kernel's order. */
#ifndef MMSIM_MM_VMSTAT_H
#define MMSIM_MM_VMSTAT_H

#include <stdint.h>

#include "mm/vmstat_items.h"

#define VMSTAT_ENUM(id, name) id,

/* Zone gauges. */
enum zone_stat_item {
	VMSTAT_ITEMS(VMSTAT_ENUM, VMSTAT_IGNORE, VMSTAT_IGNORE) NR_VM_ZONE_STAT_ITEMS
};
/* The evictable LRU lists' gauges, in enum lru_list order. */
enum { NR_LRU_BASE = NR_INACTIVE_ANON };
_Static_assert(NR_ACTIVE_ANON == NR_LRU_BASE + 1 && NR_INACTIVE_FILE == NR_LRU_BASE + 2 &&
		   NR_ACTIVE_FILE == NR_LRU_BASE + 3,
	       "the LRU gauges follow enum lru_list");

/* Events counted per zone and printed as name_<zone>. */
enum zone_event_item {
	VMSTAT_ITEMS(VMSTAT_IGNORE, VMSTAT_ENUM, VMSTAT_IGNORE) NR_VM_ZONE_EVENT_ITEMS
};

/* Machine-wide events. */
enum vm_event_item { VMSTAT_ITEMS(VMSTAT_IGNORE, VMSTAT_IGNORE, VMSTAT_ENUM) NR_VM_EVENT_ITEMS };

#undef VMSTAT_ENUM

extern uint64_t vm_events[NR_VM_EVENT_ITEMS];

static inline void count_vm_event(enum vm_event_item item)
{
	vm_events[item]++;
}
static inline void count_vm_events(enum vm_event_item item, uint64_t n)
{
	vm_events[item] += n;
}

/* Calls fn for every counter in /proc/vmstat order, per-zone counters expanded. */
void vmstat_foreach(void (*fn)(const char *name, uint64_t value, void *ctx), void *ctx);
/* Sum of a zone gauge over all zones. */
long global_page_state(enum zone_stat_item item);
const char *vmstat_zone_stat_name(enum zone_stat_item item);

#endif
