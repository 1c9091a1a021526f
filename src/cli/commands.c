/* The table of subcommands `mmsim` dispatches to, in the order `mmsim --help` lists them. */
#include "cli/commands.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <getopt.h>

/* Add one line per subcommand; keep them in the order `mmsim --help` should list them. */
const struct command mmsim_commands[] = {
    {"run", cmd_run, "run one scenario in system mode and print its results"},
    {"compare", cmd_compare, "run arms with several seeds and compare them, mmtests-style"},
    {"sweep", cmd_sweep, "run the cross product of varied keys, one row per point"},
    {"results", cmd_results, "list or export the runs in the results store"},
    {"import", cmd_import, "load mmsim run --json outputs into the results store"},
    {"report", cmd_report, "tables, gnuplot graphs and an HTML page for stored experiments"},
    {"plot", cmd_plot, "time-series graphs of sampled runs (run --sample), one line per arm"},
    {"replay", cmd_replay, "replay a page-reference trace through lru, clock, fifo, opt, linux"},
    {"mrc", cmd_mrc, "exact one-pass miss-ratio curve (lru or opt) of a trace"},
    {"capture", cmd_capture, "record a program's page references with valgrind lackey"},
    {"convert", cmd_convert, "convert a trace to mmsim's compact binary format"},
    {"calibrate", cmd_calibrate, "measure this host's kernel-operation costs as hw.* figures"},
    {NULL, NULL, NULL},
};

int cli_unknown_option(const char *cmd, char **argv)
{
	fprintf(stderr, "mmsim %s: unknown or incomplete option '%s' (try mmsim %s --help)\n", cmd,
		argv[optind - 1], cmd);
	return 2;
}

char *cli_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	fclose(m);
	return buf;
}
