#include "cli/commands.h"
#include "harness/driver.h"

int cmd_sweep(int argc, char **argv)
{
	return driver_command(argc, argv, true);
}
