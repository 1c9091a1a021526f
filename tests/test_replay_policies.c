/* Replacement policies on hand-computed reference strings, and the one-pass curves against
 * per-size replays on pseudo-random strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "replay/replay.h"
#include "sim/xalloc.h"

/* Replay ids through one policy; returns misses. hits_out gets the per-reference outcome as a
 * string of 'h'/'m' when non-NULL. */
static uint64_t run(enum replay_policy p, uint64_t cache, const uint32_t *ids, const uint8_t *kinds,
		    size_t n, char *hits_out)
{
	uint32_t nd = 0;
	for (size_t i = 0; i < n; i++)
		if (ids[i] + 1 > nd)
			nd = ids[i] + 1;
	uint32_t *next = replay_next_use(ids, n, nd);
	assert_non_null(next);
	struct replay_sim *s = replay_sim_new(p, cache, NULL);
	assert_non_null(s);
	for (size_t i = 0; i < n; i++) {
		int r = replay_sim_access(s, ids[i], kinds ? kinds[i] : TRACE_READ, next[i]);
		assert_true(r >= 0);
		if (hits_out)
			hits_out[i] = r ? 'h' : 'm';
		assert_int_equal(replay_sim_check(s), 0);
	}
	if (hits_out)
		hits_out[n] = 0;
	struct replay_result res;
	replay_sim_result(s, &res);
	assert_int_equal(res.refs, n);
	replay_sim_free(s);
	xbig_free(next);
	return res.misses;
}

/* Dense ids from a reference string of small page numbers (first appearance order). */
static size_t dense(const int *pages, size_t n, uint32_t *ids)
{
	int map[256];
	uint32_t next = 0;
	memset(map, -1, sizeof(map));
	for (size_t i = 0; i < n; i++) {
		if (map[pages[i]] < 0)
			map[pages[i]] = (int)next++;
		ids[i] = (uint32_t)map[pages[i]];
	}
	return next;
}

/* The textbook string of Belady, Nelson and Shedler (1969). */
static const int belady[] = {1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5};
#define NB (sizeof(belady) / sizeof(belady[0]))

static void test_fifo_belady_anomaly(void **state)
{
	(void)state;
	uint32_t ids[NB];
	char out[NB + 1];
	dense(belady, NB, ids);
	assert_int_equal(run(REPLAY_FIFO, 3, ids, NULL, NB, out), 9);
	assert_string_equal(out, "mmmmmmmhhmmh");
	/* more memory, more faults */
	assert_int_equal(run(REPLAY_FIFO, 4, ids, NULL, NB, out), 10);
	assert_string_equal(out, "mmmmhhmmmmmm");
}

static void test_lru_hand(void **state)
{
	(void)state;
	uint32_t ids[NB];
	char out[NB + 1];
	dense(belady, NB, ids);
	/* 3 frames: 1 2 3 4(-1) 1(-2) 2(-3) 5(-4) 1h 2h 3(-5) 4(-1) 5(-2) */
	assert_int_equal(run(REPLAY_LRU, 3, ids, NULL, NB, out), 10);
	assert_string_equal(out, "mmmmmmmhhmmm");
	assert_int_equal(run(REPLAY_LRU, 4, ids, NULL, NB, out), 8);
	assert_string_equal(out, "mmmmhhmhhmmm");
	assert_int_equal(run(REPLAY_LRU, 5, ids, NULL, NB, NULL), 5);
	assert_int_equal(run(REPLAY_LRU, 1, ids, NULL, NB, NULL), 12);
}

static void test_opt_hand(void **state)
{
	(void)state;
	uint32_t ids[NB];
	char out[NB + 1];
	dense(belady, NB, ids);
	/* 3 frames: 1 2 3, 4 evicts 3 (next use farthest), 1h 2h, 5 evicts 1 or... */
	assert_int_equal(run(REPLAY_OPT, 3, ids, NULL, NB, out), 7);
	assert_string_equal(out, "mmmmhhmhhmmh");
	assert_int_equal(run(REPLAY_OPT, 4, ids, NULL, NB, out), 6);
	assert_string_equal(out, "mmmmhhmhhhmh");
	/* a cache of one page hits only immediate repeats */
	const int rep[] = {7, 7, 8, 7, 7, 7, 8};
	uint32_t r[7];
	dense(rep, 7, r);
	assert_int_equal(run(REPLAY_OPT, 1, r, NULL, 7, out), 4);
	assert_string_equal(out, "mhmmhhm");
}

static void test_clock_hand(void **state)
{
	(void)state;
	/* 3 frames, bits clear on entry. 1 2 3 fill; 1 hit sets its bit; 4: the hand clears 1's
	 * bit and evicts 2; 2 evicts 3; 1 hit sets the bit again; 3: the hand clears 1's bit
	 * and evicts 4. */
	const int s[] = {1, 2, 3, 1, 4, 2, 1, 3};
	uint32_t ids[8];
	char out[NB + 1];
	dense(s, 8, ids);
	assert_int_equal(run(REPLAY_CLOCK, 3, ids, NULL, 8, out), 6);
	assert_string_equal(out, "mmmhmmhm");
	/* Belady's string with 4 frames: second chances save 1 and 2 where FIFO loses them */
	uint32_t b[NB];
	dense(belady, NB, b);
	assert_int_equal(run(REPLAY_CLOCK, 4, b, NULL, NB, out), 8);
	assert_string_equal(out, "mmmmhhmhhmmm");
}

static void test_linux_hand(void **state)
{
	(void)state;
	char out[32];
	/* Cache of 3, data references only. A page touched twice while inactive is activated
	 * and survives a scan that evicts once-touched pages: 1 1 2 3 4 5 1 -> 1 stays. */
	const int s[] = {1, 1, 2, 3, 4, 5, 1};
	uint32_t ids[7];
	dense(s, 7, ids);
	assert_int_equal(run(REPLAY_LINUX, 3, ids, NULL, 7, out), 5);
	assert_string_equal(out, "mhmmmmh");
	/* LRU of the same size loses page 1 */
	assert_int_equal(run(REPLAY_LRU, 3, ids, NULL, 7, out), 6);

	/* Exec pages: mapped and referenced at the inactive tail they are activated, not
	 * evicted; a once-read data page is evicted instead. 1x 2 1x(young) 3 4 1x. */
	const int e[] = {1, 2, 3, 1, 4, 5, 1};
	const uint8_t k[] = {TRACE_EXEC, TRACE_READ, TRACE_READ, TRACE_EXEC,
			     TRACE_READ, TRACE_READ, TRACE_EXEC};
	uint32_t ei[7];
	dense(e, 7, ei);
	assert_int_equal(run(REPLAY_LINUX, 3, ei, k, 7, out), 5);
	assert_string_equal(out, "mmmhmmh");
	assert_int_equal(run(REPLAY_LINUX_EXEC, 3, ei, k, 7, out), 5);

	/* VM_EXEC protection: exec page 1 is referenced when the active scan reaches it. Plain
	 * linux deactivates it and it is evicted before its next use; linux+exec gives it
	 * another trip round the active list and it survives. */
	const int v[] = {1, 2, 3, 4, 1, 5, 6, 7, 1};
	const uint8_t vk[] = {TRACE_EXEC, TRACE_READ, TRACE_READ, TRACE_READ, TRACE_EXEC,
			      TRACE_READ, TRACE_READ, TRACE_READ, TRACE_EXEC};
	uint32_t vi[9];
	dense(v, 9, vi);
	assert_int_equal(run(REPLAY_LINUX, 3, vi, vk, 9, out), 8);
	assert_string_equal(out, "mmmmhmmmm");
	assert_int_equal(run(REPLAY_LINUX_EXEC, 3, vi, vk, 9, out), 7);
	assert_string_equal(out, "mmmmhmmmh");
}

/* xorshift, so the strings are the same everywhere */
static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* A string with locality: mostly re-references near the recent past, some scans. */
static size_t gen(uint32_t *ids, size_t n, uint32_t universe)
{
	uint32_t *pages = malloc(n * sizeof(*pages));
	uint32_t *map = malloc(universe * sizeof(*map));
	memset(map, 0xff, universe * sizeof(*map));
	for (size_t i = 0; i < n; i++) {
		uint32_t r = rnd(100);
		if (i && r < 50)
			pages[i] = pages[i - 1 - rnd((uint32_t)(i < 30 ? i : 30))];
		else if (i && r < 70)
			pages[i] = (pages[i - 1] + 1) % universe;
		else
			pages[i] = rnd(universe);
	}
	uint32_t nd = 0;
	for (size_t i = 0; i < n; i++) {
		if (map[pages[i]] == UINT32_MAX)
			map[pages[i]] = nd++;
		ids[i] = map[pages[i]];
	}
	free(pages);
	free(map);
	return nd;
}

/* Loops over a working set with some noise: the OPT stack then holds runs of hundreds of
 * pages in next-use order, which the one-pass algorithm rotates block by block. */
static size_t gen_loop(uint32_t *ids, size_t n, uint32_t universe)
{
	uint32_t nd = 0, *map = malloc(universe * sizeof(*map));
	memset(map, 0xff, universe * sizeof(*map));
	uint32_t loop = universe / 2, at = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t p = rnd(10) ? at++ % loop : loop + rnd(universe - loop);
		if (map[p] == UINT32_MAX)
			map[p] = nd++;
		ids[i] = map[p];
	}
	free(map);
	return nd;
}

/* LRU by its definition: a recency array searched and shifted on every reference. */
static uint64_t naive_lru_misses(const uint32_t *ids, size_t n, uint32_t cache)
{
	uint32_t *st = malloc(cache * sizeof(*st)), used = 0;
	uint64_t misses = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t d = 0;
		while (d < used && st[d] != ids[i])
			d++;
		if (d == used) {
			misses++;
			if (used < cache)
				used++;
			d = used - 1; /* the last (least recent) one falls off when full */
		}
		memmove(st + 1, st, d * sizeof(*st));
		st[0] = ids[i];
	}
	free(st);
	return misses;
}

/* Batches of uneven sizes through replay_sim_access_batch; returns misses. */
static uint64_t run_batched(enum replay_policy p, uint64_t cache, const uint32_t *ids,
			    const uint8_t *kinds, size_t n)
{
	struct replay_sim *s = replay_sim_new(p, cache, NULL);
	for (size_t i = 0, b = 1; i < n; i += b, b = b * 7 % 4099 + 1) {
		size_t k = n - i < b ? n - i : b;
		assert_int_equal(replay_sim_access_batch(s, ids + i, kinds ? kinds + i : NULL, k),
				 0);
		assert_int_equal(replay_sim_check(s), 0);
	}
	struct replay_result r;
	replay_sim_result(s, &r);
	assert_int_equal(r.refs, n);
	replay_sim_free(s);
	return r.misses;
}

/* The LRU queue against the definition, on strings that make its ring wrap and pack in place
 * (a hot set far smaller than the ring, all hits) and grow (more resident pages than half the
 * ring); one reference at a time and in batches. */
static void test_lru_queue(void **state)
{
	(void)state;
	size_t n = 20000;
	uint32_t *ids = malloc(n * sizeof(*ids));
	for (size_t i = 0; i < n; i++)
		ids[i] = (uint32_t)(i < 5 ? i : rnd(i % 3000 < 2500 ? 4 : 6));
	const uint32_t hot[] = {1, 3, 4, 5, 8};
	for (size_t k = 0; k < sizeof(hot) / sizeof(hot[0]); k++) {
		uint64_t want = naive_lru_misses(ids, n, hot[k]);
		assert_int_equal(run(REPLAY_LRU, hot[k], ids, NULL, n, NULL), want);
		assert_int_equal(run_batched(REPLAY_LRU, hot[k], ids, NULL, n), want);
	}
	gen(ids, n, 6000);
	const uint32_t big[] = {1, 2, 100, 700, 1500, 3000, 6000};
	for (size_t k = 0; k < sizeof(big) / sizeof(big[0]); k++) {
		uint64_t want = naive_lru_misses(ids, n, big[k]);
		assert_int_equal(run(REPLAY_LRU, big[k], ids, NULL, n, NULL), want);
		assert_int_equal(run_batched(REPLAY_LRU, big[k], ids, NULL, n), want);
	}
	free(ids);
}

/* Every streaming policy gives the same counts in batches as one reference at a time. */
static void test_batch_same(void **state)
{
	(void)state;
	size_t n = 30000;
	uint32_t *ids = malloc(n * sizeof(*ids));
	uint8_t *kinds = malloc(n);
	gen(ids, n, 2000);
	for (size_t i = 0; i < n; i++)
		kinds[i] = (uint8_t)(ids[i] % 7 == 0 ? TRACE_EXEC : rnd(2));
	for (int p = 0; p < REPLAY_NPOL; p++) {
		if (p == REPLAY_OPT)
			continue;
		for (uint64_t c = 1; c <= 4096; c *= 8)
			assert_int_equal(run_batched((enum replay_policy)p, c, ids, kinds, n),
					 run((enum replay_policy)p, c, ids, kinds, n, NULL));
	}
	free(kinds);
	free(ids);
}

/* The OPT curve of opt_mrc_tree, checking its structure every check_every references. */
static void tree_curve(const uint32_t *ids, size_t n, size_t check_every, struct mrc *out)
{
	struct opt_mrc_tree *t = opt_mrc_tree_new();
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(opt_mrc_tree_access(t, ids[i]), 0);
		if ((i + 1) % check_every == 0)
			assert_int_equal(opt_mrc_tree_check(t), 0);
	}
	assert_int_equal(opt_mrc_tree_check(t), 0);
	assert_int_equal(opt_mrc_tree_finish(t, out), 0);
	assert_int_equal(out->refs, n);
}

static void check_curves_with(size_t n, uint32_t universe,
			      size_t (*g)(uint32_t *, size_t, uint32_t))
{
	uint32_t *ids = malloc(n * sizeof(*ids));
	uint32_t nd = (uint32_t)g(ids, n, universe);
	uint32_t *next = replay_next_use(ids, n, nd);
	struct lru_mrc *lm = lru_mrc_new();
	for (size_t i = 0; i < n; i++)
		assert_int_equal(lru_mrc_access(lm, ids[i]), 0);
	struct mrc lru, opt;
	assert_int_equal(lru_mrc_finish(lm, &lru), 0);
	assert_int_equal(opt_mrc_variant(ids, next, n, nd, &opt, n < 6000 ? 1 : 97, 128, 0), 0);
	/* the other block size, and the AVX2 scans where this CPU has them, give the same curve
	 * and keep the structure sound */
	for (int v = 0; v < 3; v++) {
		if (v && !opt_mrc_have_avx2())
			break;
		struct mrc other;
		unsigned block = v == 1 ? 128 : 512;
		assert_int_equal(
		    opt_mrc_variant(ids, next, n, nd, &other, n < 6000 ? 1 : 97, block, v > 0), 0);
		assert_int_equal(other.maxd, opt.maxd);
		assert_int_equal(other.cold, opt.cold);
		for (uint32_t d = 1; d <= opt.maxd; d++)
			assert_int_equal(other.hist[d], opt.hist[d]);
		mrc_free(&other);
	}
	/* the on-line critical-marker curve: the same histogram, its structure sound */
	struct mrc tree;
	tree_curve(ids, n, n < 6000 ? 1 : 97, &tree);
	assert_int_equal(tree.maxd, opt.maxd);
	assert_int_equal(tree.cold, opt.cold);
	for (uint32_t d = 1; d <= opt.maxd; d++)
		assert_int_equal(tree.hist[d], opt.hist[d]);
	mrc_free(&tree);
	assert_int_equal(lru.cold, nd);
	assert_int_equal(opt.cold, nd);
	for (uint32_t c = 1; c <= nd + 1; c++) {
		struct replay_sim *l = replay_sim_new(REPLAY_LRU, c, NULL);
		struct replay_sim *o = replay_sim_new(REPLAY_OPT, c, NULL);
		for (size_t i = 0; i < n; i++) {
			replay_sim_access(l, ids[i], 0, next[i]);
			replay_sim_access(o, ids[i], 0, next[i]);
		}
		struct replay_result rl, ro;
		replay_sim_result(l, &rl);
		replay_sim_result(o, &ro);
		assert_int_equal(rl.misses, mrc_misses(&lru, c));
		assert_int_equal(ro.misses, mrc_misses(&opt, c));
		assert_true(ro.misses <= rl.misses);
		replay_sim_free(l);
		replay_sim_free(o);
	}
	mrc_free(&lru);
	mrc_free(&opt);
	xbig_free(next);
	free(ids);
}

static void check_curves(size_t n, uint32_t universe)
{
	check_curves_with(n, universe, gen);
}

static void test_curves_small(void **state)
{
	(void)state;
	for (int k = 0; k < 20; k++)
		check_curves(300, 8 + (uint32_t)k * 3);
}

static void test_curves_medium(void **state)
{
	(void)state;
	check_curves(20000, 700);
	check_curves(5000, 3000);
	check_curves_with(12000, 1100, gen_loop);
}

/* The on-line OPT curve against the priority stack over many slot compactions, on strings
 * whose stack distances span the whole footprint (loops, scans, locality), and at a few sizes
 * against single-size replays. */
static void test_opt_tree_long(void **state)
{
	(void)state;
	size_t n = 300000;
	uint32_t *ids = malloc(n * sizeof(*ids));
	for (int k = 0; k < 3; k++) {
		uint32_t nd = (uint32_t)(k == 0	  ? gen(ids, n, 1500)
					 : k == 1 ? gen_loop(ids, n, 5000)
						  : gen(ids, n, 40000));
		uint32_t *next = replay_next_use(ids, n, nd);
		struct mrc opt, tree;
		assert_int_equal(opt_mrc(ids, next, n, nd, &opt), 0);
		tree_curve(ids, n, 49999, &tree);
		assert_int_equal(tree.maxd, opt.maxd);
		assert_int_equal(tree.cold, opt.cold);
		for (uint32_t d = 1; d <= opt.maxd; d++)
			assert_int_equal(tree.hist[d], opt.hist[d]);
		uint32_t sizes[] = {1, 2, 7, 100, 1000, nd / 2, nd - 1};
		for (size_t j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			if (!sizes[j])
				continue;
			struct replay_sim *o = replay_sim_new(REPLAY_OPT, sizes[j], NULL);
			for (size_t i = 0; i < n; i++)
				replay_sim_access(o, ids[i], 0, next[i]);
			struct replay_result r;
			replay_sim_result(o, &r);
			assert_int_equal(r.misses, mrc_misses(&tree, sizes[j]));
			replay_sim_free(o);
		}
		mrc_free(&opt);
		mrc_free(&tree);
		xbig_free(next);
	}
	free(ids);
}

/* The LRU curve must survive the slot compaction of its tree many times over. */
static void test_lru_curve_long(void **state)
{
	(void)state;
	size_t n = 400000;
	uint32_t *ids = malloc(n * sizeof(*ids));
	gen(ids, n, 1500);
	struct lru_mrc *lm = lru_mrc_new();
	for (size_t i = 0; i < n; i++)
		lru_mrc_access(lm, ids[i]);
	struct mrc m;
	lru_mrc_finish(lm, &m);
	uint32_t sizes[] = {1, 2, 10, 100, 500, 1000, 1499, 1500};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct replay_sim *l = replay_sim_new(REPLAY_LRU, sizes[k], NULL);
		for (size_t i = 0; i < n; i++)
			replay_sim_access(l, ids[i], 0, REPLAY_NEVER);
		struct replay_result r;
		replay_sim_result(l, &r);
		assert_int_equal(r.misses, mrc_misses(&m, sizes[k]));
		replay_sim_free(l);
	}
	mrc_free(&m);
	free(ids);
}

/* Every policy stays consistent and within its size on a long string; linux never holds
 * more than the cache and every miss is a cold miss or follows an eviction. */
static void test_policies_consistent(void **state)
{
	(void)state;
	size_t n = 30000;
	uint32_t *ids = malloc(n * sizeof(*ids));
	uint8_t *kinds = malloc(n);
	uint32_t nd = (uint32_t)gen(ids, n, 900);
	for (size_t i = 0; i < n; i++)
		kinds[i] = (uint8_t)(ids[i] % 5 == 0 ? TRACE_EXEC : rnd(2));
	uint32_t *next = replay_next_use(ids, n, nd);
	for (int p = 0; p < REPLAY_NPOL; p++)
		for (uint64_t c = 1; c <= 1024; c *= 4) {
			struct replay_linux_cfg lc = {.inactive_ratio = c % 2 ? 0 : 1};
			struct replay_sim *s = replay_sim_new((enum replay_policy)p, c, &lc);
			for (size_t i = 0; i < n; i++) {
				assert_true(replay_sim_access(s, ids[i], kinds[i], next[i]) >= 0);
				if (i % 997 == 0)
					assert_int_equal(replay_sim_check(s), 0);
			}
			assert_int_equal(replay_sim_check(s), 0);
			struct replay_result r;
			replay_sim_result(s, &r);
			assert_true(r.misses >= nd);
			/* whatever was not evicted is still resident: a full cache */
			if (p == REPLAY_LINUX || p == REPLAY_LINUX_EXEC)
				assert_int_equal(r.misses - r.pgsteal, r.misses < c ? r.misses : c);
			replay_sim_free(s);
		}
	xbig_free(next);
	free(kinds);
	free(ids);
}

static void test_policy_names(void **state)
{
	(void)state;
	enum replay_policy p;
	for (int i = 0; i < REPLAY_NPOL; i++) {
		assert_int_equal(replay_policy_parse(replay_policy_name((enum replay_policy)i), &p),
				 0);
		assert_int_equal(p, i);
	}
	assert_int_equal(replay_policy_parse("arc", &p), -1);
	assert_null(replay_sim_new(REPLAY_LRU, 0, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fifo_belady_anomaly),
	    cmocka_unit_test(test_lru_hand),
	    cmocka_unit_test(test_opt_hand),
	    cmocka_unit_test(test_clock_hand),
	    cmocka_unit_test(test_linux_hand),
	    cmocka_unit_test(test_curves_small),
	    cmocka_unit_test(test_curves_medium),
	    cmocka_unit_test(test_lru_curve_long),
	    cmocka_unit_test(test_opt_tree_long),
	    cmocka_unit_test(test_policies_consistent),
	    cmocka_unit_test(test_lru_queue),
	    cmocka_unit_test(test_batch_same),
	    cmocka_unit_test(test_policy_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
