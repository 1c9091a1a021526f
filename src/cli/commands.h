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
int cmd_plot(int argc, char **argv);

/* getopt_long's '?' in every subcommand: the message naming the option, exit status 2. */
int cli_unknown_option(const char *cmd, char **argv);
/* A whole file, malloc'd and NUL-terminated; NULL when it cannot be read (errno set). */
char *cli_slurp(const char *path);
int cmd_replay(int argc, char **argv);
int cmd_mrc(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

#endif
