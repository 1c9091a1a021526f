/* The CPU of fs_mark 3.3's per-file steps on a real filesystem, timed one step at a time.
 *
 * fs_mark -S0 does, for each file (fs_mark.c, do_run and setup_file_name): build the name
 * (gettimeofday, the seconds in hex, then 24 characters each drawn by calling random()
 * until the low 7 bits are an upper-case letter or a digit), make sure the subdirectory
 * exists (mkdir, EEXIST after its first file), open(O_CREAT|O_RDWR|O_TRUNC) the new name,
 * write it, close it. This program does the same steps with empty files, in DIR's
 * subdirectories 00..NN round robin by FILES_PER_SUBDIR as -D/-N do, and prints the mean
 * wall time of each step in ns (clock_gettime around each call; no sync, so the steps do
 * not wait for I/O). The user and system CPU of the whole loop (getrusage) are printed too,
 * to show the steps ran on the CPU, and the null system call (getppid, the minimum over five
 * rounds of 100,000, as lmbench's lat_syscall), which a step's entry and exit cost here and
 * which the profiles price apart. tools/measure/fsmark_costs.sh runs it on XFS.
 *
 *   cc -O2 -o /tmp/fsmark_costs tools/measure/fsmark_costs.c
 *   /tmp/fsmark_costs DIR [FILES] [SUBDIRS] [FILES_PER_SUBDIR]
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define RAND_CHARS 24

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static double cpu_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* The name: the time in seconds as hex, then RAND_CHARS drawn characters. */
static void make_name(char *out, size_t len, long *draws)
{
	struct timeval tv;
	char tail[RAND_CHARS + 1];
	gettimeofday(&tv, NULL);
	for (int j = 0; j < RAND_CHARS; j++) {
		char c;
		do {
			c = (char)('0' + (random() & 0x7f));
			(*draws)++;
		} while (!(isupper((unsigned char)c) || isdigit((unsigned char)c)));
		tail[j] = c;
	}
	tail[RAND_CHARS] = 0;
	snprintf(out, len, "%lx%s", (unsigned long)tv.tv_sec, tail);
}

static double null_syscall_ns(void)
{
	double best = 1e30;
	for (int r = 0; r < 5; r++) {
		long long t0 = now_ns();
		for (int i = 0; i < 100000; i++)
			syscall(SYS_getppid);
		double t = (double)(now_ns() - t0) / 100000;
		if (t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR [FILES] [SUBDIRS] [FILES_PER_SUBDIR]\n", argv[0]);
		return 2;
	}
	const char *dir = argv[1];
	long files = argc > 2 ? atol(argv[2]) : 15000;
	int subdirs = argc > 3 ? atoi(argv[3]) : 100;
	int per_subdir = argc > 4 ? atoi(argv[4]) : 150;
	if (files <= 0 || subdirs <= 0 || per_subdir <= 0) {
		fprintf(stderr, "FILES, SUBDIRS and FILES_PER_SUBDIR must be positive\n");
		return 2;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		perror(dir);
		return 1;
	}
	long long t_name = 0, t_mkdir = 0, t_open = 0, t_close = 0;
	long draws = 0;
	int subdir = 0, in_subdir = 0;
	char name[64], sub[4096], path[4200];
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	long long loop0 = now_ns();
	for (long n = 0; n < files; n++) {
		long long t0 = now_ns();
		make_name(name, sizeof(name), &draws);
		long long t1 = now_ns();
		snprintf(sub, sizeof(sub), "%s/%02d", dir, subdir);
		if (mkdir(sub, 0755) && errno != EEXIST) {
			perror(sub);
			return 1;
		}
		long long t2 = now_ns();
		snprintf(path, sizeof(path), "%s/%s", sub, name);
		int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0666);
		if (fd < 0) {
			perror(path);
			return 1;
		}
		long long t3 = now_ns();
		close(fd);
		long long t4 = now_ns();
		t_name += t1 - t0;
		t_mkdir += t2 - t1;
		t_open += t3 - t2;
		t_close += t4 - t3;
		if (++in_subdir >= per_subdir) {
			in_subdir = 0;
			subdir = (subdir + 1) % subdirs;
		}
	}
	long long loop = now_ns() - loop0;
	getrusage(RUSAGE_SELF, &r1);
	double user = cpu_s(r1.ru_utime) - cpu_s(r0.ru_utime);
	double sys = cpu_s(r1.ru_stime) - cpu_s(r0.ru_stime);
	printf("files %ld subdirs %d per_subdir %d\n", files, subdirs, per_subdir);
	printf("name_ns %.0f random_calls_per_name %.1f\n", (double)t_name / files,
	       (double)draws / files);
	printf("mkdir_eexist_ns %.0f\n", (double)t_mkdir / files);
	printf("create_ns %.0f\n", (double)t_open / files);
	printf("close_ns %.0f\n", (double)t_close / files);
	printf("null_syscall_ns %.0f\n", null_syscall_ns());
	printf(
	    "loop_ns_per_file %.0f user_ns_per_file %.0f sys_ns_per_file %.0f cpu_of_wall %.3f\n",
	    (double)loop / files, user * 1e9 / files, sys * 1e9 / files,
	    (user + sys) * 1e9 / (double)loop);
	return 0;
}
