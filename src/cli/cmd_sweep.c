/* mmsim sweep: the cross product of varied keys, one row per point (docs/harness.md; the work
 * is harness/driver.c's). */
#include "cli/commands.h"
#include "harness/driver.h"

int cmd_sweep(int argc, char **argv)
{
	return driver_command(argc, argv, true);
}
