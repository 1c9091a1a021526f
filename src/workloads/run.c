/* One complete run of a scenario: boot the machine (sched_init, mm_init, the kthreads),
 * start the workload's first processes, run the event loop to the workload's end or the
 * time limit with the invariant checker hooked in, collect the results, tear down. */
#include "workloads/scenario.h"

#include "hw/blockdev.h"
#include "kernel/process.h"
#include "sim/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct workload *running;
static int (*check_fn)(void);
static char refusal[512];
static const char *refusal_key;

int scenario_refuse(const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(refusal, sizeof(refusal), fmt, ap);
	va_end(ap);
	refusal_key = key;
	return SCENARIO_REFUSED;
}

const char *scenario_refusal(const char **key)
{
	*key = refusal_key;
	return refusal;
}

static bool check_failed;

static void check_hook(void)
{
	if (check_fn && check_fn() != 0) {
		check_failed = true;
		sched_request_stop();
	}
}

static bool keep_going(void)
{
	return !running->finished() && !MM->oom_stop_requested;
}

struct vm_collect {
	struct run_result *res;
	int cap;
};

/* frag_show (2.6.28 mm/vmstat.c): the zones with pages, each order's free-list length. */
static void collect_buddyinfo(struct run_result *r)
{
	r->nr_buddyinfo = 0;
	for (int i = 0; i < MM->nr_zones; i++) {
		const struct zone *z = &MM->zones[i];
		if (!z->present_pages)
			continue;
		struct buddyinfo_entry *b = &r->buddyinfo[r->nr_buddyinfo++];
		snprintf(b->zone, sizeof(b->zone), "%s", z->name);
		for (int o = 0; o < MAX_ORDER; o++)
			b->nr_free[o] = z->free_area[o].nr;
	}
}

static void collect_vmstat(const char *name, uint64_t value, void *ctx)
{
	struct vm_collect *c = ctx;
	struct run_result *r = c->res;
	if (r->nr_vmstat == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		r->vmstat = xrealloc(r->vmstat, (size_t)c->cap * sizeof(*r->vmstat));
	}
	snprintf(r->vmstat[r->nr_vmstat].name, sizeof(r->vmstat[0].name), "%s", name);
	r->vmstat[r->nr_vmstat].value = value;
	r->nr_vmstat++;
}

int scenario_run(const struct scenario_config *cfg, uint64_t seed, struct run_result *res,
		 int (*check)(void))
{
	memset(res, 0, sizeof(*res));
	struct hw_profile profile; /* MM->hw points here for the whole run */
	running = workload_find(cfg->workload);
	if (!scenario_profile(cfg, &profile) || !running)
		return -1;
	const struct hw_profile *hw = &profile;
	struct mm_config mc = {.hw = hw,
			       .ram_bytes = cfg->ram,
			       .swap_bytes = cfg->swap,
			       .seed = seed,
			       .sysctl = cfg->vm,
			       .elevator = cfg->elevator_as ? ELEVATOR_AS : ELEVATOR_CLOOK};
	sched_init(cfg->cpus, hw->quantum_ns, hw->timeslice_ns, hw->ctxsw_ns);
	sched_set_mem_context_cost(hw->switch_mm_ns);
	sched_set_hz(hw->hz);
	sched_set_ticks(hw->tick_ns, seed);
	sched_set_jiffy_clock(cfg->sched_clock_jiffies);
	sched_set_o1(cfg->sched_o1);
	sched_set_normalized_sleeper(cfg->sched_normalized_sleeper);
	sched_set_min_vruntime_leftmost(cfg->sched_min_vruntime_leftmost);
	sched_set_cfs_30(cfg->sched_fair_30);
	sched_set_adaptive_gran(cfg->sched_adaptive_gran);
	sched_set_wakeup_rules((enum sched_buddies)cfg->sched_buddies,
			       (sim_time_t)cfg->sched_wakeup_granularity, cfg->sched_asym_gran);
	if (mm_init(&mc, &kernel_task_ops) != 0) {
		sched_destroy();
		return SCENARIO_NO_START;
	}
	kernel_reset();
	mm_start_kthreads();
	int started = running->start(cfg, seed);
	if (started != 0) {
		if (running->cleanup)
			running->cleanup();
		mm_destroy();
		sched_destroy();
		return started == SCENARIO_REFUSED ? SCENARIO_REFUSED : SCENARIO_NO_START;
	}
	check_fn = check;
	check_failed = false;
	if (check && cfg->check_every)
		sched_set_check_hook(check_hook, cfg->check_every);
	if (cfg->sample_every)
		vmstat_sample_start(&res->samples, cfg->sample_every, &res->procs,
				    cfg->sample_what);
	sched_run(cfg->time_limit, keep_going);
	if (cfg->sample_every)
		vmstat_sample_stop(sim_clock);
	int ret = 0;
	if (check_failed || (check && check() != 0))
		ret = -1;

	res->completed = running->finished();
	if (!res->completed && getenv("MMSIM_DEBUG")) {
		for_each_task(t)
			fprintf(stderr,
				"task %d %s state %d wq %p tif %#x sigkill %d flags %#x code %d\n",
				t->task.pid, t->task.comm, t->task.state, (void *)t->task.wq,
				t->tif, t->task.fatal_signal, t->flags,
				t->proc ? t->proc->exit_code : 0);
		for (pfn_t pfn = 0; pfn < MM->nr_frames; pfn++)
			if (MM->pages[pfn].flags & (PG_locked | PG_writeback))
				fprintf(stderr, "pfn %u flags %#x wq %p\n", pfn,
					MM->pages[pfn].flags, (void *)page_waitqueue(pfn));
		fprintf(stderr, "disk active %p queue %p nrq %u/%u\n", (void *)MM->disk.active,
			(void *)MM->disk.queue, MM->disk.nr_queued[0], MM->disk.nr_queued[1]);
		sched_dump(stderr);
		fprintf(stderr, "congestion wq %p %p kswapd %p flusher %p\n",
			(void *)&MM->congestion_wqh[0], (void *)&MM->congestion_wqh[1],
			(void *)&MM->kswapd_wait, (void *)&MM->flusher_wait);
	}
	res->panicked = MM->oom_stop_requested;
	res->elapsed = sim_clock;
	for_each_task(t) {
		if (t->is_kthread)
			continue;
		res->user_ns += t->task.utime;
		res->sys_ns += t->task.stime;
		res->nvcsw += t->task.nvcsw;
		res->nivcsw += t->task.nivcsw;
	}
	res->major_faults = vm_events[PGMAJFAULT];
	res->minor_faults = vm_events[PGFAULT] - vm_events[PGMAJFAULT];
	running->report(cfg, &res->wl);
	if (nr_mmap_enomem) { /* a program refused memory ended early: the benchmark failed */
		size_t len = strlen(res->wl.text);
		snprintf(res->wl.text + len, sizeof(res->wl.text) - len,
			 "%s: mmap failed: Cannot allocate memory (%lu process(es) ended, "
			 "vm.overcommit_memory = %d)\n",
			 mmap_enomem_comm, nr_mmap_enomem, MM->sysctl.overcommit_memory);
		res->wl.completed = false;
	}
	if (res->completed && !res->wl.completed) { /* it ended, but failed */
		res->failed = true;
		res->completed = false;
	}
	res->rstats = MM->rstats;
	for (int i = 0; i < MM->nr_zones; i++) {
		res->rstats.lru_lock_acquisitions += MM->zones[i].lru_lock.acquisitions;
		res->rstats.lru_lock_contended += MM->zones[i].lru_lock.contended;
		res->rstats.lru_lock_spin_ns += MM->zones[i].lru_lock.spin_ns;
	}
	res->nr_oom = MM->nr_oom_records;
	memcpy(res->oom, MM->oom_records, sizeof(res->oom));
	struct vm_collect vc = {res, 0};
	vmstat_foreach(collect_vmstat, &vc);
	collect_buddyinfo(res);
	res->events = sched_get_stats()->events;
	res->context_switches = sched_get_stats()->context_switches;
	res->touches = kernel_touches();

	if (running->cleanup)
		running->cleanup();
	sched_destroy();
	kernel_shutdown();
	mm_destroy();
	return ret;
}

void run_result_free(struct run_result *res)
{
	free(res->vmstat);
	res->vmstat = NULL;
	sample_series_free(&res->samples);
	proc_series_free(&res->procs);
}
