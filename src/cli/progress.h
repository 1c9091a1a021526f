/* A progress line for the long trace commands (replay, mrc, convert, capture): bytes of the
 * trace read, the rate and the time left, redrawn on stderr when it is a terminal. */
#ifndef MMSIM_CLI_PROGRESS_H
#define MMSIM_CLI_PROGRESS_H

#include <stdbool.h>

/* Starts drawing for the command cmd when enabled and stderr is a terminal. */
void cli_progress_start(const char *cmd, bool enabled);
/* Erases the line. */
void cli_progress_end(void);

#endif
