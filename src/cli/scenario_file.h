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
/* "key=value" with the blanks around key and value removed, as the override is applied. */
void scenario_override_canonical(const char *kv, char *out, size_t outlen);
/* Where key was last set in cfg: *line > 0 the scenario file's line, < 0 a --set, 0 its
 * default. Returns the key's name, or NULL for an unknown key. */
const char *scenario_key_origin(const struct scenario_config *cfg, const char *key, int *line);
/* scenario_validate, its message prefixed with where the key at fault was set: "file:line",
 * "--set KEY", or the file when the key kept its default. Returns 0 or -1. */
int scenario_check(const struct scenario_config *cfg, const char *file, char *err, size_t errlen);
/* "FILE:LINE: MSG" for the line that set key, "--set KEY: MSG" for an override, "FILE: MSG"
 * for a key left at its default. */
void scenario_key_error(const struct scenario_config *cfg, const char *file, const char *key,
			const char *msg, char *err, size_t errlen);

#endif
