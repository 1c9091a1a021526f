/* mmsim capture: record a real program's page references with valgrind's lackey tool.
 *
 * Lackey's --trace-mem output goes to a pipe (--log-fd) and is converted as it arrives, so
 * neither the text (tens of bytes per memory access) nor anything proportional to it is ever
 * stored; only the binary trace is written. */
#include "cli/commands.h"
#include "cli/progress.h"
#include "cli/replay_opts.h"
#include "trace/trace.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void usage(FILE *out)
{
	fprintf(out, "usage: mmsim capture [--out FILE] [--page-shift N] -- CMD [ARGS...]\n\n"
		     "Runs CMD under valgrind --tool=lackey --trace-mem=yes and writes its page\n"
		     "references (instruction fetches as exec, loads as read, stores as write;\n"
		     "a modify is a read then a write) in mmsim's trace format, streaming.\n\n"
		     "  --out FILE       output (default CMD.mmt.zst); .zst compresses with zstd\n"
		     "  --page-shift N   log2 of the page size (default 12)\n"
		     "  --valgrind PATH  valgrind binary (default: valgrind from PATH)\n"
		     "  --no-progress    no progress line even on a terminal\n"
		     "CMD's standard input, output and error are left alone.\n");
}

int cmd_capture(int argc, char **argv)
{
	const char *out = NULL, *vg = "valgrind";
	uint64_t shift = 12;
	enum { O_OUT = 256, O_VALGRIND, O_SHIFT, O_NOPROG };
	bool progress = true;
	static const struct option lo[] = {
	    {"out", required_argument, 0, O_OUT},
	    {"valgrind", required_argument, 0, O_VALGRIND},
	    {"page-shift", required_argument, 0, O_SHIFT},
	    {"no-progress", no_argument, 0, O_NOPROG},
	    {"help", no_argument, 0, 'h'},
	    {0, 0, 0, 0},
	};
	optind = 1;
	opterr = 0;
	int c;
	/* "+": the first non-option is CMD, whose own options are not ours */
	while ((c = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case O_OUT:
			out = optarg;
			break;
		case O_VALGRIND:
			vg = optarg;
			break;
		case O_NOPROG:
			progress = false;
			break;
		case O_SHIFT:
			if (ropt_u64(optarg, &shift, 0) || shift > 40) {
				fprintf(stderr,
					"mmsim capture: --page-shift: expected 1..40, got '%s'\n",
					optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr,
				"mmsim capture: unknown option '%s' (the command goes after --; "
				"try mmsim capture --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	int i = optind;
	if (i >= argc) {
		fprintf(stderr, "mmsim capture: no command given (mmsim capture -- CMD ARGS...)\n");
		return 2;
	}
	char defout[512];
	if (!out) {
		const char *base = strrchr(argv[i], '/');
		snprintf(defout, sizeof(defout), "%s.mmt.zst", base ? base + 1 : argv[i]);
		out = defout;
	}
	char err[1024];
	struct trace_writer *w = trace_writer_open(out, (unsigned)shift, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "mmsim capture: %s\n", err);
		return 2;
	}
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC)) {
		perror("mmsim capture: pipe");
		trace_writer_close(w);
		return 1;
	}
	/* valgrind writes its log in small pieces; a larger pipe means fewer wakeups here */
	fcntl(pfd[0], F_SETPIPE_SZ, 1 << 20);
	int nargs = argc - i;
	char **vargv = xcalloc((size_t)nargs + 8, sizeof(char *));
	char logfd[32];
	int childfd = pfd[1];
	snprintf(logfd, sizeof(logfd), "--log-fd=%d", childfd);
	int k = 0;
	vargv[k++] = (char *)vg;
	vargv[k++] = "--tool=lackey";
	vargv[k++] = "--trace-mem=yes";
	vargv[k++] = logfd;
	for (int j = i; j < argc; j++)
		vargv[k++] = argv[j];
	vargv[k] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("mmsim capture: fork");
		free(vargv);
		trace_writer_close(w);
		return 1;
	}
	if (pid == 0) {
		/* only the write end crosses the exec */
		if (fcntl(childfd, F_SETFD, 0) < 0)
			_exit(126);
		execvp(vg, vargv);
		fprintf(stderr, "mmsim capture: cannot run %s: %s\n", vg, strerror(errno));
		_exit(127);
	}
	free(vargv);
	close(pfd[1]);
	struct trace_opts to = {.format = TRACE_FMT_LACKEY, .page_shift = (unsigned)shift};
	int rc = 0;
	struct trace *t = trace_open_fd(pfd[0], "lackey output", &to, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "mmsim capture: %s\n", err);
		rc = 2;
	} else {
		struct trace_ref r;
		int n = 0;
		cli_progress_start("capture", progress); /* lackey's output read, and its rate */
		while ((n = trace_next(t, &r)) > 0)
			if (trace_writer_put(w, r.page, (enum trace_kind)r.kind)) {
				fprintf(stderr, "mmsim capture: %s\n", trace_writer_error(w));
				rc = 1;
				break;
			}
		cli_progress_end();
		if (n < 0) {
			fprintf(stderr, "mmsim capture: %s\n", trace_error(t));
			rc = 2;
		}
		trace_close(t);
	}
	close(pfd[0]); /* a child still writing gets SIGPIPE rather than blocking forever */
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	uint64_t nrefs = trace_writer_count(w);
	uint32_t nd = trace_writer_distinct(w);
	if (trace_writer_close(w)) {
		fprintf(stderr, "mmsim capture: %s: write failed\n", out);
		rc = 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && nrefs == 0) {
		fprintf(stderr, "mmsim capture: valgrind could not be run (is it installed?)\n");
		return 2;
	}
	fprintf(stderr, "mmsim capture: %s: %llu references, %u distinct pages", out,
		(unsigned long long)nrefs, nd);
	if (WIFEXITED(status))
		fprintf(stderr, "; command exited with status %d\n", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "; command killed by signal %d\n", WTERMSIG(status));
	else
		fprintf(stderr, "\n");
	return rc;
}
