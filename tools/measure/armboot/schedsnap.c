/* schedsnap: snapshots of the CFS run queue while hackbench runs, from
 * /proc/sched_debug (CONFIG_SCHED_DEBUG; the guest kernel has it).
 *
 *   schedsnap INTERVAL_MS COUNT [m]
 *
 * Every INTERVAL_MS (nanosleep) for COUNT samples: reads /proc/sched_debug and
 * prints '=== snap SECONDS.MICROS' (gettimeofday) followed by the lines that
 * matter for hackbench: the cfs_rq's min_vruntime and nr_running, and each
 * runnable hackbench task ("R" marks the one on the CPU; then comm, pid, the
 * tree key = se.vruntime in ms, and nvcsw + nivcsw so far). Sleeping tasks are
 * not in sched_debug's list: a receiver absent from a snapshot is blocked in
 * read(), a sender absent is blocked on a full socket. Each snapshot also
 * carries /proc/meminfo's Slab: and MemFree: lines (the skbs in flight are slab);
 * with a third argument 'm' only those (much less reading and printing).
 *
 * It perturbs what it measures: each sample wakes it, and it reads and prints
 * a few kilobytes. It sets itself to nice -20 (busybox here has no nice
 * applet) so its wakeups take the CPU at once and its runs are short. open/read/write only: the
 * guest's static glibc must not call system calls 2.6.25 lacks.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 18];

static int keep(const char *line)
{
	return strstr(line, "hackbench") || strstr(line, "min_vruntime") ||
	       strstr(line, "nr_running") || !strncmp(line, "Slab:", 5) ||
	       !strncmp(line, "MemFree:", 8);
}

/* Appends the kept lines of the file at path to out at *o. */
static void grab(const char *path, char *out, size_t cap, size_t *o)
{
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	while (len < sizeof buf - 1 && (n = read(fd, buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = 0;
	for (char *p = buf; *p;) {
		char *e = strchr(p, '\n');
		if (e)
			*e = 0;
		if (keep(p) && *o + strlen(p) + 2 < cap)
			*o += (size_t)snprintf(out + *o, cap - *o, "%s\n", p);
		if (!e)
			break;
		p = e + 1;
	}
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 20, count = argc > 2 ? atol(argv[2]) : 100;
	int meminfo_only = argc > 3 && argv[3][0] == 'm';
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	static char out[1 << 18];

	setpriority(PRIO_PROCESS, 0, -20);

	for (long i = 0; i < count; i++) {
		struct timeval tv;
		size_t o = 0;

		gettimeofday(&tv, NULL);
		o += (size_t)snprintf(out + o, sizeof out - o, "=== snap %ld.%06ld\n",
				      (long)tv.tv_sec, (long)tv.tv_usec);
		grab("/proc/meminfo", out, sizeof out, &o);
		if (!meminfo_only)
			grab("/proc/sched_debug", out, sizeof out, &o);
		if (write(1, out, o) < 0)
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}
