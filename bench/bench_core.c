/* Core speed: simulated page touches per wall second and simulated seconds per wall second
 * for a usemem whose working set fits in RAM (the touch fast path), for one that swaps
 * (the reclaim paths), and for seed 001's hackbench at 20 groups (the scheduler, wait
 * queues, sockets and slab with hundreds of tasks); peak memory against the per-frame and
 * per-mapped-page budget.
 * Usage: bench_core [touches_millions]   (default 50) */
#include "workloads/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run(const char *title, struct scenario_config *cfg)
{
	struct run_result r;
	double t0 = wall();
	if (scenario_run(cfg, 1, &r, NULL) != 0 || !r.completed) {
		fprintf(stderr, "bench: %s did not complete\n", title);
		exit(1);
	}
	double dt = wall() - t0;
	double sim = (double)r.elapsed / 1e9;
	printf("%-28s %12llu touches in %7.3f s wall: %8.2f M touches/s, %10.1f simulated s per "
	       "wall s, "
	       "%llu events\n",
	       title, (unsigned long long)r.touches, dt, (double)r.touches / dt / 1e6, sim / dt,
	       (unsigned long long)r.events);
	run_result_free(&r);
}

/* scenario_set by key name: the keys here all exist */
static void set(struct scenario_config *c, const char *key, const char *value)
{
	size_t n;
	const struct param_desc *d = scenario_params(&n);
	char err[256];
	for (size_t i = 0; i < n; i++)
		if (!strcmp(d[i].name, key) && scenario_set(c, &d[i], value, err, sizeof(err)) == 0)
			return;
	fprintf(stderr, "bench: cannot set %s=%s\n", key, value);
	exit(1);
}

int main(int argc, char **argv)
{
	uint64_t millions = argc > 1 ? strtoull(argv[1], NULL, 10) : 50;
	struct scenario_config cfg;

	/* fits in RAM: 256 MiB touched cyclically on a 512 MiB machine */
	scenario_defaults(&cfg);
	cfg.ram = 512ULL << 20;
	cfg.usemem.processes = 1;
	cfg.usemem.size = 256ULL << 20;
	cfg.usemem.pattern = USEMEM_CYCLIC;
	cfg.usemem.loops = (int)(millions * 1000000 / ((256ULL << 20) / 4096));
	run("usemem in RAM (cyclic)", &cfg);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	uint64_t frames = cfg.ram / 4096, mapped = cfg.usemem.size / 4096;
	printf(
	    "peak RSS %ld KiB for %llu frames and %llu mapped pages: %.1f bytes per frame if all "
	    "charged to frames (budget 64 per frame + 16 per mapped page = %.1f)\n",
	    ru.ru_maxrss, (unsigned long long)frames, (unsigned long long)mapped,
	    (double)ru.ru_maxrss * 1024 / (double)frames,
	    (64.0 * (double)frames + 16.0 * (double)mapped) / (double)frames);

	/* random touches in RAM */
	cfg.usemem.pattern = USEMEM_RANDOM;
	cfg.usemem.loops = (int)(millions * 1000000 / 4 / ((256ULL << 20) / 4096));
	run("usemem in RAM (random)", &cfg);

	/* swapping: twice RAM */
	scenario_defaults(&cfg);
	cfg.ram = 128ULL << 20;
	cfg.swap = 512ULL << 20;
	cfg.cpus = 2;
	cfg.usemem.processes = 4;
	cfg.usemem.size = 64ULL << 20;
	cfg.usemem.pattern = USEMEM_CYCLIC;
	cfg.usemem.loops = 3;
	run("usemem 2x RAM with swap", &cfg);

	/* scenarios/seed001-ia64-hackbench.conf at 20 groups: 800 workers, 16 M messages */
	scenario_defaults(&cfg);
	static const char *const seed001[][2] = {
	    {"machine.profile", "ia64-2008"}, {"machine.ram", "8G"},
	    {"machine.swap", "2G"},	      {"machine.cpus", "8"},
	    {"kernel.version", "2.6.25-mm1"}, {"workload", "hackbench"},
	    {"hackbench.groups", "20"},	      {"hackbench.loops", "1000"},
	    {"hackbench.cow_pages", "9"},
	};
	for (size_t i = 0; i < sizeof(seed001) / sizeof(seed001[0]); i++)
		set(&cfg, seed001[i][0], seed001[i][1]);
	run("hackbench seed 001, 20 groups", &cfg);
	return 0;
}
