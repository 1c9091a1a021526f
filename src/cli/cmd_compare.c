#include "cli/commands.h"
#include "harness/driver.h"

int cmd_compare(int argc, char **argv)
{
	return driver_command(argc, argv, false);
}
