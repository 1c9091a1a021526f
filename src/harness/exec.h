/* Runs many `mmsim run` processes, a bounded number at a time. */
#ifndef MMSIM_HARNESS_EXEC_H
#define MMSIM_HARNESS_EXEC_H

#include <stdbool.h>
#include <stddef.h>

/* `mmsim run`'s exit status for a run that completed while its benchmark failed inside the
 * modelled machine (a worker OOM-killed, a fork refused): its JSON is written and is a
 * result, with "completed": false and "failed": true. 0 is a completed benchmark; 1 a run
 * that failed (no result); 2 bad input. */
#define RUN_EXIT_BENCHMARK_FAILED 3

/* What a run cost the host: wall time from fork to exit, CPU time (user + system), and the
 * peak resident set (ru_maxrss). Depends on the host and on what else ran: never part of a
 * run's results, only of what the store keeps about it. */
struct exec_usage {
	double wall_s, cpu_s;
	long peak_rss_kb;
	int parallel; /* runs allowed at once while it ran */
	int status;   /* its wait status */
};

/* Called in the parent as each run ends, in completion order. json is the run's --json
 * output (NULL if it failed), errtext the tail of its stderr. Non-zero stops new launches. */
typedef int (*exec_done_fn)(size_t idx, bool ok, const char *json, const char *errtext,
			    const struct exec_usage *usage, void *arg);

/* argvs[i] is a NULL-terminated command without --json; "--json FILE" is appended.
 * Returns the number of failed runs, or -1 when interrupted by a signal or stopped by fn
 * (running children are then terminated). */
int exec_run(char **const *argvs, size_t n, int parallel, bool progress, exec_done_fn fn,
	     void *arg);

/* The runner command: $MMSIM_RUN_CMD split on blanks, else this executable. Caller frees
 * the array and strings with exec_free_argv. */
char **exec_runner(void);
void exec_free_argv(char **argv);
/* Runs argv to its end with stdin and stdout on /dev/null, its stderr captured into errbuf
 * (truncated to errlen). Returns the wait status, or -1 if it could not be started. */
int exec_check(char *const *argv, char *errbuf, size_t errlen);
/* "exit status 1", "killed by signal SIGSEGV (Segmentation fault)", ... */
void exec_describe_status(int status, char *buf, size_t len);
/* Number of online CPUs, at least 1. */
int exec_ncpus(void);
/* Set when SIGINT/SIGTERM arrived during exec_run. */
extern volatile int exec_interrupted;

#endif
