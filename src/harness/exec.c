/* Runs `mmsim run` child processes a bounded number at a time, with a progress bar, the host
 * cost of each (wall, CPU, peak RSS), PR_SET_PDEATHSIG, and a clean stop on SIGINT/SIGTERM. */
#include "harness/exec.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile int exec_interrupted;

static void on_signal(int sig)
{
	exec_interrupted = sig;
}

int exec_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

void exec_free_argv(char **argv)
{
	if (!argv)
		return;
	for (char **p = argv; *p; p++)
		free(*p);
	free(argv);
}

char **exec_runner(void)
{
	const char *cmd = getenv("MMSIM_RUN_CMD");
	char **argv = xcalloc(64, sizeof(*argv));
	if (cmd && *cmd) {
		size_t n = 0;
		const char *p = cmd;
		while (*p && n < 63) {
			while (*p == ' ' || *p == '\t')
				p++;
			const char *start = p;
			while (*p && *p != ' ' && *p != '\t')
				p++;
			if (p > start)
				argv[n++] = xstrndup(start, (size_t)(p - start));
		}
		if (n)
			return argv;
	}
	char buf[4096];
	ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (len <= 0)
		snprintf(buf, sizeof(buf), "mmsim");
	else
		buf[len] = 0;
	argv[0] = xstrdup(buf);
	return argv;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = xmalloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *nb = xrealloc(buf, cap *= 2);
			buf = nb;
		}
	}
	fclose(f);
	if (buf)
		buf[len] = 0;
	return buf;
}

/* The end of a run's stderr: enough to see why it failed without flooding the terminal. */
static char *tail_of(const char *path, size_t max)
{
	char *all = slurp(path);
	if (!all)
		return NULL;
	size_t len = strlen(all);
	if (len > max)
		memmove(all, all + len - max, max + 1);
	return all;
}

struct slot {
	pid_t pid;
	size_t idx;
	struct timespec start;
};

static double seconds_since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) * 1e-9;
}

/* h:mm:ss, or m:ss under an hour */
static void print_duration(double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		fprintf(stderr, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		fprintf(stderr, "%ld:%02ld", t / 60, t % 60);
}

static void draw_progress(size_t done, size_t n, size_t running, size_t failed,
			  const struct timespec *start)
{
	const int width = 30;
	int fill = n ? (int)(done * (size_t)width / n) : width;
	fprintf(stderr, "\r[");
	for (int i = 0; i < width; i++)
		fputc(i < fill ? '#' : '.', stderr);
	fprintf(stderr, "] %zu/%zu runs, %zu running", done, n, running);
	if (failed)
		fprintf(stderr, ", %zu failed", failed);
	double el = seconds_since(start);
	if (done && el > 0) { /* the rate so far predicts the rest */
		double rate = (double)done / el;
		fprintf(stderr, ", %.2f runs/s, ", rate);
		print_duration((double)(n - done) / rate);
		fprintf(stderr, " left");
	}
	fprintf(stderr, "\033[K"); /* erase what a longer line left */
	fflush(stderr);
}

static pid_t spawn(char *const *argv, const char *json, const char *errf)
{
	size_t argc = 0;
	while (argv[argc])
		argc++;
	const char **full = xcalloc(argc + 3, sizeof(*full));
	for (size_t i = 0; i < argc; i++)
		full[i] = argv[i];
	full[argc] = "--json";
	full[argc + 1] = json;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		/* A killed harness must not leave orphan simulations behind. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
		int err = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (in < 0 || out < 0 || err < 0)
			_exit(127);
		dup2(in, 0);
		dup2(out, 1);
		dup2(err, 2);
		execvp(full[0], (char *const *)full);
		fprintf(stderr, "cannot execute %s: %s\n", full[0], strerror(errno));
		_exit(127);
	}
	free(full);
	return pid;
}

int exec_run(char **const *argvs, size_t n, int parallel, bool progress, exec_done_fn fn, void *arg)
{
	if (parallel < 1)
		parallel = 1;
	progress = progress && isatty(2);
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/mmsim-harness-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "mmsim: cannot create a temporary directory: %s\n",
			strerror(errno));
		return -1;
	}
	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	exec_interrupted = 0;

	struct slot *slots = xcalloc((size_t)parallel, sizeof(*slots));
	size_t next = 0, done = 0, running = 0, failed = 0;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int stop = 0;
	char json[4200], errf[4200];
	while ((next < n && !stop) || running) {
		while (!stop && !exec_interrupted && next < n && running < (size_t)parallel) {
			snprintf(json, sizeof(json), "%s/%zu.json", dir, next);
			snprintf(errf, sizeof(errf), "%s/%zu.err", dir, next);
			pid_t pid = spawn(argvs[next], json, errf);
			if (pid < 0) {
				fprintf(stderr, "mmsim: fork: %s\n", strerror(errno));
				stop = 1;
				break;
			}
			for (int s = 0; s < parallel; s++)
				if (!slots[s].pid) {
					slots[s].pid = pid;
					slots[s].idx = next;
					clock_gettime(CLOCK_MONOTONIC, &slots[s].start);
					break;
				}
			next++;
			running++;
		}
		if (progress)
			draw_progress(done, n, running, failed, &t0);
		if (exec_interrupted && !stop) {
			stop = 1;
			for (int s = 0; s < parallel; s++)
				if (slots[s].pid)
					kill(slots[s].pid, SIGTERM);
		}
		if (!running)
			break;
		int status;
		struct rusage ru;
		pid_t pid = wait4(-1, &status, 0, &ru);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		int s;
		for (s = 0; s < parallel && slots[s].pid != pid; s++)
			;
		if (s == parallel)
			continue; /* not one of ours */
		size_t idx = slots[s].idx;
		struct exec_usage usage = {
		    .wall_s = seconds_since(&slots[s].start),
		    .cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
			     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6,
		    .peak_rss_kb = ru.ru_maxrss,
		    .parallel = parallel,
		    .status = status,
		};
		slots[s].pid = 0;
		running--;
		done++;
		snprintf(json, sizeof(json), "%s/%zu.json", dir, idx);
		snprintf(errf, sizeof(errf), "%s/%zu.err", dir, idx);
		bool ok = WIFEXITED(status) && (WEXITSTATUS(status) == 0 ||
						WEXITSTATUS(status) == RUN_EXIT_BENCHMARK_FAILED);
		char *text = ok ? slurp(json) : NULL;
		char *etext = tail_of(errf, 2000);
		if (!text)
			ok = false;
		if (!ok)
			failed++;
		/* Even after a signal, a run that finished is worth keeping. */
		if (fn(idx, ok, text, etext, &usage, arg))
			stop = 1;
		free(text);
		free(etext);
		unlink(json);
		unlink(errf);
	}
	if (progress) {
		draw_progress(done, n, running, failed, &t0);
		fputc('\n', stderr);
	}
	free(slots);
	rmdir(dir);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (stop || exec_interrupted)
		return -1;
	return (int)failed;
}

int exec_check(char *const *argv, char *errbuf, size_t errlen)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);
		if (nul < 0)
			_exit(127);
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot execute %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	size_t len = 0;
	ssize_t got;
	char sink[512];
	while ((got = read(fds[0], len + 1 < errlen ? errbuf + len : sink,
			   len + 1 < errlen ? errlen - len - 1 : sizeof(sink))) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (len + 1 < errlen)
			len += (size_t)got;
	}
	if (errlen)
		errbuf[len] = 0;
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

void exec_describe_status(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		const char *abbrev = sigabbrev_np(sig);
		snprintf(buf, len, "killed by signal SIG%s (%s)%s", abbrev ? abbrev : "?",
			 strsignal(sig), WCOREDUMP(status) ? ", core dumped" : "");
	} else if (WIFEXITED(status)) {
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	} else {
		snprintf(buf, len, "wait status %#x", status);
	}
}
