#include "cli/commands.h"
#include "harness/driver.h"

int cmd_sweep(int argc, char **argv)
{
	struct exp_opts o;
	int rc = driver_parse(argc, argv, true, &o);
	if (rc == 0)
		rc = driver_main(&o);
	else if (rc == 1)
		rc = 0;
	driver_opts_free(&o);
	return rc;
}
