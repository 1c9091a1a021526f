/* A scenario: the machine (hardware profile, RAM, CPUs, swap), the vm.* sysctls and policy
 * switches, and one workload with its parameters. Every field is reachable by name through
 * scenario_params(), which is what scenario files, --set and the JSON config block use. */
#ifndef MMSIM_WORKLOADS_SCENARIO_H
#define MMSIM_WORKLOADS_SCENARIO_H

#include "hw/profile.h"
#include "mm/mm.h"
#include "mm/vmstat_sample.h"
#include "sim/param.h"
#include "workloads/contest.h"
#include "workloads/desktop.h"
#include "workloads/filestream.h"
#include "workloads/fsmark.h"
#include "workloads/hackbench.h"
#include "workloads/kbuild.h"
#include "workloads/mapstream.h"
#include "workloads/iotrace.h"
#include "workloads/qsbench.h"
#include "workloads/tracereplay.h"
#include "workloads/usemem.h"
#include "workloads/workload.h"

/* hw.<field> = value: replaces one of the profile's estimates for this run, a cost in ns or
 * kernel_reserved_kb, or (hw.disk.<field>) a figure of its disks (0, unset, keeps the
 * profile's; an override is at least 1). For sensitivity
 * studies from the command line
 * (--set, --vary): scenario files take every cost from machine.profile and may not set these. */
struct hw_cost_overrides {
#define HW_OVERRIDE_FIELD(f) uint64_t f;
	HW_PROFILE_COSTS(HW_OVERRIDE_FIELD)
#undef HW_OVERRIDE_FIELD
#define HW_DISK_OVERRIDE_FIELD(f) uint64_t disk_##f;
	HW_DISK_COSTS(HW_DISK_OVERRIDE_FIELD)
#undef HW_DISK_OVERRIDE_FIELD
};

/* Size of the key table (scenario_params). */
#define SCENARIO_MAX_KEYS 256

struct scenario_config {
	char name[PARAM_STRING_MAX];
	char reproduces[PARAM_STRING_MAX]; /* the seed thread it reproduces, or "none" */
	char profile[PARAM_STRING_MAX];
	uint64_t ram;
	uint64_t swap;
	int cpus;
	int sched_clock_jiffies;	       /* machine.sched_clock = jiffies */
	char kernel_version[PARAM_STRING_MAX]; /* kernel.version: the vm.* defaults follow it */
	int sched_normalized_sleeper;	       /* kernel.sched_normalized_sleeper */
	int sched_min_vruntime_leftmost;       /* kernel.sched_min_vruntime = leftmost */
	/* kernel.sched_buddies (enum sched_buddies), kernel.sched_wakeup_granularity (ns,
	 * before the CPU-count factor), kernel.sched_asym_gran: kernel.version's unless set
	 * by name */
	int sched_o1;		 /* kernel.scheduler = o1 */
	int sched_fair_30;	 /* kernel.sched_fair = 3.0 */
	int sched_adaptive_gran; /* kernel.sched_adaptive_gran */
	int elevator_as;	 /* kernel.elevator = as */
	int sched_buddies;
	uint64_t sched_wakeup_granularity;
	int sched_asym_gran;
	struct hw_cost_overrides hw; /* hw.* */
	uint64_t time_limit;
	uint64_t check_every;	    /* run the invariant checker every N events (0 = never) */
	uint64_t host_memory_limit; /* run.host_memory_limit: refuse a run needing more */
	/* not scenario keys (they change no result): set by the command line */
	sim_time_t sample_every; /* --sample: vmstat monitor interval (0 = none) */
	unsigned sample_what;	 /* --sample-tasks, --sample-disks: SAMPLE_TASKS | SAMPLE_DISKS */
	struct vm_sysctl vm;
	char workload[PARAM_STRING_MAX];
	struct usemem_params usemem;
	struct filestream_params filestream;
	struct hackbench_params hackbench;
	struct fsmark_params fsmark;
	struct mapstream_params mapstream;
	struct desktop_params desktop;
	struct iotrace_params iotrace;
	struct qsbench_params qsbench;
	struct kbuild_params kbuild;
	struct contest_params contest;
	struct tracewl_params trace;
	/* the keys set by name (scenario_set), by index in scenario_params(): kernel.version
	 * gives its defaults to every vm.* key not among them */
	uint8_t key_set[SCENARIO_MAX_KEYS / 8];
	/* Where each key (by its index in scenario_params) was last set: 0 its default, > 0
	 * the line of the scenario file, < 0 a --set. Only for error messages. */
	int32_t origin[SCENARIO_MAX_KEYS];
};

void scenario_defaults(struct scenario_config *c);
/* The profile a run uses: machine.profile with the hw.* overrides applied. False when the
 * profile does not exist. */
bool scenario_profile(const struct scenario_config *c, struct hw_profile *out);
/* True for the keys only the command line may set (hw.*). */
bool scenario_key_is_override_only(const char *key);
/* True for the keys that bound the host, not the simulated machine (run.host_memory_limit):
 * they change no result and are left out of a run's JSON config. */
bool scenario_key_is_host_only(const char *key);
/* Host memory a run of c would need at most, estimated before it starts (bytes). */
uint64_t scenario_host_bytes(const struct scenario_config *c);
/* Host memory of a workload's tasks, at most pid_max of them alive (for host_bytes hooks). */
uint64_t scenario_task_host_bytes(uint64_t tasks);
/* Host memory of a file's page index (one pfn_t per page) holding bytes, pages of c's
 * profile. */
uint64_t scenario_file_host_bytes(const struct scenario_config *c, uint64_t bytes);
const struct param_desc *scenario_params(size_t *n);
/* Sets key d (from scenario_params) to text, as a scenario file or --set does: the key
 * counts as set by name from then on, and kernel.version rewrites every vm.* key not set
 * by name to that kernel's value. 0, or -1 with a message in err. */
int scenario_set(struct scenario_config *c, const struct param_desc *d, const char *text, char *err,
		 size_t errlen);
/* Checks what single parameters cannot (the profile exists, the workload exists, RAM is
 * large enough and within the model's limit, keys that must agree do, the host can hold
 * the run). Returns 0 or -1 with a message in err; *key (if key is not NULL) names the key
 * the message is about, for the caller to say where it was set. */
int scenario_validate_key(const struct scenario_config *c, char *err, size_t errlen,
			  const char **key);
int scenario_validate(const struct scenario_config *c, char *err, size_t errlen);

struct run_result {
	bool completed;	    /* the workload finished before the time limit */
	bool panicked;	    /* OOM with nothing left to kill, or panic_on_oom */
	bool failed;	    /* the workload ended but reports failure (e.g. a worker killed) */
	sim_time_t elapsed; /* until the workload finished (or the limit) */
	uint64_t user_ns, sys_ns;
	uint64_t major_faults, minor_faults;
	uint64_t nvcsw, nivcsw; /* the job's voluntary and involuntary context switches */
	struct workload_result wl;
	struct reclaim_stats rstats;
	struct oom_victim oom[MAX_OOM_RECORDS];
	unsigned nr_oom;
	/* /proc/vmstat at the end, in kernel order */
	struct vmstat_entry {
		char name[40];
		uint64_t value;
	} * vmstat;
	int nr_vmstat;
	/* /proc/buddyinfo at the end: free blocks per order of each populated zone */
	struct buddyinfo_entry {
		char zone[16];
		unsigned long nr_free[MAX_ORDER];
	} buddyinfo[MAX_NR_ZONES];
	int nr_buddyinfo;
	struct sample_series samples; /* --sample */
	struct proc_series procs;     /* --sample-tasks, --sample-disks */
	/* host-side figures for benchmarks */
	uint64_t events, context_switches;
	uint64_t touches;
};

/* Boots the machine, runs the workload to completion or the time limit, collects the
 * results and tears everything down. check, when non-NULL, runs every cfg->check_every
 * events and at the end; its failure aborts the run with -1. SCENARIO_NO_START: the
 * machine did not boot or the workload could not start in it (its input unusable, or no
 * memory for its first process); no result. */
#define SCENARIO_NO_START (-2)
/* SCENARIO_REFUSED: the workload's start() refused its input once the machine had booted,
 * as validation would have if it could see the booted machine; scenario_refusal() names the
 * key and says why. No result. */
#define SCENARIO_REFUSED (-3)
/* For a workload's start(): records why its input is unusable in this machine (the key it
 * rests on, a message) and returns SCENARIO_REFUSED. */
int scenario_refuse(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last refusal's message; *key its key. */
const char *scenario_refusal(const char **key);
int scenario_run(const struct scenario_config *cfg, uint64_t seed, struct run_result *res,
		 int (*check)(void));
void run_result_free(struct run_result *res);

#endif
