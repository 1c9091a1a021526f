/* The command lines of a planned job (see jobcmd.c). */
#ifndef MMSIM_HARNESS_JOBCMD_H
#define MMSIM_HARNESS_JOBCMD_H

#include "harness/plan.h"

#include <stdio.h>

/* Writes s to f quoted for a POSIX shell (as is when it needs no quoting). */
void shell_quote(FILE *f, const char *s);
/* The `mmsim run` command line of one job, shell-quoted, as a user would retype it
 * (malloc'd). */
char *job_command(const struct experiment *e, const struct job *j);
/* runner + run SCENARIO --set ... --seed N [--sample INTERVAL], NULL-terminated; free with
 * exec_free_argv. */
char **job_argv(char **runner, const struct experiment *e, const struct job *j, const char *sample);
/* Every arm at every point of the jobs to run through `mmsim run --dry-run`; 0, or 2 after
 * printing each refusal. */
int validate_points(const struct experiment *e, char **runner, struct job **todo, size_t ntodo);

#endif
