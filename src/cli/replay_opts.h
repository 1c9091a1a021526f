/* Option parsing shared by the reference-string commands (replay, mrc, convert, capture). */
#ifndef MMSIM_CLI_REPLAY_OPTS_H
#define MMSIM_CLI_REPLAY_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"

/* Handles --format, --page-shift, --csv-col, --csv-delim at argv[*i] (advancing *i past a
 * value). Returns 1 if consumed, 0 if not a trace option, -1 after printing an error. */
int ropt_trace_option(const char *cmd, int argc, char **argv, int *i, struct trace_opts *o);
/* Handles --limit N (references to read) the same way. */
int ropt_limit(const char *cmd, int argc, char **argv, int *i, uint64_t *limit);
/* Both of the above: every option about the input trace. */
int ropt_input_option(const char *cmd, int argc, char **argv, int *i, struct trace_opts *o,
		      uint64_t *limit);
/* The help text for the options above. */
void ropt_trace_help(FILE *out);
/* s as a JSON string literal, quotes included. */
void ropt_json_str(FILE *out, const char *s);
/* A positive (or, with allow_zero, non-negative) decimal integer. 0 ok, -1 bad. */
int ropt_u64(const char *s, uint64_t *v, int allow_zero);

#endif
