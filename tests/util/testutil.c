#include "util/testutil.h"

#include "cli/scenario_file.h"
#include "mm/mm.h"

#include <stdio.h>
#include <string.h>

void test_scenario(struct scenario_config *cfg, const char *text)
{
	char err[1024];
	scenario_defaults(cfg);
	cfg->check_every = 2000;
	if (scenario_parse_text(cfg, text, strlen(text), "test", err, sizeof(err)) != 0 ||
	    scenario_validate(cfg, err, sizeof(err)) != 0) {
		print_error("scenario: %s\n", err);
		fail();
	}
}

void test_run(const struct scenario_config *cfg, uint64_t seed, struct run_result *res)
{
	int rc = scenario_run(cfg, seed, res, mm_check_invariants);
	assert_int_equal(rc, 0);
}

uint64_t test_vmstat(const struct run_result *res, const char *name)
{
	for (int i = 0; i < res->nr_vmstat; i++)
		if (!strcmp(res->vmstat[i].name, name))
			return res->vmstat[i].value;
	print_error("no vmstat counter %s\n", name);
	fail();
	return 0;
}

uint64_t test_vmstat_zones(const struct run_result *res, const char *name)
{
	static const char *const zones[] = {"dma", "dma32", "normal", "high"};
	uint64_t sum = 0;
	char full[64];
	for (int z = 0; z < 4; z++) {
		snprintf(full, sizeof(full), "%s_%s", name, zones[z]);
		for (int i = 0; i < res->nr_vmstat; i++)
			if (!strcmp(res->vmstat[i].name, full))
				sum += res->vmstat[i].value;
	}
	return sum;
}
