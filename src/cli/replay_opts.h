/* Option parsing shared by the reference-string commands (replay, mrc, convert, capture). */
#ifndef MMSIM_CLI_REPLAY_OPTS_H
#define MMSIM_CLI_REPLAY_OPTS_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"

/* getopt_long codes of the input-trace options, and their entries for a struct option
 * table: --format, --page-shift, --csv-col, --csv-delim, --limit (references to read). */
enum { ROPT_FORMAT = 0x1000, ROPT_PAGE_SHIFT, ROPT_CSV_COL, ROPT_CSV_DELIM, ROPT_LIMIT };
#define ROPT_INPUT_OPTIONS                                                                         \
	{"format", required_argument, 0, ROPT_FORMAT},                                             \
	    {"page-shift", required_argument, 0, ROPT_PAGE_SHIFT},                                 \
	    {"csv-col", required_argument, 0, ROPT_CSV_COL},                                       \
	    {"csv-delim", required_argument, 0, ROPT_CSV_DELIM},                                   \
	{                                                                                          \
		"limit", required_argument, 0, ROPT_LIMIT                                          \
	}
/* Handles getopt_long's option c with its value. 1 if consumed, 0 if not an input option,
 * -1 after printing an error. */
int ropt_input_option(const char *cmd, int c, const char *val, struct trace_opts *o,
		      uint64_t *limit);
/* The help text for the options above. */
void ropt_trace_help(FILE *out);
/* s as a JSON string literal, quotes included. */
void ropt_json_str(FILE *out, const char *s);
/* A positive (or, with allow_zero, non-negative) decimal integer. 0 ok, -1 bad. */
int ropt_u64(const char *s, uint64_t *v, int allow_zero);

#endif
