/* mmsim compare: arms of one scenario over several seeds, mmtests-style tables (docs/harness.md;
 * the work is harness/driver.c's). */
#include "cli/commands.h"
#include "harness/driver.h"

int cmd_compare(int argc, char **argv)
{
	return driver_command(argc, argv, false);
}
