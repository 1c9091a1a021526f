/* User CPU per page of a usemem pass: vm-scalability's usemem writes every word of its region
 * (step = sizeof(long)), so a pass over resident memory costs the time to write a page word
 * by word. Maps a region, faults it in, then times passes of word stores (the minimum of
 * several, lmbench-style) and prints ns per page. data/measured/usemem_cpu.txt is one run.
 *
 *   cc -O2 -o /tmp/usemem_cpu tools/measure/usemem_cpu.c && /tmp/usemem_cpu [MiB] [passes]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 64;
	int passes = argc > 2 ? atoi(argv[2]) : 10;
	size_t bytes = mib << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	volatile long *p =
	    mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	size_t words = bytes / sizeof(long);
	for (size_t i = 0; i < words; i += page / sizeof(long))
		p[i] = 1; /* fault every page in first: only the user stores are timed */
	double best = 1e30;
	for (int r = 0; r < passes; r++) {
		double t0 = now();
		for (size_t i = 0; i < words; i++)
			p[i] = (long)i;
		double t = now() - t0;
		if (t < best)
			best = t;
	}
	printf("region_MiB %zu pages %zu passes %d\n", mib, bytes / page, passes);
	printf("best_pass_ns %.0f per_page_ns %.1f\n", best, best / (double)(bytes / page));
	return 0;
}
