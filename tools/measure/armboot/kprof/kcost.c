/*
 * kcost: the guest side of the kernel-path instruction counts (kprof.c).
 * Each phase runs between two marker instructions, so kprof's dump after the
 * second holds the instructions of the phase alone; /proc/vmstat is printed
 * before and after it (outside the markers) for the events to divide by.
 *
 * Phases, in order (docs/armboot-measured.md, "The kernel's paths, counted"):
 *   tick         a user loop of 2 instructions an iteration, no system call:
 *                every kernel instruction in it is the timer tick's
 *   null_io      5,000 one-byte read()s of /dev/zero and 5,000 one-byte
 *                write()s to /dev/null: lmbench's "null I/O"
 *   fault_anon   first write to each page of a 4 MiB anonymous mapping
 *   unmap_anon   munmap of those 1,024 pages
 *   fault_file   first read of each page of /small (4 MiB, read() into the
 *                page cache beforehand) mapped shared: lmbench's
 *                lat_pagefault, a fault on a cached file page
 *   read_file    read() of /data (48 MiB, more than the RAM) in 64 KiB
 *                calls: page-cache reads that reclaim clean unmapped pages
 *   mapped_file  3 children map /data's first 8 MiB shared and keep reading
 *                every page while the parent reads the file again: reclaim
 *                meets pages mapped three times (page_referenced per PTE)
 *   swap_out     with /swapfile on, write each page of 40 MiB of anonymous
 *                memory: anonymous reclaim to swap
 *   swap_in      read every page of those 40 MiB again: swap-ins
 *   fork_exit    20 x (fork, the child's _exit(0), waitpid): lmbench's lat_proc fork
 *   fork_4m      the same with 4 MiB of touched anonymous memory mapped: the difference
 *                over 20 x 1,024 PTEs is fork's copy and the child's zap of one PTE
 *
 * Usage (in the guest): kcost [PHASE...]   (default: all but the fork phases, in order)
 * Build: arm-linux-gnueabi-gcc -O2 -static -marm -o kcost kcost.c
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE   4096
#define MARK() __asm__ volatile("orr ip, ip, ip" ::: "memory")

static char buf[65536];

static void vmstat(const char *phase, const char *when)
{
	int fd = open("/proc/vmstat", O_RDONLY);
	if (fd < 0) {
		perror("/proc/vmstat");
		exit(1);
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = 0;
	printf("=== kcost vmstat %s %s\n%s", phase, when, buf);
	fflush(stdout);
}

static void loop(unsigned long n)
{
	__asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n) : : "cc");
}

static void read_all(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static char *anon;
static volatile const char *fmap;
static const size_t anon_small = 4 << 20, anon_big = 40 << 20;

static void phase(const char *name)
{
	pid_t kids[3];
	int nkids = 0;

	/* set-up outside the markers */
	if (!strcmp(name, "unmap_anon") && !anon) {
		fprintf(stderr, "kcost: unmap_anon needs fault_anon first\n");
		exit(1);
	}
	if (!strcmp(name, "swap_out")) {
		if (syscall(SYS_swapon, "/swapfile", 0) != 0) {
			perror("swapon /swapfile");
			exit(1);
		}
	}
	if (!strcmp(name, "swap_in") && !anon) {
		fprintf(stderr, "kcost: swap_in needs swap_out first\n");
		exit(1);
	}
	if (!strcmp(name, "mapped_file")) {
		for (int k = 0; k < 3; k++) {
			pid_t pid = fork();
			if (pid < 0) {
				perror("fork");
				exit(1);
			}
			if (!pid) {
				int fd = open("/data", O_RDONLY);
				volatile const char *m =
				    mmap(NULL, 8 << 20, PROT_READ, MAP_SHARED, fd, 0);
				if (m == MAP_FAILED)
					_exit(1);
				for (;;)
					for (size_t o = 0; o < (8 << 20); o += PAGE)
						(void)m[o];
			}
			kids[nkids++] = pid;
		}
		sleep(2); /* the children map and read every page once */
	}
	char *fork_region = NULL;
	if (!strcmp(name, "fork_4m")) {
		fork_region = mmap(NULL, anon_small, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (fork_region == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		for (size_t o = 0; o < anon_small; o += PAGE)
			fork_region[o] = 1;
	}
	if (!strcmp(name, "fault_file")) {
		read_all("/small");
		int fd = open("/small", O_RDONLY);
		fmap = mmap(NULL, anon_small, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (fmap == MAP_FAILED) {
			perror("mmap /small");
			exit(1);
		}
	}
	int zero = -1, null = -1;
	if (!strcmp(name, "null_io")) {
		zero = open("/dev/zero", O_RDONLY);
		null = open("/dev/null", O_WRONLY);
		if (zero < 0 || null < 0) {
			perror("/dev/zero, /dev/null");
			exit(1);
		}
	}
	vmstat(name, "before");
	MARK();
	if (!strcmp(name, "tick")) {
		loop(100000000ul);
	} else if (!strcmp(name, "null_io")) {
		for (int k = 0; k < 5000; k++) {
			if (read(zero, buf, 1) != 1 || write(null, buf, 1) != 1)
				break;
		}
	} else if (!strcmp(name, "fault_anon")) {
		anon = mmap(NULL, anon_small, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
		for (size_t o = 0; anon != MAP_FAILED && o < anon_small; o += PAGE)
			anon[o] = 1;
	} else if (!strcmp(name, "unmap_anon")) {
		munmap(anon, anon_small);
		anon = NULL;
	} else if (!strcmp(name, "fault_file")) {
		for (size_t o = 0; o < anon_small; o += PAGE)
			(void)fmap[o];
	} else if (!strcmp(name, "read_file") || !strcmp(name, "mapped_file")) {
		read_all("/data");
	} else if (!strcmp(name, "swap_out")) {
		anon = mmap(NULL, anon_big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			    0);
		for (size_t o = 0; anon != MAP_FAILED && o < anon_big; o += PAGE)
			anon[o] = 1;
	} else if (!strcmp(name, "swap_in")) {
		volatile char sum = 0;
		for (size_t o = 0; o < anon_big; o += PAGE)
			sum += anon[o];
	} else if (!strcmp(name, "fork_exit") || !strcmp(name, "fork_4m")) {
		for (int k = 0; k < 20; k++) {
			pid_t pid = fork();
			if (!pid)
				_exit(0);
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
	} else {
		fprintf(stderr, "kcost: unknown phase '%s'\n", name);
		exit(2);
	}
	MARK();
	vmstat(name, "after");
	if (zero >= 0) {
		close(zero);
		close(null);
	}
	if (fmap) {
		munmap((void *)fmap, anon_small);
		fmap = NULL;
	}
	if (fork_region)
		munmap(fork_region, anon_small);
	for (int k = 0; k < nkids; k++) {
		kill(kids[k], SIGKILL);
		waitpid(kids[k], NULL, 0);
	}
	if (anon == MAP_FAILED) {
		fprintf(stderr, "kcost: mmap failed in %s\n", name);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const char *all[] = {"tick",	   "null_io",	 "fault_anon",
				    "unmap_anon",  "fault_file", "read_file",
				    "mapped_file", "swap_out",	 "swap_in"};
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		for (int i = 1; i < argc; i++)
			phase(argv[i]);
	else
		for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
			phase(all[i]);
	printf("=== kcost done\n");
	return 0;
}
