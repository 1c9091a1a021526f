/* mmsim calibrate: the host's own costs of the kernel operations the hardware profiles price,
 * measured with small microbenchmarks in the manner of lmbench (McVoy and Staelin, "lmbench:
 * Portable tools for performance analysis", USENIX 1996): a null system call, a pipe round
 * trip between two processes on one CPU (two context switches) and the same over AF_UNIX
 * sockets (lat_unix: the socket's cost per message over the pipe's), a minor fault on fresh
 * anonymous memory, clearing and copying a page, fork+exit+wait, and a touch of a present page.
 *
 * Where no figure of a profile's own era hardware can be found (docs/hardware.md), these are
 * the measured fallback: the figures of this host, and each scaled to a profile by the ratio
 * of clock rates — a stated rule, not a fit, and a crude one (it ignores memory latency and
 * bandwidth, cache sizes and the kernel version), which is why the output says "scaled".
 * Nothing here changes a run: the output is `hw.<cost> = ns` lines a user can pass as
 * `--set` overrides. Every figure is the minimum over several repetitions, as lmbench
 * reports, so that other load on the host inflates it as little as possible. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity */
#endif
#include "cli/commands.h"
#include "hw/profile.h"

#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HOST_PAGE 4096

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The compiler must not drop work whose result nobody reads. */
static volatile uint64_t sink;

static double bench_syscall(unsigned n)
{
	double t0 = now_ns();
	for (unsigned i = 0; i < n; i++)
		sink += (uint64_t)syscall(SYS_getppid);
	return (now_ns() - t0) / n;
}

static void pin_to_cpu0(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* One round trip of a byte between two processes pinned to one CPU, over two pipes or (unix)
 * two AF_UNIX stream socket pairs: two context switches, four system calls. */
static double roundtrip_ns(unsigned n, int unix)
{
	int ab[2], ba[2];
	if (unix
		? socketpair(AF_UNIX, SOCK_STREAM, 0, ab) || socketpair(AF_UNIX, SOCK_STREAM, 0, ba)
		: pipe(ab) || pipe(ba))
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	char c = 0;
	if (pid == 0) {
		pin_to_cpu0();
		for (unsigned i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	cpu_set_t old;
	sched_getaffinity(0, sizeof(old), &old);
	pin_to_cpu0();
	double t0 = now_ns();
	for (unsigned i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
	double per_trip = (now_ns() - t0) / n;
	sched_setaffinity(0, sizeof(old), &old);
	waitpid(pid, NULL, 0);
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	return per_trip;
}

/* Half a pipe round trip less the two system calls each half makes: one context switch
 * (lat_ctx's size-0 figure, measured the same way). */
static double bench_ctxsw(double trip_ns, double syscall_ns)
{
	double cs = trip_ns / 2 - 2 * syscall_ns;
	return cs > 0 ? cs : trip_ns / 2;
}

static double bench_zero(unsigned n, char *buf)
{
	double t0 = now_ns();
	for (unsigned i = 0; i < n; i++) {
		memset(buf, (int)i, HOST_PAGE);
		__asm__ __volatile__("" : : "r"(buf) : "memory");
	}
	return (now_ns() - t0) / n;
}

static double bench_copy(unsigned n, char *dst, const char *src)
{
	double t0 = now_ns();
	for (unsigned i = 0; i < n; i++) {
		memcpy(dst, src, HOST_PAGE);
		__asm__ __volatile__("" : : "r"(dst) : "memory");
	}
	return (now_ns() - t0) / n;
}

/* A write to each page of fresh anonymous memory: fault entry and exit, the vma lookup, a
 * page allocated, zeroed and mapped. The zeroing is measured apart and taken off. */
static double bench_fault(unsigned pages, double zero_ns)
{
	size_t len = (size_t)pages * HOST_PAGE;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	double t0 = now_ns();
	for (unsigned i = 0; i < pages; i++)
		p[(size_t)i * HOST_PAGE] = 1;
	double per = (now_ns() - t0) / pages;
	munmap(p, len);
	return per > zero_ns ? per - zero_ns : per;
}

/* lmbench's L1 $ latency (lat_mem_rd below the first cache's size): a chain of dependent
 * loads through 8 KiB, one cache line apart in a scrambled order, so every load waits for the
 * one before it and hits the first-level cache, the profiles' touch_ns. */
static double bench_touch(unsigned loads)
{
	enum { LINES = 8192 / 64 };
	static void *chain[LINES * 8]; /* 64-byte lines of eight pointers */
	unsigned order[LINES];
	for (unsigned i = 0; i < LINES; i++)
		order[i] = (i * 37) % LINES; /* 37 is prime to 128: a permutation */
	for (unsigned i = 0; i < LINES; i++)
		chain[order[i] * 8] = &chain[order[(i + 1) % LINES] * 8];
	void **p = &chain[order[0] * 8];
	for (unsigned i = 0; i < LINES; i++) /* warm */
		p = (void **)*p;
	double t0 = now_ns();
	for (unsigned i = 0; i < loads; i++)
		p = (void **)*p;
	double per = (now_ns() - t0) / loads;
	sink += (uintptr_t)p;
	return per;
}

/* fork, the child exits at once, the parent waits: lat_proc's "fork+exit". */
static double bench_fork(unsigned n)
{
	double t0 = now_ns();
	for (unsigned i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	return (now_ns() - t0) / n;
}

static double minimum(double (*fn)(unsigned), unsigned n, int reps)
{
	double best = -1;
	for (int r = 0; r < reps; r++) {
		double v = fn(n);
		if (v >= 0 && (best < 0 || v < best))
			best = v;
	}
	return best;
}

/* The host's clock in MHz: cpufreq's maximum, else /proc/cpuinfo's "cpu MHz"; 0 unknown. */
static unsigned host_mhz(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
	unsigned long khz = 0;
	if (f) {
		if (fscanf(f, "%lu", &khz) != 1)
			khz = 0;
		fclose(f);
		if (khz)
			return (unsigned)(khz / 1000);
	}
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	char line[256];
	double mhz = 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "cpu MHz", 7)) {
			const char *colon = strchr(line, ':');
			if (colon)
				mhz = atof(colon + 1);
			break;
		}
	fclose(f);
	return (unsigned)(mhz + 0.5);
}

struct measured {
	const char *key;
	double ns;
	const char *what;
};

#define KPATH_WHAT "KPATH: its v2.6.25-rc1 instructions at the socket message's price of one"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: mmsim calibrate [--quick] [--profile NAME]\n\n"
		"Measures this host's cost of the kernel operations the hardware profiles\n"
		"price (null syscall, context switch, AF_UNIX message, minor fault, page zero\n"
		"and copy, fork, "
		"a touch of a present page) and prints them as hw.<cost> = ns lines, usable\n"
		"as --set overrides. With --profile, each is also scaled to that profile by\n"
		"the ratio of clock rates (a crude rule: see docs/hardware.md).\n\n"
		"  --quick          fewer repetitions (a second or so; noisier)\n"
		"  --profile NAME   also print the clock-scaled figures for profile NAME\n");
}

int cmd_calibrate(int argc, char **argv)
{
	int quick = 0;
	const char *pname = NULL;
	static const struct option lo[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"quick", no_argument, NULL, 'q'},
	    {"profile", required_argument, NULL, 'p'},
	    {NULL, 0, NULL, 0},
	};
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'q':
			quick = 1;
			break;
		case 'p':
			pname = optarg;
			break;
		default:
			fprintf(stderr, "mmsim calibrate: unknown or incomplete option '%s'\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "mmsim calibrate: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	const struct hw_profile *hp = NULL;
	if (pname && !(hp = hw_profile_find(pname))) {
		fprintf(stderr, "mmsim calibrate: --profile: no profile '%s'\n", pname);
		return 2;
	}
	int reps = quick ? 2 : 5;
	unsigned k = quick ? 1 : 4;
	static char a[HOST_PAGE] __attribute__((aligned(HOST_PAGE)));
	static char b[HOST_PAGE] __attribute__((aligned(HOST_PAGE)));
	memset(a, 1, HOST_PAGE);
	memset(b, 2, HOST_PAGE);
	double sys = minimum(bench_syscall, 200000 * k, reps);
	double zero = -1, copy = -1, pipe_trip = -1, unix_trip = -1, fault = -1;
	for (int r = 0; r < reps; r++) {
		double z = bench_zero(20000 * k, a), cp = bench_copy(20000 * k, b, a);
		double pt = roundtrip_ns(5000 * k, 0), ut = roundtrip_ns(5000 * k, 1), f = -1;
		zero = zero < 0 || z < zero ? z : zero;
		copy = copy < 0 || cp < copy ? cp : copy;
		if (pt >= 0 && (pipe_trip < 0 || pt < pipe_trip))
			pipe_trip = pt;
		if (ut >= 0 && (unix_trip < 0 || ut < unix_trip))
			unix_trip = ut;
		f = bench_fault(8192 * k, zero);
		if (f >= 0 && (fault < 0 || f < fault))
			fault = f;
	}
	double ctx = pipe_trip < 0 ? -1 : bench_ctxsw(pipe_trip, sys);
	/* the profiles' rule (src/hw/profiles.c, SOCK_SPLIT): lat_unix less lat_pipe per
	 * message, split so that the whole write (the null call and a 100-byte copy included)
	 * is SOCK_WRITE_SHARE of a write and its read */
	double sock = pipe_trip < 0 || unix_trip < 0 ? -1
		      : unix_trip > pipe_trip	     ? (unix_trip - pipe_trip) / 2
						     : 0;
	double send = -1, recv = -1;
	if (sock >= 0 && sys >= 0 && copy >= 0) {
		double a = sys + copy * 100 / 4096;
		send = SOCK_WRITE_SHARE * (2 * a + sock) - a;
		send = send < 0 ? 0 : send > sock ? sock : send;
		recv = sock - send;
	}
	/* KPATH (src/hw/profiles.c): this host's price of a kernel instruction, or -1 when a
	 * part of the message could not be measured */
	double insn = sys < 0 || copy < 0 || send < 0 || recv < 0
			  ? -1
			  : kpath_ns_per_insn(sys, copy, 4096, send, recv);
#define KPATH_NS(insns) (insn < 0 ? -1 : (insns)*insn)
/* a fault path at the anonymous fault's measured price per counted instruction */
#define BY_FAULT(insns) (fault < 0 ? -1 : fault * (insns) / KPATH_ANON_FAULT_INSNS)
	struct measured m[] = {
	    {"syscall_ns", sys, "getppid(2), the null system call"},
	    {"ctxsw_ns", ctx, "half a pipe round trip on one CPU less two syscalls"},
	    {"sock_send_ns", send, "AF_UNIX round trip less pipe round trip, the write's share"},
	    {"sock_recv_ns", recv, "AF_UNIX round trip less pipe round trip, the read's share"},
	    {"anon_fault_ns", fault, "write to fresh anonymous memory, less the page clear"},
	    /* the file fault at the anonymous fault's price per counted instruction (KPATH) */
	    {"fault_ns", BY_FAULT(KPATH_FAULT_INSNS),
	     "the anonymous fault x 784 / 406 counted instructions"},
	    {"pte_fault_ns", BY_FAULT(KPATH_PTE_FAULT_INSNS),
	     "the anonymous fault x 229 / 406 counted instructions"},
	    {"swap_fault_ns", BY_FAULT(KPATH_SWAP_FAULT_INSNS),
	     "the anonymous fault x 491 / 406 counted instructions"},
	    {"swapin_ra_ns", BY_FAULT(KPATH_SWAPIN_RA_INSNS),
	     "the anonymous fault x 287 / 406 counted instructions"},
	    {"swapin_page_ns", BY_FAULT(KPATH_SWAPIN_PAGE_INSNS),
	     "the anonymous fault x 308 / 406 counted instructions"},
	    {"page_zero_ns", zero, "memset of one 4 KiB page, cache-warm"},
	    {"page_copy_ns", copy, "memcpy of one 4 KiB page, cache-warm"},
	    {"fork_ns", minimum(bench_fork, 200 * k, reps), "fork + _exit + waitpid"},
	    {"touch_ns", minimum(bench_touch, 1000000 * k, reps), "a dependent load hitting L1"},
	    /* counted instructions at that price, as every profile prices its kernel paths */
	    {"tick_ns", KPATH_NS(KPATH_TICK_INSNS), KPATH_WHAT},
	    {"page_alloc_ns", KPATH_NS(KPATH_PAGE_ALLOC_INSNS), KPATH_WHAT},
	    {"page_free_ns", KPATH_NS(KPATH_PAGE_FREE_INSNS), KPATH_WHAT},
	    {"lru_add_ns", KPATH_NS(KPATH_LRU_ADD_INSNS), KPATH_WHAT},
	    {"isolate_ns", KPATH_NS(KPATH_ISOLATE_INSNS), KPATH_WHAT},
	    {"scan_page_ns", KPATH_NS(KPATH_SCAN_PAGE_INSNS), KPATH_WHAT},
	    {"rmap_pte_ns", KPATH_NS(KPATH_RMAP_PTE_INSNS), KPATH_WHAT},
	    {"swap_alloc_ns", KPATH_NS(KPATH_SWAP_ALLOC_INSNS), KPATH_WHAT},
	    {"io_submit_ns", KPATH_NS(KPATH_IO_SUBMIT_INSNS), KPATH_WHAT},
	    {"copy_pte_ns", KPATH_NS(KPATH_COPY_PTE_INSNS), KPATH_WHAT},
	    {"zap_pte_ns", KPATH_NS(KPATH_ZAP_PTE_INSNS), KPATH_WHAT},
	};
#undef KPATH_NS
#undef BY_FAULT
	unsigned mhz = host_mhz();
	printf("# mmsim calibrate: this host's costs, minimum of %d repetitions", reps);
	if (mhz)
		printf("; clock %u MHz", mhz);
	printf("\n");
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (m[i].ns < 0) {
			printf("# hw.%s: could not be measured (%s)\n", m[i].key, m[i].what);
			continue;
		}
		printf("hw.%s = %.0f  # %s\n", m[i].key, m[i].ns < 1 ? 1.0 : m[i].ns, m[i].what);
	}
	if (hp) {
		if (!mhz || !hp->cpu_mhz) {
			printf("# no clock rate known for the host or %s: nothing scaled\n",
			       hp->name);
			return 0;
		}
		printf("# scaled to %s by the clock ratio %u/%u MHz (ignores memory speed)\n",
		       hp->name, mhz, hp->cpu_mhz);
		for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
			if (m[i].ns >= 0) {
				double v = m[i].ns * mhz / hp->cpu_mhz;
				printf("hw.%s = %.0f  # scaled\n", m[i].key, v < 1 ? 1.0 : v);
			}
	}
	return 0;
}
