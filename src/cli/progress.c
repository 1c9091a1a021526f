/* Progress of the trace commands, from the trace reader's byte counts. */
#include "cli/progress.h"

#include "trace/trace.h"

#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static struct {
	const char *cmd;
	double start, last;
	bool drawn;
} P;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void draw(uint64_t done, uint64_t total, void *arg)
{
	(void)arg;
	double t = now_s();
	if (t - P.last < 0.25) /* a few redraws a second at most */
		return;
	P.last = t;
	double el = t - P.start, mib = (double)done / 1048576.0;
	double rate = el > 0 ? mib / el : 0;
	fprintf(stderr, "\rmmsim %s: %.1f MiB", P.cmd, mib);
	if (total && done <= total) {
		fprintf(stderr, " of %.1f MiB (%.0f%%)", (double)total / 1048576.0,
			100.0 * (double)done / (double)total);
	}
	fprintf(stderr, ", %.1f MiB/s", rate);
	if (total && done <= total && rate > 0) {
		long left = (long)(((double)(total - done) / 1048576.0) / rate + 0.5);
		fprintf(stderr, ", %ld:%02ld left", left / 60, left % 60);
	}
	fputs("\033[K", stderr);
	fflush(stderr);
	P.drawn = true;
}

void cli_progress_start(const char *cmd, bool enabled)
{
	if (!enabled || !isatty(2))
		return;
	P.cmd = cmd;
	P.start = now_s();
	P.last = 0;
	P.drawn = false;
	trace_set_progress(draw, NULL);
}

void cli_progress_end(void)
{
	trace_set_progress(NULL, NULL);
	if (P.drawn)
		fputs("\r\033[K", stderr);
	P.drawn = false;
}
