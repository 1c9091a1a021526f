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
};

const struct workload *workload_find(const char *name);
const struct workload *const *workload_all(void); /* NULL-terminated */

#endif
