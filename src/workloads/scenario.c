/* Scenario parameters, defaults and validation (the run itself is workloads/run.c). */
#include "workloads/scenario.h"

#include "hw/profile.h"
#include "kernel/process.h"
#include "mm/era/era.h"
#include "mm/policy/policy.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SP(f) offsetof(struct scenario_config, f)
#define VM(f) offsetof(struct scenario_config, vm.f)
#define GiB   (1LL << 30)
#define TiB   (1LL << 40)

static const char *const reclaim_progress_variants[] = {"auto", "2.6.25", "2.6.26", NULL};

static const char *const sched_buddies_names[] = {"none",   "2.6.25", "2.6.26",
						  "2.6.28", "3.0",    NULL};
static const char *const sched_fair_names[] = {"2.6", "3.0", NULL};

static const char *const sched_min_vruntime_names[] = {"curr", "leftmost", NULL};

static const char *const slub_order_rule_names[] = {"2.6.25", "2.6.26", "2.6.30", NULL};

static const char *const sched_clock_names[] = {"ns", "jiffies", NULL};

static const char *const scheduler_names[] = {"cfs", "o1", NULL};
static const char *const elevator_names[] = {"clook", "as", NULL};

static const struct param_desc base_params[] = {
    {"scenario.name", P_STRING, SP(name), 0, 0, NULL, "a short name for reports"},
    {"scenario.reproduces", P_STRING, SP(reproduces), 0, 0, NULL,
     "the seed thread this reproduces"},
    {"machine.profile", P_STRING, SP(profile), 0, 0, NULL,
     "hardware profile (see mmsim run --help)"},
    {"machine.ram", P_SIZE, SP(ram), 1 << 20, TiB, NULL,
     "physical memory; at most 2^27-1 frames, as a PTE holds a 27-bit frame number (just "
     "under 512G with 4 KiB pages, 2T with 16 KiB)"},
    {"machine.swap", P_SIZE, SP(swap), 0, TiB, NULL,
     "swap partition size (0 = no swap); at most 2^27-1 slots (a swap PTE's 27 bits) and "
     "half the profile's disk"},
    {"machine.cpus", P_INT, SP(cpus), 1, 256, NULL, "CPUs"},
    {"machine.sched_clock", P_ENUM, SP(sched_clock_jiffies), 0, 0, sched_clock_names,
     "the platform's sched_clock(), which CFS accounts CPU time with: ns (default; x86's "
     "TSC, and on ARM the SoCs with their own: OMAP, PXA, RealView, SA-1100, Versatile in "
     "2.6.25) or jiffies (the kernel's weak default: time moves at the timer ticks only, "
     "and each tick charges a whole jiffy to the task running then)"},
    {"kernel.version", P_STRING, SP(kernel_version), 0, 0, NULL,
     "the kernel the scenario runs (e.g. 2.6.25-rc1, 2.6.28, 3.0-rc): every vm.* key not set "
     "by name takes that kernel's value, its reclaim rules and mainline policies included"},
    {"kernel.scheduler", P_ENUM, SP(sched_o1), 0, 0, scheduler_names,
     "the process scheduler (default: kernel.version's): cfs (2.6.23 on; the kernel.sched_* "
     "keys are its rules) or o1 (the O(1) scheduler before 2.6.23, 2.6.8's rules: priority "
     "arrays, 102 ms timeslices at nice 0, the sleep-average interactivity bonus)"},
    {"kernel.elevator", P_ENUM, SP(elevator_as), 0, 0, elevator_names,
     "the disks' I/O scheduler (the boot parameter elevator=; default: kernel.version's): as "
     "(2.6.8's anticipatory scheduler, the default from 2.6.0 to 2.6.17: read and write "
     "batches, FIFO deadlines, anticipation of a task's next read) or clook (the model's "
     "one-way elevator by sector, for 2.6.18 on, where CFQ is not modelled)"},
    {"kernel.sched_normalized_sleeper", P_INT, SP(sched_normalized_sleeper), 0, 1, NULL,
     "CFS sleeper credit: 0 one sched_latency (2.6.24, 2.6.25-rc1..rc5, 2.6.25, 2.6.26), 1 "
     "scaled down by the run queue's load (2.6.25-rc6..rc9); default: kernel.version's"},
    {"kernel.sched_min_vruntime", P_ENUM, SP(sched_min_vruntime_leftmost), 0, 0,
     sched_min_vruntime_names,
     "what CFS's min_vruntime follows (default: kernel.version's): curr, the least of the "
     "running and the leftmost queued task (2.6.24, 2.6.25-rc1..rc5, 2.6.28), or leftmost, "
     "the leftmost queued task alone (2.6.25-rc6..2.6.27)"},
    {"kernel.sched_buddies", P_ENUM, SP(sched_buddies), 0, 0, sched_buddies_names,
     "CFS wakeup buddies (default: kernel.version's): none (2.6.24, 2.6.25-rc1..rc5), "
     "2.6.25 (rc6 on: next buddy within the wakeup granularity x 1024 / run queue load), "
     "2.6.26 (2.6.26, 2.6.27: next buddy by wakeup_preempt_entity), 2.6.28 (next and last "
     "buddies, kept until the task sleeps), 3.0 (marked only by a preempting wakeup, the last "
     "then the next, cleared when picked)"},
    {"kernel.sched_adaptive_gran", P_INT, SP(sched_adaptive_gran), 0, 1, NULL,
     "2.6.30-2.6.33's wakeup granularity (default: kernel.version's): 1 ADAPTIVE_GRAN (twice "
     "the woken task's mean run between its wakeups x the run queue's tasks, less the running "
     "task's run, at most the granularity) and ASYM_GRAN in the woken task's weight"},
    {"kernel.sched_fair", P_ENUM, SP(sched_fair_30), 0, 0, sched_fair_names,
     "CFS's other rules (default: kernel.version's): 2.6 (2.6.23-2.6.39 here: latency 20 ms, "
     "granularity the profile's, one latency of sleeper credit, child-runs-first) or 3.0 "
     "(6 ms / 0.75 ms x 1 + log2 min(CPUs, 8), half a latency of credit, no child-runs-first, "
     "a child from its parent's vruntime, check_preempt_tick's catch-up)"},
    {"kernel.sched_wakeup_granularity", P_TIME, SP(sched_wakeup_granularity), 1, NSEC_PER_SEC, NULL,
     "sysctl_sched_wakeup_granularity before the 1 + log2(CPUs) factor (default: "
     "kernel.version's: 10 ms to 2.6.25-rc6 and in 2.6.26, 5 ms in 2.6.25-rc7..2.6.25 and "
     "from 2.6.27, 1 ms in 3.0)"},
    {"kernel.sched_asym_gran", P_INT, SP(sched_asym_gran), 0, 1, NULL,
     "wakeup granularity scaled by the running task's weight only above nice 0's (1, "
     "2.6.25 on; default: kernel.version's) or for every weight but nice 0's (0, 2.6.24)"},
    {"kernel.slub_order_rule", P_ENUM, VM(slub_order_rule), 0, 0, slub_order_rule_names,
     "SLUB's calculate_order (default: kernel.version's): 2.6.25 (4 or 8 objects, order 1 or "
     "2 at most), 2.6.26 (4 x (fls(CPUs) + 1) objects, order 3, fallback to the object's "
     "own order), 2.6.30 (as 2.6.26, objects lowered one at a time)"},
    {"kernel.slub_max_order", P_INT, VM(slub_max_order), -1, 10, NULL,
     "boot parameter slub_max_order= (-1: the kernel's default)"},
    {"kernel.slub_min_objects", P_INT, VM(slub_min_objects), 0, 1024, NULL,
     "boot parameter slub_min_objects= (0: the kernel's default)"},
    {"kernel.mmap_writenotify", P_INT, VM(mmap_writenotify), 0, 1, NULL,
     "shared writable file mappings track dirty pages: clean PTEs write-protected, the "
     "first write dirties the page and balances (1, 2.6.19 on; default: kernel.version's); "
     "0: the dirty bit stays in the PTE until writeback or unmap finds it"},
    {"kernel.overcommit_totalreserve", P_INT, VM(overcommit_totalreserve), 0, 1, NULL,
     "vm.overcommit_memory = 0 leaves the zones' reserves (pages_high and lowmem_reserve) "
     "out of the free pages (1, 2.6.17 on; default: kernel.version's)"},
/* clang-format off */
#define HW_OVERRIDE_PARAM(f)                                                                  \
    {"hw." #f, P_U64, SP(hw.f), 1, 1000000000, NULL,                                          \
     "replaces the profile's " #f " estimate for sensitivity studies (--set or --vary only; " \
     "at least 1: unset, 0, is the profile's)"},
    HW_PROFILE_COSTS(HW_OVERRIDE_PARAM)
#undef HW_OVERRIDE_PARAM
#define HW_DISK_OVERRIDE_PARAM(f)                                                             \
    {"hw.disk." #f, P_U64, SP(hw.disk_##f), 1, 1000000000, NULL,                              \
     "replaces the profile's disk " #f " for sensitivity studies (--set or --vary only; "     \
     "at least 1: unset, 0, is the profile's)"},
    HW_DISK_COSTS(HW_DISK_OVERRIDE_PARAM)
#undef HW_DISK_OVERRIDE_PARAM
    /* clang-format on */
    {"run.time_limit", P_TIME, SP(time_limit), 1000000, 100000LL * 1000000000, NULL,
     "simulated time after which the run stops unfinished"},
    {"run.check_every", P_U64, SP(check_every), 0, 1LL << 40, NULL,
     "run the invariant checker every N events (0 = never; tests set it)"},
    {"run.host_memory_limit", P_SIZE, SP(host_memory_limit), 64 << 20, TiB, NULL,
     "host memory a run may need (frames, swap map, tasks; estimated before it starts, "
     "which refuses a larger run); changes no result"},
    {"vm.swappiness", P_INT, VM(swappiness), 0, 100, NULL, "anon vs file scan balance"},
    {"vm.overcommit_memory", P_INT, VM(overcommit_memory), 0, 2, NULL,
     "0: 2.6.28's heuristic check of each mapping and fork; 1: always; 2: never more "
     "committed than swap and vm.overcommit_ratio % of RAM"},
    {"vm.overcommit_ratio", P_INT, VM(overcommit_ratio), 0, 1000, NULL,
     "vm.overcommit_memory = 2: the % of RAM that may be committed besides swap"},
    {"vm.min_free_kbytes", P_INT, VM(min_free_kbytes), 0, 65536 * 16, NULL, "0 = computed at boot"},
    {"vm.page-cluster", P_INT, VM(page_cluster), -1, 10, NULL,
     "log2 of swap readahead; -1 = boot default"},
    {"vm.dirty_ratio", P_INT, VM(dirty_ratio), 0, 100, NULL, "dirty limit, % of dirtyable memory"},
    {"vm.dirty_background_ratio", P_INT, VM(dirty_background_ratio), 0, 100, NULL,
     "background writeout threshold"},
    {"vm.dirty_expire_centisecs", P_INT, VM(dirty_expire_centisecs), 0, 360000, NULL,
     "age at which kupdate writes"},
    {"vm.dirty_writeback_centisecs", P_INT, VM(dirty_writeback_centisecs), 0, 360000, NULL,
     "kupdate interval (0 = off)"},
    {"vm.laptop_mode", P_INT, VM(laptop_mode), 0, 1, NULL, "laptop mode"},
    {"vm.oom_kill_allocating_task", P_INT, VM(oom_kill_allocating_task), 0, 1, NULL,
     "kill the allocating task"},
    {"vm.panic_on_oom", P_INT, VM(panic_on_oom), 0, 2, NULL, "stop the run at the first OOM"},
};

/* Then the reclaim policies' keys (src/mm/policy/), then these. */
static const struct param_desc vm_rule_params[] = {
    {"vm.reclaim_lru", P_ENUM, VM(reclaim_lru), 0, 0, NULL, /* choices: the rule variants */
     "global reclaim: 2.6.28 split LRU, or 2.6.25 one active and one inactive list"},
    {"vm.reclaim_progress", P_ENUM, VM(reclaim_progress), 0, 0, reclaim_progress_variants,
     "what direct reclaim reports: 2.6.25 progress unless all zones are unreclaimable, "
     "2.6.26 (and 2.6.25-mm) the pages reclaimed; auto follows vm.reclaim_lru"},
    {"vm.reclaim_nap_needs_io", P_INT, VM(reclaim_nap_needs_io), 0, 1, NULL,
     "1: reclaim's HZ/10 nap only when a pass met more than 32 pages with I/O pending "
     "(2.6.25-rc1..rc6, f1a9ee758de, reverted in -rc7); kernel.version sets it"},
    {"vm.vfs_cache_pressure", P_INT, VM(vfs_cache_pressure), 0, 100000, NULL,
     "how hard shrink_slab presses the dentry and inode caches (100: as the page cache)"},
    {"vm.kswapd_nice", P_INT, VM(kswapd_nice), -20, 19, NULL,
     "kswapd's nice level (-5: kthreadd's KTHREAD_NICE_LEVEL, 2.6.22 to 2.6.35)"},
};

/* Then the thrashing-control policies' keys, then the workload. */
static const struct param_desc tail_params[] = {
    {"workload", P_STRING, SP(workload), 0, 0, NULL,
     "usemem, filestream, hackbench, fsmark, mapstream, desktop, iotrace, qsbench, kbuild, "
     "contest or trace"},
};

static void add_params(struct param_desc *table, size_t *count, size_t cap,
		       const struct param_desc *p, size_t n)
{
	for (size_t i = 0; i < n && *count < cap; i++)
		table[(*count)++] = p[i];
}

/* A policy's keys are offsets into struct vm_sysctl: rebased onto the scenario's. */
static void add_policy_params(struct param_desc *table, size_t *count, size_t cap,
			      enum policy_group g)
{
	const struct param_desc *p[64];
	size_t n = mm_policy_params(g, p, ARRAY_SIZE(p));
	for (size_t i = 0; i < n && *count < cap; i++) {
		table[*count] = *p[i];
		table[(*count)++].offset += offsetof(struct scenario_config, vm);
	}
}

const struct param_desc *scenario_params(size_t *n)
{
	static struct param_desc table[SCENARIO_MAX_KEYS];
	static size_t count;
	if (!count) {
		size_t cap = ARRAY_SIZE(table);
		add_params(table, &count, cap, base_params, ARRAY_SIZE(base_params));
		add_policy_params(table, &count, cap, POLICY_GROUP_RECLAIM);
		size_t rules = count;
		add_params(table, &count, cap, vm_rule_params, ARRAY_SIZE(vm_rule_params));
		table[rules].choices = reclaim_rules_names();
		add_policy_params(table, &count, cap, POLICY_GROUP_THRASHING);
		add_params(table, &count, cap, tail_params, ARRAY_SIZE(tail_params));
		const struct workload *const *w = workload_all();
		for (int i = 0; w[i]; i++)
			add_params(table, &count, cap, w[i]->params, w[i]->nparams);
	}
	*n = count;
	return table;
}

/* The vm.* keys set by name keep their values; every other sysctl takes kernel v's. */
static void apply_kernel_version(struct scenario_config *c, kernel_version_t v)
{
	struct vm_sysctl fresh;
	kernel_version_defaults(v, &fresh);
	size_t n;
	const struct param_desc *t = scenario_params(&n);
	size_t lo = offsetof(struct scenario_config, vm), hi = lo + sizeof(c->vm);
	for (size_t i = 0; i < n; i++) {
		if (t[i].offset < lo || t[i].offset >= hi || !(c->key_set[i / 8] & (1u << (i % 8))))
			continue;
		/* every vm.* key is an int (P_INT or P_ENUM) */
		memcpy((char *)&fresh + (t[i].offset - lo), (char *)c + t[i].offset, sizeof(int));
	}
	c->vm = fresh;
}

/* -rcN of a version string: N; 1 for "-rc" and "-gitN" (early in the cycle); 0 for a
 * release or an -mm tree (based on the release). kernel_version_t leaves it out; the
 * scheduler's rules changed between 2.6.25's release candidates. */
static int kernel_version_rc(const char *text)
{
	const char *s = strchr(text, '-');
	if (!s)
		return 0;
	if (!strncmp(s, "-rc", 3))
		return s[3] >= '1' && s[3] <= '9' ? atoi(s + 3) : 1;
	return strncmp(s, "-git", 4) ? 0 : 1;
}

/* vm.reclaim_nap_needs_io of kernel v at -rcN: Rik van Riel's "kswapd should only wait on
 * IO if there is IO" (f1a9ee758de) was merged for 2.6.25-rc1 and reverted for -rc7
 * (4dd4b920218; mm/vmscan.c at v2.6.25-rc1..rc6 has sc->nr_io_pages, v2.6.24 and v2.6.25
 * do not). An -mm tree counts as its release (kernel_version_rc: 0). */
static int kernel_nap_needs_io(kernel_version_t v, int rc)
{
	return v == KERNEL_VERSION(2, 6, 25) && rc >= 1 && rc < 7;
}

/* The scheduler keys not set by name take kernel v's (kernel/sched_fair.c at the tags,
 * docs/fidelity.md "Scheduler"): the buddies came in 2.6.25-rc6 (aa2ac25229c "sched: fix
 * overload performance: buddy wakeups"), the wakeup granularity went to 5 ms in -rc7
 * (74e3cd7f480), back to 10 ms in 2.6.26 and to 5 ms in 2.6.27; the last buddy came in
 * 2.6.28-rc4 (4793241be40), taken here for every 2.6.28; later kernels get 2.6.28's. */
static void apply_kernel_sched(struct scenario_config *c, kernel_version_t v, int rc,
			       const bool set[9])
{
	bool r2625 = v == KERNEL_VERSION(2, 6, 25);
	int buddies = v < KERNEL_VERSION(2, 6, 25)   ? SCHED_BUDDIES_NONE
		      : r2625 && rc >= 1 && rc < 6   ? SCHED_BUDDIES_NONE
		      : r2625			     ? SCHED_BUDDIES_2625
		      : v < KERNEL_VERSION(2, 6, 28) ? SCHED_BUDDIES_2626
						     : SCHED_BUDDIES_2628;
	bool gran10 = v < KERNEL_VERSION(2, 6, 25) || (r2625 && rc >= 1 && rc < 7) ||
		      v == KERNEL_VERSION(2, 6, 26);
	/* 3.0's sched_fair.c (its rules: sched_set_cfs_30); 2.6.29-2.6.39 run 2.6.28's */
	bool v30 = v >= KERNEL_VERSION(3, 0, 0);
	if (v30)
		buddies = SCHED_BUDDIES_30;
	if (!set[0])
		c->sched_buddies = buddies;
	if (!set[1])
		c->sched_wakeup_granularity = (v30 ? 1 : gran10 ? 10 : 5) * NSEC_PER_MSEC;
	if (!set[7])
		c->sched_fair_30 = v30;
	/* ADAPTIVE_GRAN: in 2.6.30 (sched_features.h), gone by 2.6.34 ("sched: Remove
	 * AVG_WAKEUP"; not in 3.0's features) */
	if (!set[8])
		c->sched_adaptive_gran =
		    v >= KERNEL_VERSION(2, 6, 30) && v < KERNEL_VERSION(2, 6, 34);
	if (!set[2])
		c->sched_asym_gran = v >= KERNEL_VERSION(2, 6, 25);
	/* the sleeper credit over the run queue's load: e22ecef1d26 "sched: fix fair
	 * sleepers" in 2.6.25-rc6, reverted (e2df9e09051) after -rc9 */
	if (!set[3])
		c->sched_normalized_sleeper = r2625 && rc >= 6;
	/* min_vruntime of the leftmost alone: 3fe69747dab "sched: min_vruntime fix" in
	 * 2.6.25-rc6, until 2.6.28's update_min_vruntime (1af5f730fc1) took curr back in */
	/* CFS replaced the O(1) scheduler in 2.6.23 (dd41f596cda "sched: cfs core code") */
	if (!set[5])
		c->sched_o1 = v < KERNEL_VERSION(2, 6, 23);
	/* AS was the default elevator from 2.6.0 until CFQ became it in 2.6.18 (b17d3c4c
	 * "[PATCH] Make CFQ the default IO scheduler"); CFQ is not modelled, so 2.6.18 on run
	 * the model's one-way elevator (docs/model.md, "Devices") */
	if (!set[6])
		c->elevator_as = v < KERNEL_VERSION(2, 6, 18);
	if (!set[4])
		c->sched_min_vruntime_leftmost =
		    (r2625 && (rc == 0 || rc >= 6)) ||
		    (v > KERNEL_VERSION(2, 6, 25) && v < KERNEL_VERSION(2, 6, 28));
}

static bool key_is_set(const struct scenario_config *c, const struct param_desc *t, size_t n,
		       size_t offset)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].offset == offset)
			return c->key_set[i / 8] & (1u << (i % 8));
	return false;
}

int scenario_set(struct scenario_config *c, const struct param_desc *d, const char *text, char *err,
		 size_t errlen)
{
	size_t n;
	const struct param_desc *t = scenario_params(&n);
	bool version = d->offset == offsetof(struct scenario_config, kernel_version);
	kernel_version_t v = 0;
	if (version && kernel_version_parse(text, &v) != 0) {
		snprintf(err, errlen,
			 "bad value '%.80s' for %s: expected a kernel version such as 2.6.28, "
			 "2.6.25-rc1, 2.6.25-mm1 or 3.0-rc",
			 text, d->name);
		return -1;
	}
	if (param_parse(d, c, text, err, errlen) != 0)
		return -1;
	size_t i = (size_t)(d - t);
	if (i < n)
		c->key_set[i / 8] |= (uint8_t)(1u << (i % 8));
	if (version) {
		apply_kernel_version(c, v);
		if (!key_is_set(c, t, n, offsetof(struct scenario_config, vm.reclaim_nap_needs_io)))
			c->vm.reclaim_nap_needs_io =
			    kernel_nap_needs_io(v, kernel_version_rc(text));
		const bool set[9] = {
		    key_is_set(c, t, n, offsetof(struct scenario_config, sched_buddies)),
		    key_is_set(c, t, n, offsetof(struct scenario_config, sched_wakeup_granularity)),
		    key_is_set(c, t, n, offsetof(struct scenario_config, sched_asym_gran)),
		    key_is_set(c, t, n, offsetof(struct scenario_config, sched_normalized_sleeper)),
		    key_is_set(c, t, n,
			       offsetof(struct scenario_config, sched_min_vruntime_leftmost)),
		    key_is_set(c, t, n, offsetof(struct scenario_config, sched_o1)),
		    key_is_set(c, t, n, offsetof(struct scenario_config, elevator_as)),
		    key_is_set(c, t, n, offsetof(struct scenario_config, sched_fair_30)),
		    key_is_set(c, t, n, offsetof(struct scenario_config, sched_adaptive_gran)),
		};
		apply_kernel_sched(c, v, kernel_version_rc(text), set);
	}
	return 0;
}

void scenario_defaults(struct scenario_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "unnamed");
	snprintf(c->reproduces, sizeof(c->reproduces), "none");
	snprintf(c->profile, sizeof(c->profile), "x86_64-2008");
	c->ram = 256ULL << 20;
	c->swap = 0;
	c->cpus = 1;
	c->time_limit = 3600ULL * NSEC_PER_SEC;
	c->host_memory_limit = 4 * GiB;
	snprintf(c->kernel_version, sizeof(c->kernel_version), "%s", KERNEL_VERSION_DEFAULT);
	vm_sysctl_defaults(&c->vm);
	{
		kernel_version_t v = 0;
		const bool none_set[9] = {false};
		kernel_version_parse(KERNEL_VERSION_DEFAULT, &v);
		apply_kernel_sched(c, v, kernel_version_rc(KERNEL_VERSION_DEFAULT), none_set);
	}
	snprintf(c->workload, sizeof(c->workload), "usemem");
	c->usemem = (struct usemem_params){
	    .processes = 1,
	    .size = 64ULL << 20,
	    .pattern = USEMEM_SEQUENTIAL,
	    .loops = 1,
	    .write = true,
	};
	c->filestream = (struct filestream_params){
	    .processes = 1,
	    .size = 512ULL << 20,
	    .mode = FILESTREAM_READ,
	    .passes = 1,
	    .chunk = 64 << 10,
	};
	hackbench_defaults(&c->hackbench);
	fsmark_defaults(&c->fsmark);
	mapstream_defaults(&c->mapstream);
	tracewl_defaults(&c->trace);
	desktop_defaults(&c->desktop);
	iotrace_defaults(&c->iotrace);
	qsbench_defaults(&c->qsbench);
	kbuild_defaults(&c->kbuild);
	contest_defaults(&c->contest);
}

bool scenario_profile(const struct scenario_config *c, struct hw_profile *out)
{
	const struct hw_profile *hw = hw_profile_find(c->profile);
	if (!hw)
		return false;
	*out = *hw;
#define HW_OVERRIDE_APPLY(f)                                                                       \
	if (c->hw.f)                                                                               \
		out->f = c->hw.f;
	HW_PROFILE_COSTS(HW_OVERRIDE_APPLY)
#undef HW_OVERRIDE_APPLY
#define HW_DISK_OVERRIDE_APPLY(f)                                                                  \
	if (c->hw.disk_##f)                                                                        \
		out->disk.f = c->hw.disk_##f;
	HW_DISK_COSTS(HW_DISK_OVERRIDE_APPLY)
#undef HW_DISK_OVERRIDE_APPLY
	out->disk = disk_params_with_writes(out->disk); /* the figures a write takes */
	return true;
}

bool scenario_key_is_override_only(const char *key)
{
	return !strncmp(key, "hw.", 3);
}

bool scenario_key_is_host_only(const char *key)
{
	return !strcmp(key, "run.host_memory_limit");
}

/* Host bytes per simulated object beyond sizeof(struct page), measured as the growth of the
 * peak RSS per object added (tools/measure/host-memory.sh, x86_64 host, RelWithDebInfo):
 * a resident page's PTE and reverse-map entry ~36 B (usemem 64M -> 1G on a 4G machine), a
 * task 8.1 KiB (hackbench 50 -> 500 groups: struct task/process/mm, the touched part of its
 * coroutine stack). Frames are counted twice: as mem_map, and as pages that may be mapped. */
#define HOST_BYTES_PER_MAPPED_PAGE 36
#define HOST_BYTES_PER_TASK	   (8300)
#define HOST_BYTES_BASE		   (32ULL << 20) /* the program, its tables, the trace reader */

uint64_t scenario_task_host_bytes(uint64_t tasks)
{
	/* fork fails past pid_max: no more tasks than pids */
	return (tasks < PID_MAX_DEFAULT ? tasks : PID_MAX_DEFAULT) * HOST_BYTES_PER_TASK;
}

uint64_t scenario_file_host_bytes(const struct scenario_config *c, uint64_t bytes)
{
	const struct hw_profile *hw = hw_profile_find(c->profile);
	uint64_t ps = hw ? hw->page_size : 4096;
	/* at most: every chunk of its page index used (mm/page_index.h) */
	uint64_t chunks = (bytes / ps + PAGE_INDEX_CHUNK) / PAGE_INDEX_CHUNK;
	return chunks * (sizeof(void *) + sizeof(struct page_index_chunk));
}

/* The figures of the estimate, for its message. */
struct host_estimate {
	uint64_t frames, slots, workload, total;
};

static void host_estimate(const struct scenario_config *c, struct host_estimate *e)
{
	memset(e, 0, sizeof(*e));
	const struct hw_profile *hw = hw_profile_find(c->profile);
	const struct workload *w = workload_find(c->workload);
	if (!hw || !w)
		return;
	e->frames = c->ram / hw->page_size;
	e->slots = c->swap / hw->page_size;
	e->workload = w->host_bytes ? w->host_bytes(c) : scenario_task_host_bytes(1);
	e->total = HOST_BYTES_BASE +
		   e->frames * (sizeof(struct page) + HOST_BYTES_PER_MAPPED_PAGE) +
		   e->slots * (sizeof(uint16_t) + sizeof(pfn_t) + HOST_BYTES_PER_MAPPED_PAGE) +
		   e->workload;
}

uint64_t scenario_host_bytes(const struct scenario_config *c)
{
	struct host_estimate e;
	host_estimate(c, &e);
	return e.total;
}

static size_t host_limit_index(void)
{
	size_t n;
	const struct param_desc *t = scenario_params(&n);
	return (size_t)(param_find(t, n, "run.host_memory_limit") - t);
}

static int validate_machine(const struct scenario_config *c, const struct hw_profile *hw, char *err,
			    size_t errlen, const char **key)
{
	uint64_t frames = c->ram / hw->page_size;
	if (frames >= PTE_PFN_MASK) {
		snprintf(err, errlen,
			 "machine.ram %llu is more than the model supports with profile %s: %llu "
			 "frames of %u bytes, where a PTE holds frame numbers below 2^27 (at most "
			 "%llu bytes)",
			 (unsigned long long)c->ram, c->profile, (unsigned long long)frames,
			 hw->page_size, (unsigned long long)(PTE_PFN_MASK - 1) * hw->page_size);
		*key = "machine.ram";
		return -1;
	}
	if (c->swap / hw->page_size > PTE_PFN_MASK) {
		snprintf(err, errlen,
			 "machine.swap %llu is more than the model supports: a swap PTE holds slot "
			 "numbers below 2^27 (at most %llu bytes with %u-byte pages)",
			 (unsigned long long)c->swap,
			 (unsigned long long)PTE_PFN_MASK * hw->page_size, hw->page_size);
		*key = "machine.swap";
		return -1;
	}
	uint64_t reserved =
	    ((uint64_t)hw->kernel_reserved_kb << 10) + frames * hw->struct_page_bytes;
	if (frames < 1024 || c->ram < reserved + 1024ULL * hw->page_size) {
		snprintf(
		    err, errlen,
		    "machine.ram %llu is too small for profile %s: its kernel and mem_map take "
		    "%llu bytes, and at least 1024 pages must be left",
		    (unsigned long long)c->ram, c->profile, (unsigned long long)reserved);
		*key = c->hw.kernel_reserved_kb ? "hw.kernel_reserved_kb" : "machine.ram";
		return -1;
	}
	/* Every lowmem zone's pages_min is its share of min_free_kbytes (setup_per_zone_pages_min:
	 * highmem takes none): at or above what the boot leaves free below highmem, no kernel
	 * allocation (page tables, stacks) could ever succeed. 2.6.8's allocations stop at
	 * pages_low, twice pages_min (the rule variant's alloc_floor_mins). */
	uint64_t lowmem = hw->layout == LAYOUT_X86_32 ? MIN(c->ram, X86_32_LOWMEM_BYTES) : c->ram;
	/* x86-32 keeps the kernel and mem_map below 896 MB, whatever the RAM above it */
	if (lowmem < reserved + 1024ULL * hw->page_size) {
		snprintf(err, errlen,
			 "hw.kernel_reserved_kb %u is too large for profile %s: with mem_map the "
			 "kernel takes %llu bytes of its %llu bytes of low memory, and at least "
			 "1024 pages must be left",
			 hw->kernel_reserved_kb, c->profile, (unsigned long long)reserved,
			 (unsigned long long)lowmem);
		*key = c->hw.kernel_reserved_kb ? "hw.kernel_reserved_kb" : "machine.ram";
		return -1;
	}
	uint64_t usable_kb = lowmem > reserved ? (lowmem - reserved) >> 10 : 0;
	unsigned floor = reclaim_rules_at(c->vm.reclaim_lru)->alloc_floor_mins;
	uint64_t watermark_kb = (uint64_t)c->vm.min_free_kbytes * (floor ? floor : 1);
	/* as the kernel's reservation must, the watermark must leave 1024 pages for the
	 * workload's first process to start in */
	uint64_t spare_kb = 1024ULL * hw->page_size >> 10;
	if (c->vm.min_free_kbytes > 0 && watermark_kb + spare_kb > usable_kb) {
		const char *mark = floor > 1 ? "low (2 x min, vm.reclaim_lru 2.6.8)" : "min";
		if (watermark_kb >= usable_kb)
			snprintf(err, errlen,
				 "vm.min_free_kbytes %ld is not below %sthe low memory the kernel "
				 "leaves free at boot (%llu kB of machine.ram %llu): every kernel "
				 "allocation would fail the %s watermark",
				 (long)c->vm.min_free_kbytes, floor > 1 ? "half " : "",
				 (unsigned long long)usable_kb, (unsigned long long)c->ram, mark);
		else
			snprintf(
			    err, errlen,
			    "vm.min_free_kbytes %ld leaves fewer than 1024 pages above the %s "
			    "watermark of the low memory the kernel leaves free at boot (%llu kB "
			    "of machine.ram %llu)",
			    (long)c->vm.min_free_kbytes, mark, (unsigned long long)usable_kb,
			    (unsigned long long)c->ram);
		*key = "vm.min_free_kbytes";
		return -1;
	}
	if (c->swap > hw->disk.capacity_bytes / 2) {
		snprintf(err, errlen,
			 "machine.swap %llu exceeds half of the profile's disk (%llu bytes)",
			 (unsigned long long)c->swap, (unsigned long long)hw->disk.capacity_bytes);
		*key = "machine.swap";
		return -1;
	}
	struct host_estimate e;
	host_estimate(c, &e);
	if (e.total > c->host_memory_limit) {
		snprintf(
		    err, errlen,
		    "this run would need about %.2f GiB of host memory (%llu frames, %llu swap "
		    "slots, %.2f GiB for the workload's tasks and tables), more than "
		    "run.host_memory_limit %.2f GiB: raise the limit if the host has it",
		    (double)e.total / (double)GiB, (unsigned long long)e.frames,
		    (unsigned long long)e.slots, (double)e.workload / (double)GiB,
		    (double)c->host_memory_limit / (double)GiB);
		/* point at what the user most likely changed: the largest share */
		uint64_t fb = e.frames * (sizeof(struct page) + HOST_BYTES_PER_MAPPED_PAGE);
		uint64_t sb =
		    e.slots * (sizeof(uint16_t) + sizeof(pfn_t) + HOST_BYTES_PER_MAPPED_PAGE);
		*key = c->origin[host_limit_index()]  ? "run.host_memory_limit"
		       : fb >= sb && fb >= e.workload ? "machine.ram"
		       : sb >= e.workload	      ? "machine.swap"
						      : "workload";
		return -1;
	}
	return 0;
}

int scenario_validate(const struct scenario_config *c, char *err, size_t errlen)
{
	const char *key;
	return scenario_validate_key(c, err, errlen, &key);
}

int scenario_validate_key(const struct scenario_config *c, char *err, size_t errlen,
			  const char **key)
{
	const char *dummy;
	if (!key)
		key = &dummy;
	*key = NULL;
	if (!hw_profile_find(c->profile)) {
		*key = "machine.profile";
		size_t o = (size_t)snprintf(
		    err, errlen, "unknown machine.profile '%s': expected one of:", c->profile);
		for (const char *const *n = hw_profile_names(); *n && o < errlen; n++)
			o += (size_t)snprintf(err + o, errlen - o, " %s", *n);
		return -1;
	}
	if (!workload_find(c->workload)) {
		*key = "workload";
		size_t o = (size_t)snprintf(err, errlen,
					    "unknown workload '%s': expected one of:", c->workload);
		for (const struct workload *const *w = workload_all(); *w && o < errlen; w++)
			o += (size_t)snprintf(err + o, errlen - o, " %s", (*w)->name);
		return -1;
	}
	const struct workload *w = workload_find(c->workload);
	if (w->validate && w->validate(c, err, errlen, key) != 0)
		return -1;
	/* with the hw.* overrides: a reserved memory set larger than the RAM is refused too */
	struct hw_profile hw;
	scenario_profile(c, &hw);
	return validate_machine(c, &hw, err, errlen, key);
}
