/* /proc/vmstat: zone gauges, per-zone event counters and global event counters, under the
 * kernel's names (kernel-reclaim.md §1.20), printed in the kernel's order. */
#ifndef MMSIM_MM_VMSTAT_H
#define MMSIM_MM_VMSTAT_H

#include <stdint.h>

/* Zone gauges. The four evictable LRU lists come first, in enum lru_list order, so
 * NR_LRU_BASE + lru is the list's counter. */
enum zone_stat_item {
	NR_FREE_PAGES,
	NR_LRU_BASE,
	NR_INACTIVE_ANON = NR_LRU_BASE,
	NR_ACTIVE_ANON,
	NR_INACTIVE_FILE,
	NR_ACTIVE_FILE,
	NR_UNEVICTABLE,
	NR_MLOCK,
	NR_ANON_PAGES,
	NR_FILE_MAPPED,
	NR_FILE_PAGES,
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	NR_SLAB_RECLAIMABLE,
	NR_SLAB_UNRECLAIMABLE,
	NR_PAGETABLE,
	NR_KERNEL_STACK,
	NR_UNSTABLE_NFS,
	NR_BOUNCE,
	NR_VMSCAN_WRITE,
	NR_VMSCAN_WRITE_SKIP, /* 2011 writeback series v1: dirty file pages reclaim did not write */
	NR_VMSCAN_IMMEDIATE,  /* v3: ...and marked for immediate reclaim */
	NR_VMSCAN_THROTTLED,  /* v1: reclaimers throttled on writeback */
	NR_WRITEBACK_TEMP,
	NR_ISOLATED_ANON,
	NR_ISOLATED_FILE,
	NR_VM_ZONE_STAT_ITEMS
};

/* Events counted per zone and printed as name_<zone>. */
enum zone_event_item {
	PGALLOC,
	PGREFILL,
	PGSTEAL,
	PGSCAN_KSWAPD,
	PGSCAN_DIRECT,
	NR_VM_ZONE_EVENT_ITEMS
};

/* Machine-wide events. */
enum vm_event_item {
	PGPGIN,
	PGPGOUT,
	PSWPIN,
	PSWPOUT,
	PGFREE,
	PGACTIVATE,
	PGDEACTIVATE,
	PGFAULT,
	PGMAJFAULT,
	PGINODESTEAL,
	SLABS_SCANNED,
	KSWAPD_STEAL,
	KSWAPD_INODESTEAL,
	PAGEOUTRUN,
	ALLOCSTALL,
	PGROTATED,
	UNEVICTABLE_PGCULLED,
	UNEVICTABLE_PGSCANNED,
	UNEVICTABLE_PGRESCUED,
	/* later kernels' names, counted for comparisons across eras */
	PGSTEAL_DIRECT,
	PGSTEAL_KSWAPD,
	/* mmsim extras (mmtests derives them from tracepoints): file pages reclaim wrote */
	MMSIM_KSWAPD_FILE_WRITES,
	MMSIM_DIRECT_FILE_WRITES,
	/* pages lumpy reclaim took as neighbours of a tag page (isolate_lru_pages, order > 0) */
	MMSIM_LUMPY_TAKEN,
	NR_VM_EVENT_ITEMS
};

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
