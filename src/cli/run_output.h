/* Printing a run's results: the text report and the JSON document of docs/run-json.md. */
#ifndef MMSIM_CLI_RUN_OUTPUT_H
#define MMSIM_CLI_RUN_OUTPUT_H

#include "workloads/scenario.h"

#include <stdio.h>

struct run_meta {
	const char *scenario_file;
	uint64_t seed;
	const char *const *overrides; /* "key=value" strings */
	int noverrides;
};

void run_print_text(FILE *out, const struct run_meta *meta, const struct scenario_config *cfg,
		    const struct run_result *r);
/* Returns a malloc'd JSON text (ends with a newline). */
char *run_to_json(const struct run_meta *meta, const struct scenario_config *cfg,
		  const struct run_result *r);

#endif
