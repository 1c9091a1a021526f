/*
 * hackbench for the armboot measurement, written for mmsim from the
 * behaviour described in /work/shared/reference/benchmarks.md section 1 (the
 * 2008 program: 'hackbench [-pipe] N [process|thread] [loops]').  Process mode
 * only; that is what seed 000 ran ('hackbench 5 process 100').
 *
 * N groups of 20 receivers and 20 senders.  Each receiver owns one AF_UNIX
 * SOCK_STREAM socketpair (or a pipe with -pipe); each sender of the group
 * holds the write ends of all 20 connections of its group and writes
 * 'loops' rounds of one 100-byte message to each of them; each receiver reads
 * 20 * loops messages of 100 bytes.  Workers are fork()ed in order (per
 * group: 20 receivers, then 20 senders), tell the parent they are ready by a
 * byte on a 'ready' connection, and wait on a 'wake' connection (poll) for
 * the start; both are of the same kind as the workers' connections.
 * The time printed is from the wake write until the parent has reaped every
 * worker.  A worker that sees an error (e.g. its peer was OOM-killed) prints
 * it and exits 1; the parent exits 1 if any worker did not exit 0.
 *
 * Not in the 2008 program: with HACKBENCH_PROC=1 in the environment the
 * parent copies /proc/meminfo and /proc/slabinfo to stdout once every worker
 * is ready and before the start signal (outside the timed window), between
 * '=== meminfo start-signal' / '=== slabinfo start-signal' lines.  It also
 * reads the 'ctxt' count of /proc/stat (context switches since boot) right
 * before the start signal, after that output is flushed, and again right
 * after the last worker is reaped (after the second gettimeofday), and
 * prints both after the run, as '=== ctxt start-signal N' and
 * '=== ctxt end N' (printing them before the end would put the console
 * write's own switches into the count), then
 * '=== worker rusage nvcsw X nivcsw Y': the workers' voluntary and
 * involuntary context switches summed over the rusage wait4() returns for
 * each (kernel/exit.c wait_task_zombie -> getrusage(RUSAGE_BOTH): the
 * worker's own nvcsw/nivcsw and those of its reaped children, none here).
 * To have those, the parent reaps with wait4(-1, &st, 0, &ru) instead of
 * wait(&st), also without HACKBENCH_PROC (the same system call: glibc's
 * wait() is wait4 without the rusage).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define PER_GROUP   20
#define MSG_SIZE    100
#define MAX_WORKERS 4000 /* rusage kept per role up to 100 groups */

static int use_pipes;

static void fail(const char *what)
{
	fprintf(stderr, "hackbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void make_channel(int fds[2])
{
	if (use_pipes) {
		/* the pipe syscall itself: glibc's pipe() uses pipe2 (2.6.27+) */
		if (syscall(SYS_pipe, fds) < 0)
			fail("pipe");
	} else if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) < 0) {
		fail("socketpair");
	}
}

/* Say we are ready, then block until the parent writes to the wake pipe. */
static void ready_and_wait(int ready_wr, int wake_rd)
{
	char c = 'r';
	struct pollfd p;

	if (write(ready_wr, &c, 1) != 1)
		fail("ready write");
	p.fd = wake_rd;
	p.events = POLLIN;
	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			fail("poll");
}

static void receiver(int rd, int loops, int ready_wr, int wake_rd)
{
	char buf[MSG_SIZE];
	long left = (long)PER_GROUP * loops * MSG_SIZE;

	ready_and_wait(ready_wr, wake_rd);
	while (left > 0) {
		ssize_t n = read(rd, buf, left < MSG_SIZE ? left : MSG_SIZE);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fail("read");
		}
		if (n == 0) {
			fprintf(stderr, "hackbench: read: end of file with %ld bytes left\n", left);
			exit(1);
		}
		left -= n;
	}
	exit(0);
}

static void sender(const int *wr, int loops, int ready_wr, int wake_rd)
{
	char msg[MSG_SIZE];
	int i, j;

	memset(msg, 'm', sizeof msg);
	ready_and_wait(ready_wr, wake_rd);
	for (i = 0; i < loops; i++) {
		for (j = 0; j < PER_GROUP; j++) {
			size_t done = 0;
			while (done < MSG_SIZE) {
				ssize_t n = write(wr[j], msg + done, MSG_SIZE - done);
				if (n < 0) {
					if (errno == EINTR)
						continue;
					fail("write");
				}
				done += n;
			}
		}
	}
	exit(0);
}

static void copy_file(const char *title, const char *path)
{
	char buf[1024];
	FILE *f = fopen(path, "r");
	size_t n;

	printf("=== %s\n", title);
	if (!f) {
		printf("hackbench: %s: %s\n", path, strerror(errno));
		return;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
}

/* The 'ctxt' count of /proc/stat, or -1.  open/read, not stdio: nothing
 * but the two system calls and the read of the file. */
static long long read_ctxt(void)
{
	static char buf[16384];
	size_t len = 0;
	ssize_t n;
	char *p;
	int fd = open("/proc/stat", O_RDONLY);

	if (fd < 0)
		return -1;
	while (len < sizeof buf - 1 && (n = read(fd, buf + len, sizeof buf - 1 - len)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += n;
	}
	close(fd);
	buf[len] = 0;
	for (p = buf; *p; p++) {
		if (strncmp(p, "ctxt ", 5) == 0)
			return atoll(p + 5);
		p = strchr(p, '\n');
		if (!p)
			break;
	}
	return -1;
}

/* Which reaped pids were senders, for the rusage split by role; and the rusage kept
 * per reap (classified after the timed window). */
static pid_t sender_pids[MAX_WORKERS];
static int nr_sender_pids;
static struct {
	pid_t pid;
	long nvcsw, nivcsw;
} reaped[MAX_WORKERS];

static pid_t spawn(void)
{
	pid_t pid = fork();
	if (pid < 0)
		fail("fork");
	return pid;
}

int main(int argc, char **argv)
{
	int groups = 10, loops = 100, arg = 1;
	int ready[2], wake[2];
	int total, g, i, j, started = 0, bad = 0;
	struct timeval t0, t1;
	char c;
	int proc = getenv("HACKBENCH_PROC") != NULL;
	long long ctxt0 = -1, ctxt1 = -1, nvcsw = 0, nivcsw = 0;

	if (arg < argc && strcmp(argv[arg], "-pipe") == 0) {
		use_pipes = 1;
		arg++;
	}
	if (arg < argc)
		groups = atoi(argv[arg++]);
	if (arg < argc) {
		if (strcmp(argv[arg], "process") != 0) {
			fprintf(stderr, "hackbench: only 'process' mode is built in\n");
			return 2;
		}
		arg++;
	}
	if (arg < argc)
		loops = atoi(argv[arg++]);
	if (groups < 1 || loops < 1) {
		fprintf(stderr, "usage: hackbench [-pipe] [groups] [process] [loops]\n");
		return 2;
	}
	total = groups * 2 * PER_GROUP;
	signal(SIGPIPE, SIG_IGN);
	make_channel(ready);
	make_channel(wake);
	printf("Running with %d*%d (== %d) tasks.\n", groups, 2 * PER_GROUP, total);
	fflush(stdout);

	for (g = 0; g < groups; g++) {
		int rd[PER_GROUP], wr[PER_GROUP];

		for (i = 0; i < PER_GROUP; i++) {
			int fds[2];
			make_channel(fds);
			rd[i] = fds[0];
			wr[i] = fds[1];
			if (spawn() == 0) {
				close(ready[0]);
				close(wake[1]);
				for (j = 0; j < i; j++)
					close(wr[j]);
				close(wr[i]);
				receiver(rd[i], loops, ready[1], wake[0]);
			}
			close(rd[i]);
			started++;
		}
		for (i = 0; i < PER_GROUP; i++) {
			pid_t pid = spawn();
			if (pid == 0) {
				close(ready[0]);
				close(wake[1]);
				sender(wr, loops, ready[1], wake[0]);
			}
			if (nr_sender_pids < MAX_WORKERS)
				sender_pids[nr_sender_pids++] = pid;
			started++;
		}
		for (i = 0; i < PER_GROUP; i++)
			close(wr[i]);
	}

	for (i = 0; i < total; i++)
		if (read(ready[0], &c, 1) != 1)
			fail("ready read");
	if (proc) {
		copy_file("meminfo start-signal", "/proc/meminfo");
		copy_file("slabinfo start-signal", "/proc/slabinfo");
		printf("=== workers running\n");
		fflush(stdout);
		ctxt0 = read_ctxt();
	}
	gettimeofday(&t0, NULL);
	if (write(wake[1], &c, 1) != 1)
		fail("wake write");
	for (i = 0; i < started; i++) {
		int st;
		struct rusage ru;
		pid_t pid = wait4(-1, &st, 0, &ru);
		if (pid < 0)
			fail("wait");
		if (i < MAX_WORKERS) {
			reaped[i].pid = pid;
			reaped[i].nvcsw = ru.ru_nvcsw;
			reaped[i].nivcsw = ru.ru_nivcsw;
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			bad++;
		nvcsw += ru.ru_nvcsw;
		nivcsw += ru.ru_nivcsw;
	}
	gettimeofday(&t1, NULL);
	if (proc) {
		ctxt1 = read_ctxt();
		printf("=== ctxt start-signal %lld\n", ctxt0);
		printf("=== ctxt end %lld\n", ctxt1);
	}
	printf("Time: %.3f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_usec - t0.tv_usec) / 1e6);
	if (proc) {
		long long snv = 0, sniv = 0;
		printf("=== worker rusage nvcsw %lld nivcsw %lld\n", nvcsw, nivcsw);
		for (i = 0; i < started && i < MAX_WORKERS; i++)
			for (j = 0; j < nr_sender_pids; j++)
				if (sender_pids[j] == reaped[i].pid) {
					snv += reaped[i].nvcsw;
					sniv += reaped[i].nivcsw;
					break;
				}
		printf("=== rusage senders nvcsw %lld nivcsw %lld\n", snv, sniv);
		printf("=== rusage receivers nvcsw %lld nivcsw %lld\n", nvcsw - snv, nivcsw - sniv);
	}
	if (bad)
		printf("hackbench: %d of %d workers did not exit 0\n", bad, started);
	return bad ? 1 : 0;
}
