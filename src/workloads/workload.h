/* Workloads: a benchmark modelled as programs (C functions running as tasks) that call the
 * system-call-like API of kernel/process.h, and report their own figure of merit the way
 * the real benchmark prints it. */
#ifndef MMSIM_WORKLOADS_WORKLOAD_H
#define MMSIM_WORKLOADS_WORKLOAD_H

#include "sim/param.h"
#include "sim/types.h"

#include <stdio.h>

struct scenario_config;

#define MAX_METRICS 16

struct metric {
	char name[48];
	double value;
	const char *unit;
	bool higher_is_better;
	bool primary;
};

struct workload_result {
	struct metric metrics[MAX_METRICS];
	int nmetrics;
	char text[8192]; /* the benchmark's own report */
	bool completed;
	/* its input could not be used (a trace that turned out unreadable): no measurement at
	 * all, unlike a benchmark that ran and failed (OOM-killed workers, a fork refused) */
	bool input_error;
};

void result_add_metric(struct workload_result *r, const char *name, double value, const char *unit,
		       bool higher_is_better, bool primary);
void result_printf(struct workload_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

struct workload {
	const char *name;
	const char *description;
	const struct param_desc *params; /* offsets into struct scenario_config */
	size_t nparams;
	/* Creates the workload's first processes. 0 on success. */
	int (*start)(const struct scenario_config *cfg, uint64_t seed);
	/* True once the benchmark has finished (its processes are done). */
	bool (*finished)(void);
	void (*report)(const struct scenario_config *cfg, struct workload_result *r);
	void (*cleanup)(void);
	/* Optional: checks that need more than one of its keys, before anything runs. Returns
	 * 0, or -1 with a message in err and in *key the key the user should change. */
	int (*validate)(const struct scenario_config *cfg, char *err, size_t errlen,
			const char **key);
	/* Optional: the host memory its tasks and own tables need at most (bytes), for the
	 * estimate that run.host_memory_limit bounds (scenario_task_host_bytes helps). */
	uint64_t (*host_bytes)(const struct scenario_config *cfg);
};

const struct workload *workload_find(const char *name);
const struct workload *const *workload_all(void); /* NULL-terminated */

#endif
