/* Helpers shared by the tests: build a scenario from text, run it with the invariant
 * checker on, and read counters out of the result. */
#ifndef MMSIM_TESTS_TESTUTIL_H
#define MMSIM_TESTS_TESTUTIL_H

#include "workloads/scenario.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* Parses `text` (scenario syntax) over the defaults; fails the test on a parse error. */
void test_scenario(struct scenario_config *cfg, const char *text);
/* Runs with the invariant checker every `check_every` events and at the end; fails the
 * test if an invariant breaks. */
void test_run(const struct scenario_config *cfg, uint64_t seed, struct run_result *res);
uint64_t test_vmstat(const struct run_result *res, const char *name);
/* Sum of the per-zone counters name_dma, name_dma32, name_normal, name_high. */
uint64_t test_vmstat_zones(const struct run_result *res, const char *name);

#endif
