/* Fuzz target: the scenario-file parser and validator must answer any input with success or
 * a file:line error, never a crash or undefined behaviour. */
#include "cli/scenario_file.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario_config cfg;
	char err[1024];
	scenario_defaults(&cfg);
	if (scenario_parse_text(&cfg, (const char *)data, size, "fuzz", err, sizeof(err)) == 0)
		scenario_validate(&cfg, err, sizeof(err));
	/* an override is parsed from a C string */
	char kv[256];
	size_t n = size < sizeof(kv) - 1 ? size : sizeof(kv) - 1;
	memcpy(kv, data, n);
	kv[n] = 0;
	scenario_apply_override(&cfg, kv, "--set:1", err, sizeof(err));
	return 0;
}
