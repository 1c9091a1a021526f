/* Reference-string throughput: LRU replay streamed from mmsim's binary format, the one-pass LRU
 * miss-ratio curve, and memory per distinct page.
 *
 *   bench_replay [TRACE] [--cache N]
 *
 * With a TRACE (any supported format) it is first converted to the binary format in a temporary
 * file; without one, a synthetic trace of 20M references over 1M pages is generated. Timings
 * are CPU time of the one thread (so other load on the machine matters less) and vary with
 * the machine; counts are exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "replay/replay.h"
#include "trace/trace.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long peak_rss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int synth(const char *out)
{
	char err[512];
	struct trace_writer *w = trace_writer_open(out, 12, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	uint64_t x = 0x9e3779b97f4a7c15ull, recent[64] = {0}, last = 0;
	const uint64_t n = 20000000, universe = 1000000;
	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		unsigned r = (unsigned)(x % 100);
		uint64_t page;
		if (r < 55)
			page = recent[(x >> 8) % 64]; /* temporal locality */
		else if (r < 75)
			page = last + 1; /* sequential runs */
		else if (r < 90)
			page = (x >> 20) % (universe / 20); /* a warm 5% */
		else
			page = (x >> 20) % universe;
		recent[i % 64] = page;
		last = page;
		trace_writer_put(w, page, (enum trace_kind)(r & 1));
	}
	return trace_writer_close(w);
}

enum { B = 4096 };
static uint32_t ids[B];
static uint8_t kinds[B];

int main(int argc, char **argv)
{
	const char *src = NULL;
	uint64_t cache = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cache") && i + 1 < argc)
			cache = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--help")) {
			printf("usage: bench_replay [TRACE] [--cache N]\n");
			return 0;
		} else
			src = argv[i];
	}
	char tmp[] = "/tmp/bench-replay-XXXXXX";
	int fd = mkstemp(tmp);
	if (fd < 0)
		return 1;
	close(fd);
	char err[1024];
	if (src) {
		struct trace *t = trace_open(src, NULL, err, sizeof(err));
		if (!t) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		struct trace_writer *w =
		    trace_writer_open(tmp, trace_page_shift(t), err, sizeof(err));
		struct trace_ref r;
		while (trace_next(t, &r) > 0)
			trace_writer_put(w, r.page, (enum trace_kind)r.kind);
		trace_close(t);
		trace_writer_close(w);
	} else if (synth(tmp)) {
		return 1;
	}

	/* pass 0 warms the page cache; the best of the next two counts */
	double best = 1e30;
	uint64_t refs = 0, hits = 0;
	uint32_t nd = 0;
	size_t bytes = 0;
	for (int pass = 0; pass < 3; pass++) {
		struct trace *t = trace_open(tmp, NULL, err, sizeof(err));
		if (!t) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		if (!cache)
			cache = 65536;
		struct replay_sim *s = replay_sim_new(REPLAY_LRU, cache, NULL);
		double t0 = now();
		long k;
		while ((k = trace_next_batch(t, ids, kinds, B)) > 0)
			replay_sim_access_batch(s, ids, kinds, (size_t)k);
		double dt = now() - t0;
		struct replay_result res;
		replay_sim_result(s, &res);
		refs = res.refs;
		hits = res.hits;
		nd = trace_distinct(t);
		/* the binary reader keeps the 8-byte page number of each id */
		bytes = replay_sim_bytes(s) + (size_t)nd * 8;
		if (pass && dt < best)
			best = dt;
		replay_sim_free(s);
		trace_close(t);
	}
	printf("trace: %s, %llu references, %u distinct pages\n", src ? src : "synthetic",
	       (unsigned long long)refs, nd);
	printf("lru replay (binary format, cache %llu): %.1f M refs/s (%llu hits), "
	       "%.1f bytes per distinct page\n",
	       (unsigned long long)cache, (double)refs / best / 1e6, (unsigned long long)hits,
	       (double)bytes / (double)(nd ? nd : 1));

	best = 1e30;
	uint64_t m1000 = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct trace *t = trace_open(tmp, NULL, err, sizeof(err));
		struct lru_mrc *m = lru_mrc_new();
		double t0 = now();
		long k;
		while ((k = trace_next_batch(t, ids, NULL, B)) > 0)
			lru_mrc_access_batch(m, ids, (size_t)k);
		bytes = lru_mrc_bytes(m) + (size_t)nd * 8;
		struct mrc out;
		lru_mrc_finish(m, &out);
		double dt = now() - t0;
		if (dt < best)
			best = dt;
		m1000 = mrc_misses(&out, 1000);
		mrc_free(&out);
		trace_close(t);
	}
	printf("one-pass lru mrc: %.1f M refs/s (misses at 1000 pages: %llu), %.1f bytes per "
	       "distinct page\n",
	       (double)refs / best / 1e6, (unsigned long long)m1000,
	       (double)bytes / (double)(nd ? nd : 1));
	printf("peak rss of the whole run: %ld KiB\n", peak_rss_kb());
	unlink(tmp);
	return 0;
}
