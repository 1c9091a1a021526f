/* Optional: the real traces in ../shared/traces (ARC, LIRS, libCacheSim). For each, per-size
 * LRU and OPT replays must equal the one-pass curves at a handful of sizes, and the results
 * are printed. Skipped, with a message, where the traces are absent (a fresh clone).
 *
 * To stay within a couple of minutes on two cores, OPT runs on the first OPT_PREFIX references
 * of the large ARC traces (the per-size OPT replays and the priority-stack curve compared with
 * the one-pass curve cost far more per reference than LRU); LRU
 * runs on every reference of every trace, except in sanitizer builds, which see prefixes.
 * `mmsim mrc --policy opt` does the whole traces. The OPT curve of mrc_run (the on-line
 * critical-marker one) must also equal the priority stack's (opt_mrc) at every distance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "replay/replay.h"
#include "sim/xalloc.h"

#ifdef MMSIM_ASAN
/* instrumented builds run several times slower: check prefixes of the large traces */
#define OPT_PREFIX 50000
#define LRU_PREFIX 1000000
#else
#define OPT_PREFIX 200000
#define LRU_PREFIX 0 /* all */
#endif

/* Published figures to compare against, where the project found them. */
struct known {
	const char *trace;
	uint64_t cache, misses;
	const char *source;
};
static const struct known known[] = {
    /* libCacheSim's unit tests (test_simulator_no_size): LRU over cloudPhysicsIO with the
     * plain-text reader, cache sizes 128..1024 objects */
    {"libcachesim/cloudPhysicsIO.txt", 128, 99411, "libCacheSim unit test"},
    {"libcachesim/cloudPhysicsIO.txt", 256, 96397, "libCacheSim unit test"},
    {"libcachesim/cloudPhysicsIO.txt", 384, 95652, "libCacheSim unit test"},
    {"libcachesim/cloudPhysicsIO.txt", 512, 95370, "libCacheSim unit test"},
    {"libcachesim/cloudPhysicsIO.txt", 640, 95182, "libCacheSim unit test"},
    {"libcachesim/cloudPhysicsIO.txt", 768, 94997, "libCacheSim unit test"},
    {"libcachesim/cloudPhysicsIO.txt", 896, 94891, "libCacheSim unit test"},
    {"libcachesim/cloudPhysicsIO.txt", 1024, 94816, "libCacheSim unit test"},
    /* OLTP, LRU: hit ratios 32.83, 42.47, 53.65, 60.70, 64.63 % at c = 1000 ... 15000 in the
     * ARC paper's OLTP table (Megiddo & Modha, FAST 2003); held here as exact miss counts */
    {"arc/OLTP.lis.zst", 1000, 614023, "ARC paper"},
    {"arc/OLTP.lis.zst", 2000, 525910, "ARC paper"},
    {"arc/OLTP.lis.zst", 5000, 423702, "ARC paper"},
    {"arc/OLTP.lis.zst", 10000, 359239, "ARC paper"},
    {"arc/OLTP.lis.zst", 15000, 323294, "ARC paper"},
};

static char root[1024];

static int setup(void **state)
{
	(void)state;
	const char *src = getenv("MMSIM_SRC");
	snprintf(root, sizeof(root), "%s/../shared/traces", src ? src : ".");
	return 0;
}

/* The priority-stack OPT curve (opt_mrc, from next uses) over the first `limit` references
 * (0 = all) equals m, the on-line one of mrc_run, at every distance. */
static void same_as_priority_stack(const char *path, uint64_t limit, const struct mrc *m)
{
	char err[1024];
	struct trace *t = trace_open(path, NULL, err, sizeof(err));
	if (!t)
		fail_msg("%s", err);
	size_t cap = 1 << 16, n = 0;
	uint32_t *ids = malloc(cap * sizeof(*ids));
	for (;;) {
		if (n + 4096 > cap)
			ids = realloc(ids, (cap *= 2) * sizeof(*ids));
		size_t want = limit && limit - n < 4096 ? (size_t)(limit - n) : 4096;
		long k = want ? trace_next_batch(t, ids + n, NULL, want) : 0;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	uint32_t nd = trace_distinct(t);
	trace_close(t);
	uint32_t *next = replay_next_use(ids, n, nd);
	struct mrc o;
	assert_int_equal(opt_mrc(ids, next, n, nd, &o), 0);
	assert_int_equal(o.refs, m->refs);
	assert_int_equal(o.cold, m->cold);
	assert_int_equal(o.maxd, m->maxd);
	for (uint32_t d = 1; d <= o.maxd; d++)
		assert_int_equal(o.hist[d], m->hist[d]);
	mrc_free(&o);
	xbig_free(next);
	free(ids);
}

static void check_trace(const char *rel, const uint64_t *sizes, size_t ns, uint64_t lru_limit,
			uint64_t opt_limit)
{
	char path[1200], err[1024];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	struct stat st;
	if (stat(path, &st)) {
		printf("  %s: absent, not checked\n", rel);
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		enum replay_policy pol = pass ? REPLAY_OPT : REPLAY_LRU;
		uint64_t limit = pass ? opt_limit : lru_limit;
		struct replay_job jobs[16];
		for (size_t i = 0; i < ns; i++)
			jobs[i] = (struct replay_job){.policy = pol, .cache = sizes[i]};
		struct replay_info info;
		if (replay_run(path, NULL, NULL, jobs, ns, limit, &info, err, sizeof(err)))
			fail_msg("%s", err);
		struct mrc m;
		if (mrc_run(path, NULL, pol, limit, &m, NULL, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(m.refs, info.refs);
		printf("  %-32s %-3s %9llu refs %8u pages:", rel, replay_policy_name(pol),
		       (unsigned long long)info.refs, info.distinct);
		for (size_t i = 0; i < ns; i++) {
			uint64_t one = mrc_misses(&m, sizes[i]);
			printf(" %llu:%.2f%%", (unsigned long long)sizes[i],
			       100.0 * (double)jobs[i].res.hits /
				   (double)(info.refs ? info.refs : 1));
			if (one != jobs[i].res.misses)
				fail_msg("%s %s cache %llu: per-size %llu misses, one-pass %llu",
					 rel, replay_policy_name(pol), (unsigned long long)sizes[i],
					 (unsigned long long)jobs[i].res.misses,
					 (unsigned long long)one);
			for (size_t k = 0; !pass && k < sizeof(known) / sizeof(known[0]); k++)
				if (!strcmp(known[k].trace, rel) && known[k].cache == sizes[i])
					assert_int_equal(jobs[i].res.misses, known[k].misses);
		}
		printf("\n");
		if (pass)
			same_as_priority_stack(path, limit, &m);
		mrc_free(&m);
	}
}

static void test_shared_traces(void **state)
{
	(void)state;
	struct stat st;
	if (stat(root, &st)) {
		printf("shared traces not found at %s: skipping (they are optional)\n", root);
		skip();
	}
	printf("hit ratios at cache sizes (pages); per-size replays equal the one-pass curves\n");
	static const char *lirs[] = {"2_pools", "backf",  "cpp",    "cs",     "gli",
				     "loop",	"multi1", "multi2", "multi3", "ps",
				     "scan",	"sprite", "zigzag"};
	const uint64_t small[] = {10, 50, 100, 200, 500, 1000};
	for (size_t i = 0; i < sizeof(lirs) / sizeof(lirs[0]); i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "lirs/%s.trace.gz", lirs[i]);
		check_trace(rel, small, 6, 0, 0);
	}
	const uint64_t cp[] = {128, 256, 384, 512, 640, 768, 896, 1024, 10000};
	check_trace("libcachesim/cloudPhysicsIO.txt", cp, 9, 0, 0);
	const uint64_t oltp[] = {1000, 2000, 5000, 10000, 15000};
	check_trace("arc/OLTP.lis.zst", oltp, 5, 0, 0);
	const uint64_t p[] = {1024, 8192, 65536, 524288};
	static const char *ptr[] = {"P2", "P3", "P6", "P12"};
	for (size_t i = 0; i < 4; i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "arc/%s.lis.zst", ptr[i]);
		check_trace(rel, p, 4, LRU_PREFIX, OPT_PREFIX);
	}
	printf("(on the P traces opt sees the first %d references only", OPT_PREFIX);
	if (LRU_PREFIX)
		printf(", lru the first %d", LRU_PREFIX);
	printf(")\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shared_traces),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
