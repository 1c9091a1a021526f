/* rsswatch LOG TAG PROG ARGS...: runs PROG, samples its resident set every 20 ms from
 * /proc/PID/statm, and appends one CSV line to LOG when it exits:
 *   tag,prog,input,maxrss_kb,own_hwm_kb,utime_ms,stime_ms,wall_ms,growth,anon_peak_kb
 * maxrss_kb is wait4's ru_maxrss (the process and the descendants it reaped, e.g. cc1 under
 * the gcc driver); own_hwm_kb is the last VmHWM read of PROG itself; growth is its RSS in
 * KiB at 10 %, 20 % … 100 % of its lifetime, separated by ':' (empty if it lived < 20 ms);
 * anon_peak_kb the largest resident − shared (statm: the anonymous part) seen.
 * input is the first argument ending in .c or .S that is not an option's value (the
 * translation unit), else "-". A sample taken after the child exited (0) is dropped. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXS 65536

static long samples[MAXS];
static int nsamples;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long read_hwm(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			kb = atol(line + 6);
	fclose(f);
	return kb;
}

static long anon_peak;

static long read_rss(pid_t pid)
{
	char path[64];
	long size, rss, shared;
	snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int n = fscanf(f, "%ld %ld %ld", &size, &rss, &shared);
	fclose(f);
	long kb = sysconf(_SC_PAGESIZE) / 1024;
	if (n == 3 && (rss - shared) * kb > anon_peak)
		anon_peak = (rss - shared) * kb;
	return n >= 2 ? rss * kb : -1;
}

/* timeout(1) signals its whole process group: let the watched program die of it and still
 * write its line (a handler, unlike SIG_IGN, is not inherited across exec) */
static void on_term(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: rsswatch LOG TAG PROG ARGS...\n");
		return 2;
	}
	const char *input = "-";
	for (int i = 4; i < argc && input[0] == '-'; i++) {
		size_t l = strlen(argv[i]);
		if (argv[i][0] == '-' && strncmp(argv[i], "-dump", 5) &&
		    strncmp(argv[i], "-aux", 4))
			continue;
		if (argv[i][0] == '-') { /* -dumpbase NAME: not the input */
			i++;
			continue;
		}
		if (l > 2 && (!strcmp(argv[i] + l - 2, ".c") || !strcmp(argv[i] + l - 2, ".S")))
			input = argv[i];
	}
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid < 0)
		return 127;
	if (pid == 0) {
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	long hwm = -1;
	int status;
	struct rusage ru;
	for (;;) {
		pid_t w = wait4(pid, &status, WNOHANG, &ru);
		if (w == pid)
			break;
		long r = read_rss(pid), h = read_hwm(pid);
		if (h > 0)
			hwm = h;
		if (r > 0 && nsamples < MAXS)
			samples[nsamples++] = r;
		struct timespec d = {0, 20 * 1000 * 1000};
		nanosleep(&d, NULL);
	}
	double wall = now_ms() - t0;
	char growth[256] = "";
	if (nsamples > 0)
		for (int k = 1, off = 0; k <= 10; k++) {
			int idx = (nsamples * k + 9) / 10 - 1;
			off += snprintf(growth + off, sizeof(growth) - off, "%s%ld",
					k > 1 ? ":" : "", samples[idx < 0 ? 0 : idx]);
		}
	const char *prog = strrchr(argv[3], '/') ? strrchr(argv[3], '/') + 1 : argv[3];
	int fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd >= 0) {
		flock(fd, LOCK_EX);
		dprintf(fd, "%s,%s,%s,%ld,%ld,%ld,%ld,%.0f,%s,%ld\n", argv[2], prog, input,
			ru.ru_maxrss, hwm, ru.ru_utime.tv_sec * 1000L + ru.ru_utime.tv_usec / 1000,
			ru.ru_stime.tv_sec * 1000L + ru.ru_stime.tv_usec / 1000, wall, growth,
			anon_peak);
		close(fd);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
