#include "mm/vmstat.h"

#include "mm/mm.h"

#include <stdio.h>

uint64_t vm_events[NR_VM_EVENT_ITEMS];

static const char *const zone_stat_names[NR_VM_ZONE_STAT_ITEMS] = {
    "nr_free_pages",
    "nr_inactive_anon",
    "nr_active_anon",
    "nr_inactive_file",
    "nr_active_file",
    "nr_unevictable",
    "nr_mlock",
    "nr_anon_pages",
    "nr_mapped",
    "nr_file_pages",
    "nr_dirty",
    "nr_writeback",
    "nr_slab_reclaimable",
    "nr_slab_unreclaimable",
    "nr_page_table_pages",
    "nr_kernel_stack",
    "nr_unstable",
    "nr_bounce",
    "nr_vmscan_write",
    "nr_vmscan_write_skip",
    "nr_vmscan_immediate_reclaim",
    "nr_vmscan_throttled",
    "nr_writeback_temp",
    "nr_isolated_anon",
    "nr_isolated_file",
};

static const char *const zone_event_names[NR_VM_ZONE_EVENT_ITEMS] = {
    "pgalloc", "pgrefill", "pgsteal", "pgscan_kswapd", "pgscan_direct",
};

/* The kernel's zone suffixes in vmstat_text. */
static const char *const zone_suffix[MAX_NR_ZONES] = {"dma", "dma32", "normal", "high"};

const char *vmstat_zone_stat_name(enum zone_stat_item item)
{
	return zone_stat_names[item];
}

long global_page_state(enum zone_stat_item item)
{
	long sum = 0;
	for (int i = 0; i < MM->nr_zones; i++)
		sum += MM->zones[i].stat[item];
	return sum;
}

static void zone_events(enum zone_event_item item, void (*fn)(const char *, uint64_t, void *),
			void *ctx)
{
	char name[64];
	for (int i = 0; i < MM->nr_zones; i++) {
		if (!MM->zones[i].present_pages)
			continue;
		snprintf(name, sizeof(name), "%s_%s", zone_event_names[item], zone_suffix[i]);
		fn(name, MM->zones[i].event[item], ctx);
	}
}

void vmstat_foreach(void (*fn)(const char *name, uint64_t value, void *ctx), void *ctx)
{
	for (int i = 0; i < NR_VM_ZONE_STAT_ITEMS; i++)
		fn(zone_stat_names[i], (uint64_t)global_page_state((enum zone_stat_item)i), ctx);
	fn("pgpgin", vm_events[PGPGIN], ctx);
	fn("pgpgout", vm_events[PGPGOUT], ctx);
	fn("pswpin", vm_events[PSWPIN], ctx);
	fn("pswpout", vm_events[PSWPOUT], ctx);
	zone_events(PGALLOC, fn, ctx);
	fn("pgfree", vm_events[PGFREE], ctx);
	fn("pgactivate", vm_events[PGACTIVATE], ctx);
	fn("pgdeactivate", vm_events[PGDEACTIVATE], ctx);
	fn("pgfault", vm_events[PGFAULT], ctx);
	fn("pgmajfault", vm_events[PGMAJFAULT], ctx);
	zone_events(PGREFILL, fn, ctx);
	zone_events(PGSTEAL, fn, ctx);
	zone_events(PGSCAN_KSWAPD, fn, ctx);
	zone_events(PGSCAN_DIRECT, fn, ctx);
	fn("pginodesteal", vm_events[PGINODESTEAL], ctx);
	fn("slabs_scanned", vm_events[SLABS_SCANNED], ctx);
	fn("kswapd_steal", vm_events[KSWAPD_STEAL], ctx);
	fn("kswapd_inodesteal", vm_events[KSWAPD_INODESTEAL], ctx);
	fn("pageoutrun", vm_events[PAGEOUTRUN], ctx);
	fn("allocstall", vm_events[ALLOCSTALL], ctx);
	fn("pgrotated", vm_events[PGROTATED], ctx);
	fn("unevictable_pgs_culled", vm_events[UNEVICTABLE_PGCULLED], ctx);
	fn("unevictable_pgs_scanned", vm_events[UNEVICTABLE_PGSCANNED], ctx);
	fn("unevictable_pgs_rescued", vm_events[UNEVICTABLE_PGRESCUED], ctx);
	fn("pgsteal_direct", vm_events[PGSTEAL_DIRECT], ctx);
	fn("pgsteal_kswapd", vm_events[PGSTEAL_KSWAPD], ctx);
	fn("mmsim_kswapd_file_writes", vm_events[MMSIM_KSWAPD_FILE_WRITES], ctx);
	fn("mmsim_direct_file_writes", vm_events[MMSIM_DIRECT_FILE_WRITES], ctx);
	fn("mmsim_lumpy_taken", vm_events[MMSIM_LUMPY_TAKEN], ctx);
}
