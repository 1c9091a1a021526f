/* contest as benchmarks.md §3 describes it, for the two loads of the seed-003 thread.
 *
 * Ratio needs the compile time without load. contest takes each kernel's own no_load run
 * (its 2003-2004 reports: no_load rows show 1.00), so one mmsim run does both, on the same
 * booted machine and with the same switches: first the no_load compile, then the caches
 * are written back and dropped, then mem_load starts, `lead` later the same compile starts
 * (same jobs, same sizes), and mem_load is stopped when the compile ends. A run with
 * contest.load = no_load does only the first compile.
 *
 * mem_load: one process maps mem_percent % of the RAM free when it starts (Con, 2004: "110%
 * of free ram") and references it page by page in address order, over and over, until it
 * is stopped. contest 0.61's own page (http://www.users.on.net/~ckolivas/contest/) says
 * "Memory load - Repeatedly reference 110% of RAM in a pattern designed to cause cache
 * misses": the size and the repetition are cited; its source (from B. Matthews' irman) was
 * not found, so the loop itself is not known (benchmarks.md, open gap 2): the cyclic scan in
 * address order — the pattern that defeats an LRU cache of RAM's size — is a [model
 * assumption], as are writing the pages and counting Loads as page references / 1000. */
#include "workloads/contest.h"
#include "mm/policy/swap_token.h"

#include "kernel/process.h"
#include "workloads/kbuild.h"
#include "workloads/scenario.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const loads[] = {"no_load", "mem_load", NULL};

#define CP(f) offsetof(struct scenario_config, contest.f)
static const struct param_desc params[] = {
    {"contest.load", P_ENUM, CP(load), 0, 0, loads, "the background load"},
    {"contest.lead", P_TIME, CP(lead), 0, 3600LL * 1000000000, NULL,
     "the load starts this long before the compile"},
    {"contest.mem_percent", P_INT, CP(mem_percent), 1, 1000, NULL, "mem_load size, percent of RAM"},
    {"contest.mem_of_total", P_BOOL, CP(mem_of_total), 0, 1, NULL,
     "percent of all RAM (else of RAM free at its start)"},
    {"contest.mem_write", P_BOOL, CP(mem_write), 0, 1, NULL,
     "mem_load writes the pages it references [model assumption]"},
    {"contest.mem_per_page", P_TIME, CP(mem_per_page), 0, 1000000000, NULL,
     "mem_load CPU per page referenced [model assumption]"},
};

void contest_defaults(struct contest_params *p)
{
	*p = (struct contest_params){
	    .load = CONTEST_MEM_LOAD,
	    .lead = 3 * NSEC_PER_SEC, /* contest starts the load 3 s early */
	    .mem_percent = 110,	      /* contest, irman */
	    .mem_of_total = false,    /* Con 2004: of free RAM */
	    .mem_write = true,	      /* [model assumption] */
	    .mem_per_page = 0,	      /* [model assumption]: memory-bound, no work per page */
	};
}

static struct {
	struct contest_params p;
	struct kbuild_build noload, loaded;
	uint64_t accesses;
	sim_time_t load_start, load_end;
	uint64_t load_cpu;
	bool load_stop, load_ran, done;
} C;

static void mem_load_main(void *arg)
{
	(void)arg;
	C.load_start = local_now();
	uint64_t n = C.p.mem_of_total ? MM->totalram_pages : kbuild_free_pages();
	n = n * (uint64_t)C.p.mem_percent / 100;
	uint64_t base = sys_mmap_anon(n, VM_READ | VM_WRITE);
	int kind = C.p.mem_write ? TOUCH_WRITE : TOUCH_READ;
	while (!C.load_stop) {
		for (uint64_t i = 0; i < n && !C.load_stop; i++) {
			sys_touch(base + i, kind);
			if (C.p.mem_per_page)
				sys_compute(C.p.mem_per_page);
			C.accesses++;
		}
	}
	C.load_end = local_now();
	C.load_cpu = current->task.utime + current->task.stime + current->task.pending;
	sys_exit(0);
}

static void wait_for(struct process *p)
{
	int code;
	while (p && !p->exited)
		if (sys_wait(&code) < 0)
			break;
}

static void contest_launcher(void *arg)
{
	(void)arg;
	wait_for(kbuild_fork_make(&C.noload));
	if (C.p.load == CONTEST_MEM_LOAD) {
		kbuild_drop_caches();
		C.load_ran = true;
		struct process *load = sys_fork("mem_load", mem_load_main, NULL);
		sys_sleep(C.p.lead);
		wait_for(kbuild_fork_make(&C.loaded));
		C.load_stop = true;
		wait_for(load);
	}
	int code;
	while (sys_wait(&code) >= 0)
		;
	C.done = true;
	sys_exit(0);
}

static int contest_start(const struct scenario_config *cfg, uint64_t seed)
{
	memset(&C, 0, sizeof(C));
	C.p = cfg->contest;
	kbuild_setup(&cfg->kbuild, seed);
	struct process *init = process_spawn("contest", contest_launcher, NULL);
	if (!init)
		return -1;
	init->is_init = true;
	return 0;
}

static bool contest_finished(void)
{
	return C.done;
}

static double secs(const struct kbuild_build *b)
{
	return (double)(b->end - b->start) / 1e9;
}

static double cpu_pct(const struct kbuild_build *b)
{
	double s = secs(b);
	return s > 0 ? (double)b->cpu_ns / 1e7 / s : 0;
}

static void contest_report(const struct scenario_config *cfg, struct workload_result *r)
{
	(void)cfg;
	r->completed = C.done && C.noload.done && (!C.load_ran || C.loaded.done);
	result_printf(r, "contest: make -j%d, %d compile jobs + link\n", cfg->kbuild.parallel,
		      cfg->kbuild.nr_jobs);
	if (!r->completed) {
		result_printf(r, "contest: did not finish\n");
		return;
	}
	double t0 = secs(&C.noload);
	result_printf(r, "%-10s %6s %8s %7s %7s %7s %7s\n", "Load", "[runs]", "Time", "CPU%",
		      "Loads", "LCPU%", "Ratio");
	result_printf(r, "%-10s %6d %8.0f %7.1f %7.1f %7.1f %7.2f\n", "no_load", 1, t0,
		      cpu_pct(&C.noload), 0.0, 0.0, 1.0);
	result_add_metric(r, C.load_ran ? "noload_time" : "time", t0, "s", false, !C.load_ran);
	if (C.load_ran) {
		double t1 = secs(&C.loaded);
		double ls = (double)(C.load_end - C.load_start) / 1e9;
		double lcpu = ls > 0 ? (double)C.load_cpu / 1e7 / ls : 0;
		double ratio = t0 > 0 ? t1 / t0 : 0;
		double nloads = (double)C.accesses / 1000;
		result_printf(r, "%-10s %6d %8.0f %7.1f %7.1f %7.1f %7.2f\n", "mem_load", 1, t1,
			      cpu_pct(&C.loaded), nloads, lcpu, ratio);
		result_add_metric(r, "time", t1, "s", false, true);
		result_add_metric(r, "cpu_pct", cpu_pct(&C.loaded), "%", true, false);
		result_add_metric(r, "loads", nloads, "", true, false);
		result_add_metric(r, "lcpu_pct", lcpu, "%", true, false);
		result_add_metric(r, "ratio", ratio, "", false, false);
		result_add_metric(r, "failed_jobs", C.loaded.failed, "jobs", false, false);
	}
	result_add_metric(r, "noload_cpu_pct", cpu_pct(&C.noload), "%", true, false);
	result_add_metric(r, "token_handoffs", (double)swap_token_handoffs(), "", false, false);
}

const struct workload contest_workload = {
    .name = "contest",
    .description = "contest: a kernel compile without and with mem_load, Time/CPU%/Loads/LCPU%/"
		   "Ratio (benchmarks.md §3)",
    .params = params,
    .nparams = sizeof(params) / sizeof(params[0]),
    .start = contest_start,
    .finished = contest_finished,
    .report = contest_report,
    .cleanup = kbuild_teardown,
};
