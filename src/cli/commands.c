#include "cli/commands.h"

#include <stddef.h>

/* Add one line per subcommand; keep them in the order `mmsim --help` should list them. */
const struct command mmsim_commands[] = {
	{"run", cmd_run, "run one scenario in system mode and print its results"},
	{NULL, NULL, NULL},
};
