/* The vmstat monitor (mmtests' monitors/watch-vmstat.sh, which reads /proc/vmstat and
 * /proc/zoneinfo at an interval): one row of counters per sampling instant. */
#include "mm/vmstat_sample.h"

#include "mm/mm.h"
#include "mm/vmstat.h"
#include "sim/sched.h"
#include "sim/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	struct sample_series *out;
	struct proc_series *procs;
	unsigned what;
	sim_time_t last;
	bool any;
} SM;

static const char *const zone_suffix[MAX_NR_ZONES] = {"dma", "dma32", "normal", "high"};

struct row {
	uint64_t *v;
	int i;
	bool naming;
};

static void add(struct row *r, const char *name, uint64_t value)
{
	struct sample_series *s = SM.out;
	if (r->naming) {
		s->names = xrealloc(s->names, (size_t)(r->i + 1) * sizeof(*s->names));
		if (!s->names)
			abort();
		snprintf(s->names[r->i], SAMPLE_NAME_MAX, "%s", name);
	}
	r->v[r->i++] = value;
}

static void add_vmstat(const char *name, uint64_t value, void *ctx)
{
	add(ctx, name, value);
}

/* Per-zone gauges as /proc/zoneinfo shows them, named like the per-zone vmstat events. */
static const enum zone_stat_item zone_gauges[] = {
    NR_FREE_PAGES, NR_INACTIVE_ANON, NR_ACTIVE_ANON, NR_INACTIVE_FILE, NR_ACTIVE_FILE,
};

static void fill(struct row *r)
{
	char name[SAMPLE_NAME_MAX + 16];
	vmstat_foreach(add_vmstat, r);
	for (int z = 0; z < MM->nr_zones; z++) {
		if (!MM->zones[z].present_pages)
			continue;
		for (size_t g = 0; g < sizeof(zone_gauges) / sizeof(zone_gauges[0]); g++) {
			if (r->naming)
				snprintf(name, sizeof(name), "%s_%s",
					 vmstat_zone_stat_name(zone_gauges[g]), zone_suffix[z]);
			add(r, name, (uint64_t)zone_page_state(&MM->zones[z], zone_gauges[g]));
		}
	}
	add(r, "mmsim_direct_reclaimers", (uint64_t)MM->rstats.direct_reclaimers);
	add(r, "mmsim_reclaimers_incl_kswapd", (uint64_t)MM->rstats.reclaimers_incl_kswapd);
	/* total_swap_pages - nr_swap_pages, /proc/meminfo's SwapTotal - SwapFree */
	add(r, "mmsim_swap_used_pages", MM->swap.nr_slots - MM->swap.nr_free);
	/* vm_committed_space, /proc/meminfo's Committed_AS in pages (never negative here) */
	add(r, "mmsim_committed_as_pages", (uint64_t)MM->vm_committed_space);
}

/* Upper bound on the columns: every counter line, per-zone lines included. */
static int max_cols(void)
{
	return NR_VM_ZONE_STAT_ITEMS + NR_VM_EVENT_ITEMS +
	       MAX_NR_ZONES *
		   (NR_VM_ZONE_EVENT_ITEMS + (int)(sizeof(zone_gauges) / sizeof(zone_gauges[0]))) +
	       4;
}

static void take(sim_time_t when)
{
	struct sample_series *s = SM.out;
	int width = s->ncols ? s->ncols : max_cols();
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->t = xrealloc(s->t, s->cap * sizeof(*s->t));
		s->v = xrealloc(s->v, s->cap * (size_t)width * sizeof(*s->v));
		if (!s->t || !s->v)
			abort();
	}
	struct row r = {s->v + s->n * (size_t)width, 0, s->ncols == 0};
	fill(&r);
	s->ncols = r.i;
	s->t[s->n++] = when;
	if (SM.what & SAMPLE_TASKS)
		proc_sample_tasks(SM.procs, when);
	if (SM.what & SAMPLE_DISKS)
		proc_sample_disks(SM.procs, when);
	SM.last = when;
	SM.any = true;
}

void vmstat_sample_start(struct sample_series *out, sim_time_t every, struct proc_series *procs,
			 unsigned what)
{
	sample_series_free(out);
	if (procs)
		proc_series_free(procs);
	SM.out = out;
	SM.procs = procs;
	SM.what = procs ? what : 0;
	SM.any = false;
	sched_set_observer(take, every);
}

void vmstat_sample_stop(sim_time_t end)
{
	if (!SM.out)
		return;
	if (!SM.any || SM.last < end)
		take(end);
	sched_set_observer(NULL, 0);
	SM.out = NULL;
	SM.procs = NULL;
	SM.what = 0;
}

void sample_series_free(struct sample_series *s)
{
	free(s->names);
	free(s->t);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
