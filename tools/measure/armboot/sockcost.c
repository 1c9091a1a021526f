/*
 * sockcost: the CPU cost of one 100-byte message over an AF_UNIX SOCK_STREAM
 * socketpair, split between the sending write() and the receiving read(),
 * on the armboot guest (v2.6.25-rc1, ARM926EJ-S under QEMU; with
 * run.sh's ICOUNT=N every guest instruction is 2^N ns of guest time, so
 * ns / 2^N is guest instructions).  Built static and run by
 * guest/measure.sh in MODE sockcost.
 *
 * Loop cases (each REPS times, every repeat printed; gettimeofday around the
 * loop; ns per call = loop time / calls; includes the loop's and the libc
 * wrapper's user-mode instructions and any timer tick that falls inside):
 *   tod        NBIG x gettimeofday()
 *   null       N x getppid() and NBIG x getppid() (system call entry/exit)
 *   write      N x write(s[1], msg, 100) into a fresh socketpair, nobody
 *              reading (the peer end is ours and not waiting: no wakeup)
 *   read       then N x read(s[0], buf, 100): one skb each, no writer waiting
 *   pair       N x (write 100; read 100) on a fresh socketpair: the queue
 *              never holds more than one message (ns per write+read pair)
 *   pwrite     the same with a pipe from the pipe system call (glibc's
 *   pread      pipe() is pipe2, which 2.6.25 lacks); 100-byte writes merge
 *              into pipe pages, N x 100 bytes fill ceil(N/40) of its 16
 * Single-call cases (K iterations; each: sleep SLEEP_NS, a spin of a varying
 * length so the 1 us clock's phase varies, gettimeofday, the call,
 * gettimeofday; mean of the K differences; 'net' = mean minus the mean of
 * the empty pair 'tod2'):
 *   tod2       nothing between the two gettimeofday calls
 *   null1      one getppid()
 *   write1     one write of 100 bytes to a socket whose reader is not
 *              sleeping (one message already queued; read back untimed)
 *   read1      one read of 100 bytes from that socket (writer not waiting)
 *   wake:POL   one write of 100 bytes to a socket a forked child is blocked
 *              in read() on (it has been asleep for SLEEP_NS).  The child
 *              then replies on a second socketpair with its own
 *              gettimeofday taken right after its read returned; the parent
 *              reads that (untimed) and sleeps again, so the child is back
 *              in read() before the next timed write.  POL is the child's
 *              scheduling: nice0 (as forked), nice19 (setpriority), batch
 *              (SCHED_BATCH: 2.6.25's check_preempt_wakeup returns at once
 *              for a SCHED_BATCH wakee, so it never preempts the writer).
 *              An iteration counts as 'preempted' when the parent's
 *              ru_nivcsw (getrusage, outside the timed window) went up
 *              across it, i.e. the woken child ran before the parent's
 *              second gettimeofday; those are reported apart.
 *   wakeall:C  C forked SCHED_BATCH children, each blocked in read() on its
 *              own socketpair; one timed loop of C writes, one to each (each
 *              wakes one sleeper); vs nowakeall:C, C writes to C sockets
 *              nobody sleeps on.  REPS repeats; nivcsw checked likewise.
 * Output: lines '=== sockcost CASE ns_per_call X ...' (one per repeat, with
 * the raw totals) and '=== sockcost-summary CASE ...'.  All output is kept
 * in memory and written at the end, so no console output (and its serial
 * interrupts) overlaps a timed window.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG	 100
#define N	 300  /* messages per loop */
#define NBIG	 3000 /* calls per loop for the cheap calls */
#define REPS	 5
#define K	 200 /* iterations of a single-call case */
#define SLEEP_NS 2000000L
#define NCHILD	 50 /* sleepers in wakeall */

static char out[65536];
static size_t outlen;

static void say(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out + outlen, sizeof out - outlen, fmt, ap);
	va_end(ap);
	if (n > 0)
		outlen += (size_t)n < sizeof out - outlen ? (size_t)n : sizeof out - outlen - 1;
}

static void flush_out(void)
{
	size_t done = 0;
	while (done < outlen) {
		ssize_t n = write(1, out + done, outlen - done);
		if (n <= 0)
			break;
		done += n;
	}
	outlen = 0;
}

static void die(const char *what)
{
	say("sockcost: %s: %s\n", what, strerror(errno));
	flush_out();
	exit(1);
}

static long long usec(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static long nivcsw(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_nivcsw;
}

static void nap(long ns)
{
	struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static volatile unsigned spin_sink;
static void spin(unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		spin_sink += i;
}

static void xwrite(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) != (ssize_t)n)
		die("write");
}

static void xread(int fd, void *p, size_t n)
{
	size_t done = 0;
	while (done < n) {
		ssize_t r = read(fd, (char *)p + done, n - done);
		if (r <= 0)
			die("read");
		done += r;
	}
}

static char msg[MSG], buf[4096];

/* Summary of REPS loop results (ns per call). */
static void summary(const char *name, const double *v, int n)
{
	double mn = v[0], mx = v[0], s = 0;
	int i;
	for (i = 0; i < n; i++) {
		if (v[i] < mn)
			mn = v[i];
		if (v[i] > mx)
			mx = v[i];
		s += v[i];
	}
	say("=== sockcost-summary %s min %.1f mean %.1f max %.1f reps %d\n", name, mn, s / n, mx,
	    n);
}

static void report(const char *name, int rep, int calls, long long us)
{
	say("=== sockcost %s ns_per_call %.1f rep %d calls %d total_us %lld\n", name,
	    us * 1000.0 / calls, rep, calls, us);
}

static void resolution(void)
{
	long long a, b, mind = -1;
	int changes = 0, i;

	a = usec();
	for (i = 0; i < 200000 && changes < 1000; i++) {
		b = usec();
		if (b != a) {
			if (mind < 0 || b - a < mind)
				mind = b - a;
			changes++;
			a = b;
		}
	}
	say("=== sockcost gettimeofday smallest_step_us %lld changes %d calls %d\n", mind, changes,
	    i);
}

static void capacity(void)
{
	int s[2], sndbuf = 0, rcvbuf = 0, n = 0;
	socklen_t l = sizeof sndbuf;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) < 0)
		die("socketpair");
	getsockopt(s[1], SOL_SOCKET, SO_SNDBUF, &sndbuf, &l);
	l = sizeof rcvbuf;
	getsockopt(s[0], SOL_SOCKET, SO_RCVBUF, &rcvbuf, &l);
	while (n < 5000 && send(s[1], msg, MSG, MSG_DONTWAIT) == MSG)
		n++;
	say("=== sockcost capacity sndbuf %d rcvbuf %d messages_before_eagain %d (N %d)\n", sndbuf,
	    rcvbuf, n, N);
	close(s[0]);
	close(s[1]);
	if (n <= N)
		say("sockcost: WARNING: N %d writes would block\n", N);
}

/* N writes of MSG bytes into fd[1], each loop timed after a nap, then the N reads that
 * drain them from fd[0]: the ns per call of each into vw[rep] and vr[rep]. */
static void fill_drain(const int fd[2], const char *wname, const char *rname, int rep, double *vw,
		       double *vr)
{
	long long t0, t1;
	int i;

	nap(SLEEP_NS);
	t0 = usec();
	for (i = 0; i < N; i++)
		if (write(fd[1], msg, MSG) != MSG)
			die(wname);
	t1 = usec();
	report(wname, rep, N, t1 - t0);
	vw[rep] = (t1 - t0) * 1000.0 / N;
	nap(SLEEP_NS);
	t0 = usec();
	for (i = 0; i < N; i++)
		if (read(fd[0], buf, MSG) != MSG)
			die(rname);
	t1 = usec();
	report(rname, rep, N, t1 - t0);
	vr[rep] = (t1 - t0) * 1000.0 / N;
}

static void loops(void)
{
	double vtod[REPS], vnull[REPS], vnullb[REPS], vw[REPS], vr[REPS], vp[REPS], vpw[REPS],
	    vpr[REPS];
	int rep, i, s[2];
	long long t0, t1;

	for (rep = 0; rep < REPS; rep++) {
		nap(SLEEP_NS);
		t0 = usec();
		for (i = 0; i < NBIG; i++)
			usec();
		t1 = usec();
		report("tod", rep, NBIG, t1 - t0);
		vtod[rep] = (t1 - t0) * 1000.0 / NBIG;

		nap(SLEEP_NS);
		t0 = usec();
		for (i = 0; i < N; i++)
			getppid();
		t1 = usec();
		report("null", rep, N, t1 - t0);
		vnull[rep] = (t1 - t0) * 1000.0 / N;

		nap(SLEEP_NS);
		t0 = usec();
		for (i = 0; i < NBIG; i++)
			getppid();
		t1 = usec();
		report("null3000", rep, NBIG, t1 - t0);
		vnullb[rep] = (t1 - t0) * 1000.0 / NBIG;

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) < 0)
			die("socketpair");
		fill_drain(s, "write", "read", rep, vw, vr);
		close(s[0]);
		close(s[1]);

		/* steady state: N x (write; read), queue empty between pairs */
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) < 0)
			die("socketpair");
		nap(SLEEP_NS);
		t0 = usec();
		for (i = 0; i < N; i++) {
			if (write(s[1], msg, MSG) != MSG)
				die("pair write");
			if (read(s[0], buf, MSG) != MSG)
				die("pair read");
		}
		t1 = usec();
		report("pair", rep, N, t1 - t0);
		vp[rep] = (t1 - t0) * 1000.0 / N;
		close(s[0]);
		close(s[1]);

		if (syscall(SYS_pipe, s) < 0)
			die("pipe");
		fill_drain(s, "pwrite", "pread", rep, vpw, vpr);
		close(s[0]);
		close(s[1]);
	}
	summary("tod", vtod, REPS);
	summary("null", vnull, REPS);
	summary("null3000", vnullb, REPS);
	summary("write", vw, REPS);
	summary("read", vr, REPS);
	summary("pair", vp, REPS);
	summary("pwrite", vpw, REPS);
	summary("pread", vpr, REPS);
}

/* One single-call case: mean over K of (t1 - t0) in ns. */
static double single_report(const char *name, long long sum_us, int k, double base)
{
	double mean = sum_us * 1000.0 / k;
	say("=== sockcost %s ns_per_call %.1f net_ns %.1f iterations %d total_us %lld\n", name,
	    mean, mean - base, k, sum_us);
	return mean;
}

static double tod2_mean;

static void singles(void)
{
	long long t0, t1, sum;
	int i, s[2];

	sum = 0;
	for (i = 0; i < K; i++) {
		nap(SLEEP_NS);
		spin((i * 37) % 128);
		t0 = usec();
		t1 = usec();
		sum += t1 - t0;
	}
	tod2_mean = single_report("tod2", sum, K, 0);

	sum = 0;
	for (i = 0; i < K; i++) {
		nap(SLEEP_NS);
		spin((i * 37) % 128);
		t0 = usec();
		getppid();
		t1 = usec();
		sum += t1 - t0;
	}
	single_report("null1", sum, K, tod2_mean);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) < 0)
		die("socketpair");
	xwrite(s[1], msg, MSG); /* one message stays queued */
	{
		long long sw = 0, sr = 0;
		for (i = 0; i < K; i++) {
			nap(SLEEP_NS);
			spin((i * 37) % 128);
			t0 = usec();
			if (write(s[1], msg, MSG) != MSG)
				die("write1");
			t1 = usec();
			sw += t1 - t0;
			spin((i * 53) % 128);
			t0 = usec();
			if (read(s[0], buf, MSG) != MSG)
				die("read1");
			t1 = usec();
			sr += t1 - t0;
		}
		single_report("write1", sw, K, tod2_mean);
		single_report("read1", sr, K, tod2_mean);
	}
	close(s[0]);
	close(s[1]);
}

enum pol { NICE0, NICE19, BATCH };
static const char *polname[] = {"nice0", "nice19", "batch"};

static void set_pol(enum pol p)
{
	if (p == NICE19 && setpriority(PRIO_PROCESS, 0, 19) < 0)
		die("setpriority");
	if (p == BATCH) {
		struct sched_param sp = {0};
		if (sched_setscheduler(0, SCHED_BATCH, &sp) < 0)
			die("sched_setscheduler");
	}
}

static void wake_single(enum pol p)
{
	int a[2], b[2], i, st, npre = 0, childfirst = 0;
	long long t0, t1, sum_np = 0, sum_p = 0;
	pid_t pid;
	char name[64];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, a) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, b) < 0)
		die("socketpair");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(a[0]);
		close(b[0]);
		set_pol(p);
		{
			long long t = usec();
			xwrite(b[1], &t, sizeof t); /* started */
		}
		for (;;) {
			long long tc;
			ssize_t r = read(a[1], buf, MSG);
			tc = usec();
			if (r <= 0)
				_exit(r < 0);
			xwrite(b[1], &tc, sizeof tc);
		}
	}
	close(a[1]);
	close(b[1]);
	{
		long long t;
		xread(b[0], &t, sizeof t);
	}
	nap(SLEEP_NS);
	for (i = 0; i < K; i++) {
		long v0, v1, tc;
		nap(SLEEP_NS);
		spin((i * 37) % 128);
		v0 = nivcsw();
		t0 = usec();
		if (write(a[0], msg, MSG) != MSG)
			die("wake write");
		t1 = usec();
		v1 = nivcsw();
		{
			long long tcl;
			xread(b[0], &tcl, sizeof tcl);
			tc = tcl <= t1;
			if (tc)
				childfirst++;
		}
		if (v1 != v0) {
			npre++;
			sum_p += t1 - t0;
		} else {
			sum_np += t1 - t0;
		}
	}
	close(a[0]);
	close(b[0]);
	waitpid(pid, &st, 0);
	snprintf(name, sizeof name, "wake:%s", polname[p]);
	say("=== sockcost %s iterations %d preempted %d child_time_le_t1 %d\n", name, K, npre,
	    childfirst);
	if (K - npre > 0) {
		snprintf(name, sizeof name, "wake:%s:notpreempted", polname[p]);
		single_report(name, sum_np, K - npre, tod2_mean);
	}
	if (npre > 0) {
		snprintf(name, sizeof name, "wake:%s:preempted", polname[p]);
		single_report(name, sum_p, npre, tod2_mean);
	}
}

static void wake_all(void)
{
	int a[NCHILD][2], r[2], i, j, rep, st;
	pid_t pid[NCHILD];
	double vw[REPS], vn[REPS];
	long long t0, t1;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, r) < 0)
		die("socketpair");
	for (i = 0; i < NCHILD; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, a[i]) < 0)
			die("socketpair");
		pid[i] = fork();
		if (pid[i] < 0)
			die("fork");
		if (pid[i] == 0) {
			char c = 'r';
			for (j = 0; j <= i; j++)
				close(a[j][0]);
			close(r[0]);
			set_pol(BATCH);
			xwrite(r[1], &c, 1); /* started */
			for (;;) {
				ssize_t n = read(a[i][1], buf, MSG);
				if (n <= 0)
					_exit(n < 0);
				xwrite(r[1], &c, 1);
			}
		}
		close(a[i][1]);
	}
	close(r[1]);
	for (i = 0; i < NCHILD; i++)
		xread(r[0], buf, 1);
	for (rep = 0; rep < REPS; rep++) {
		long v0, v1;
		int s[NCHILD][2];

		/* every child blocked in read() */
		nap(SLEEP_NS);
		v0 = nivcsw();
		t0 = usec();
		for (i = 0; i < NCHILD; i++)
			if (write(a[i][0], msg, MSG) != MSG)
				die("wakeall write");
		t1 = usec();
		v1 = nivcsw();
		say("=== sockcost wakeall:%d ns_per_call %.1f rep %d calls %d total_us %lld "
		    "preempted %ld\n",
		    NCHILD, (t1 - t0) * 1000.0 / NCHILD, rep, NCHILD, t1 - t0, v1 - v0);
		vw[rep] = (t1 - t0) * 1000.0 / NCHILD;
		for (i = 0; i < NCHILD; i++)
			xread(r[0], buf, 1);

		/* the same writes to sockets nobody sleeps on */
		for (i = 0; i < NCHILD; i++)
			if (socketpair(AF_UNIX, SOCK_STREAM, 0, s[i]) < 0)
				die("socketpair");
		nap(SLEEP_NS);
		v0 = nivcsw();
		t0 = usec();
		for (i = 0; i < NCHILD; i++)
			if (write(s[i][1], msg, MSG) != MSG)
				die("nowakeall write");
		t1 = usec();
		v1 = nivcsw();
		say("=== sockcost nowakeall:%d ns_per_call %.1f rep %d calls %d total_us %lld "
		    "preempted %ld\n",
		    NCHILD, (t1 - t0) * 1000.0 / NCHILD, rep, NCHILD, t1 - t0, v1 - v0);
		vn[rep] = (t1 - t0) * 1000.0 / NCHILD;
		for (i = 0; i < NCHILD; i++) {
			close(s[i][0]);
			close(s[i][1]);
		}
	}
	for (i = 0; i < NCHILD; i++)
		close(a[i][0]);
	for (i = 0; i < NCHILD; i++)
		waitpid(pid[i], &st, 0);
	close(r[0]);
	summary("wakeall", vw, REPS);
	summary("nowakeall", vn, REPS);
}

int main(void)
{
	memset(msg, 'm', sizeof msg);
	/* let the console output before us drain */
	nap(1000000000L);
	resolution();
	capacity();
	loops();
	singles();
	wake_single(NICE0);
	wake_single(NICE19);
	wake_single(BATCH);
	wake_all();
	say("=== sockcost done\n");
	flush_out();
	return 0;
}
