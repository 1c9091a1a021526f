/* Scenario files in sysctl syntax: `key = value` per line, `#` comments, blank lines.
 * Every error names the file and line, says what was expected, and makes the command
 * exit with status 2. */
#ifndef MMSIM_CLI_SCENARIO_FILE_H
#define MMSIM_CLI_SCENARIO_FILE_H

#include "workloads/scenario.h"

#include <stddef.h>

/* Parses text (the contents of `origin`) into cfg on top of its current values.
 * Returns 0, or -1 with "origin:line: message" in err. */
int scenario_parse_text(struct scenario_config *cfg, const char *text, size_t len,
			const char *origin, char *err, size_t errlen);
/* Reads and parses a file; a missing or unreadable file is an error too. */
int scenario_load_file(struct scenario_config *cfg, const char *path, char *err, size_t errlen);
/* Applies one "key=value" override; origin names it in errors (e.g. "--set #2"). */
int scenario_apply_override(struct scenario_config *cfg, const char *kv, const char *origin,
			    char *err, size_t errlen);

#endif
