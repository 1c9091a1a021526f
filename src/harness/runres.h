/* One run's results, read from the `mmsim run --json` document (docs/run-json.md). */
#ifndef MMSIM_HARNESS_RUNRES_H
#define MMSIM_HARNESS_RUNRES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/plan.h"
#include "harness/stats.h"

struct metric {
	char *name, *unit;
	double value;
	enum better better;
	bool primary;
};

struct counter {
	char *name;
	double value;
};

struct run_result {
	char *scenario_file, *scenario_name, *version, *workload;
	uint64_t seed;
	bool completed;
	struct overrides overrides;
	double elapsed_s, user_s, sys_s, major_faults, minor_faults;
	struct metric *metrics;
	size_t nmetrics;
	struct counter *vmstat; /* sorted by name */
	size_t nvmstat;
	double max_parallel_reclaimers, max_try_to_free_pages_s, allocstall, oom_kills;
	bool has_reclaim;
	/* What the run cost the host, when the store recorded it (host_wall_s, host_cpu_s,
	 * host_peak_rss_mb): found by runres_metric, never listed among the results. */
	struct metric host[3];
	size_t nhost;
};

/* Parses a run document. -1 with a message in err when it does not follow the schema. */
int runres_parse(const char *text, struct run_result *r, char *err, size_t errlen);
void runres_free(struct run_result *r);

const struct metric *runres_metric(const struct run_result *r, const char *name);
const struct metric *runres_primary(const struct run_result *r);
/* A vmstat counter, or NAN when the run does not report it. */
double runres_counter(const struct run_result *r, const char *name);

#endif
