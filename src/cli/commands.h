/* Subcommands of the mmsim command line. Each returns the process exit status:
 * 0 success, 1 a run that failed, 2 bad usage or bad input. */
#ifndef MMSIM_CLI_COMMANDS_H
#define MMSIM_CLI_COMMANDS_H

struct command {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command name */
	const char *summary;
};

/* NULL-terminated table, defined in commands.c. */
extern const struct command mmsim_commands[];

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_mrc(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

#endif
