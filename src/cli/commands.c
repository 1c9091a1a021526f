/* The table of subcommands `mmsim` dispatches to, in the order `mmsim --help` lists them. */
#include "cli/commands.h"

#include <stddef.h>

/* Add one line per subcommand; keep them in the order `mmsim --help` should list them. */
const struct command mmsim_commands[] = {
    {"run", cmd_run, "run one scenario in system mode and print its results"},
    {"compare", cmd_compare, "run arms with several seeds and compare them, mmtests-style"},
    {"sweep", cmd_sweep, "run the cross product of varied keys, one row per point"},
    {"results", cmd_results, "list or export the runs in the results store"},
    {"import", cmd_import, "load mmsim run --json outputs into the results store"},
    {"report", cmd_report, "tables, gnuplot graphs and an HTML page for stored experiments"},
    {"replay", cmd_replay, "replay a page-reference trace through lru, clock, fifo, opt, linux"},
    {"mrc", cmd_mrc, "exact one-pass miss-ratio curve (lru or opt) of a trace"},
    {"capture", cmd_capture, "record a program's page references with valgrind lackey"},
    {"convert", cmd_convert, "convert a trace to mmsim's compact binary format"},
    {"calibrate", cmd_calibrate, "measure this host's kernel-operation costs as hw.* figures"},
    {NULL, NULL, NULL},
};
