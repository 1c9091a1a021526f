/* /proc/vmstat: the counters of vmstat_items.h, summed over zones and printed in the kernel's
 * order (vmstat_foreach, as the kernel's vmstat_start/vmstat_show walk vmstat_text[]). */
#include "mm/vmstat.h"

#include "mm/mm.h"

#include <stdio.h>

uint64_t vm_events[NR_VM_EVENT_ITEMS];

#define VMSTAT_NAME(id, name) [id] = name,
static const char *const zone_stat_names[NR_VM_ZONE_STAT_ITEMS] = {
    VMSTAT_ITEMS(VMSTAT_NAME, VMSTAT_IGNORE, VMSTAT_IGNORE)};
static const char *const zone_event_names[NR_VM_ZONE_EVENT_ITEMS] = {
    VMSTAT_ITEMS(VMSTAT_IGNORE, VMSTAT_NAME, VMSTAT_IGNORE)};
static const char *const vm_event_names[NR_VM_EVENT_ITEMS] = {
    VMSTAT_ITEMS(VMSTAT_IGNORE, VMSTAT_IGNORE, VMSTAT_NAME)};
#undef VMSTAT_NAME

/* The print order, one entry per line of the list (zone events stand for one line a zone). */
enum vmstat_kind { VMSTAT_ZONE_STAT, VMSTAT_ZONE_EVENT, VMSTAT_EVENT };
#define VMSTAT_ORDER_S(id, name) {VMSTAT_ZONE_STAT, id},
#define VMSTAT_ORDER_Z(id, name) {VMSTAT_ZONE_EVENT, id},
#define VMSTAT_ORDER_E(id, name) {VMSTAT_EVENT, id},
static const struct {
	enum vmstat_kind kind;
	int item;
} vmstat_order[] = {VMSTAT_ITEMS(VMSTAT_ORDER_S, VMSTAT_ORDER_Z, VMSTAT_ORDER_E)};
#undef VMSTAT_ORDER_S
#undef VMSTAT_ORDER_Z
#undef VMSTAT_ORDER_E

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
	for (size_t i = 0; i < sizeof(vmstat_order) / sizeof(vmstat_order[0]); i++) {
		int item = vmstat_order[i].item;
		switch (vmstat_order[i].kind) {
		case VMSTAT_ZONE_STAT:
			fn(zone_stat_names[item],
			   (uint64_t)global_page_state((enum zone_stat_item)item), ctx);
			break;
		case VMSTAT_ZONE_EVENT:
			zone_events((enum zone_event_item)item, fn, ctx);
			break;
		case VMSTAT_EVENT:
			fn(vm_event_names[item], vm_events[item], ctx);
			break;
		}
	}
}
