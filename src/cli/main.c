/* The mmsim executable: --help, --version, and dispatch to a subcommand of commands.c. */
#include "cli/commands.h"
#include "version.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
	fprintf(out,
		"usage: mmsim COMMAND [ARGS...]\n"
		"       mmsim COMMAND --help\n\n"
		"mmsim %s: a deterministic simulator of Linux page reclaim.\n\ncommands:\n",
		MMSIM_VERSION);
	for (const struct command *c = mmsim_commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("mmsim %s\n", MMSIM_VERSION);
		return 0;
	}
	for (const struct command *c = mmsim_commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "mmsim: unknown command '%s' (try mmsim --help)\n", argv[1]);
	return 2;
}
