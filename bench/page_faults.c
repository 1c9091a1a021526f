/* What a first touch of anonymous memory costs on this host, per 4 KiB: small pages against
 * transparent huge pages asked for with madvise (what xbig_alloc does for mmsim's large
 * arrays). Prints CPU microseconds (user + system, getrusage) and the minor faults taken.
 *
 *   page_faults [MIB]      (default 64)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>

static double cpu_us(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 + r.ru_utime.tv_usec +
	       r.ru_stime.tv_usec;
}

static long faults(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return r.ru_minflt;
}

static void touch(size_t bytes, int huge)
{
	const size_t align = (size_t)2 << 20;
	char *m =
	    mmap(NULL, bytes + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	char *p = (char *)(((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1));
	if (huge && madvise(p, bytes, MADV_HUGEPAGE))
		perror("madvise(MADV_HUGEPAGE)");
	double t0 = cpu_us();
	long f0 = faults();
	for (size_t i = 0; i < bytes; i += 4096)
		p[i] = 1;
	double us = cpu_us() - t0;
	printf("%-12s %6zu MiB: %8.0f us CPU, %7.3f us per 4 KiB, %7ld minor faults\n",
	       huge ? "huge pages" : "small pages", bytes >> 20, us, us / (double)(bytes / 4096),
	       faults() - f0);
	munmap(m, bytes + align);
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 64;
	if (!mib || mib > 65536) {
		fprintf(stderr, "usage: page_faults [MIB]   (1..65536)\n");
		return 2;
	}
	for (int i = 0; i < 3; i++) {
		touch(mib << 20, 0);
		touch(mib << 20, 1);
	}
	return 0;
}
