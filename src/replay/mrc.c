/* One-pass LRU miss-ratio curve: Mattson's stack distances counted over a bitmap of marks.
 *
 * Each page's most recent reference holds a mark at its time slot. The LRU stack distance of a
 * re-reference is the number of marks from the page's previous slot to now, i.e. the number of
 * distinct pages touched since, itself included. The marks are bits, 64 slots to a word, with a
 * Fenwick tree of the words' counts: a count below slot s is one prefix query over the words
 * before s's and a popcount in its word, and moving a mark is two bit flips and two point
 * updates, all O(log n). The bitmap and the tree take 1/32 and 1/16 of a tree over the slots
 * themselves, so they stay in the CPU caches, where a tree of 4 bytes per slot spent its time
 * waiting on memory at every level below the cached ones. Slots are time, so they run out;
 * when they do, the live marks (one per distinct page) are renumbered 1..live in order and the
 * structures rebuilt, which keeps them at most about twice the number of distinct pages and
 * costs O(1) amortised per reference. */
#include "replay/ops.h"
#include "sim/xalloc.h"

#include <stdio.h>

struct lru_mrc {
	uint32_t *last;	 /* per id: slot of its latest reference, 0 = none yet */
	uint32_t *owner; /* per slot: the id that referenced it (its mark may have moved on) */
	uint64_t *bits;	 /* per slot: set while it holds its page's mark; W words */
	uint32_t *fen;	 /* Fenwick tree over the words' mark counts, fen[1..W] */
	uint64_t *hist;
	uint32_t ncap, hcap, S, W, now, live;
	uint64_t refs, cold;
};

/* How many references ahead a batch prefetches last[id]. */
#define MRC_AHEAD 16

void mrc_free(struct mrc *m)
{
	xbig_free(m->hist);
	memset(m, 0, sizeof(*m));
}

uint64_t mrc_misses(const struct mrc *m, uint64_t c)
{
	uint64_t miss = m->cold;
	for (uint64_t d = c + 1; d <= m->maxd; d++)
		miss += m->hist[d];
	return miss;
}

struct lru_mrc *lru_mrc_new(void)
{
	return xcalloc(1, sizeof(struct lru_mrc));
}

size_t lru_mrc_bytes(const struct lru_mrc *m)
{
	return (size_t)m->ncap * 4 + (size_t)m->hcap * 8 + ((size_t)m->S + 1) * 4 +
	       (size_t)m->W * 8 + ((size_t)m->W + 1) * 4;
}

/* Marks in the slots below s. */
static inline uint32_t marks_below(const struct lru_mrc *m, uint32_t s)
{
	uint32_t n = (uint32_t)__builtin_popcountll(m->bits[s >> 6] & ((1ull << (s & 63)) - 1));
	for (uint32_t i = s >> 6; i; i &= i - 1)
		n += m->fen[i];
	return n;
}

static inline void fen_add(struct lru_mrc *m, uint32_t word, uint32_t delta)
{
	for (uint32_t i = word + 1; i <= m->W; i += i & -i)
		m->fen[i] += delta;
}

/* Renumber the live marks to 1..live and resize the structures to about twice that. */
static int compact(struct lru_mrc *m)
{
	uint32_t k = 0;
	for (uint32_t s = 1; s < m->now; s++) {
		if (!(m->bits[s >> 6] >> (s & 63) & 1))
			continue;
		uint32_t id = m->owner[s];
		m->owner[++k] = id;
		m->last[id] = k;
	}
	uint64_t ns = (2 * (uint64_t)k + 1024) | 63; /* the last slot ends a word */
	if (ns >= NONE)
		return -1;
	if (ns > m->S) {
		m->owner = xbig_realloc(m->owner, (ns + 1) * sizeof(uint32_t));
		m->S = (uint32_t)ns;
		m->W = (uint32_t)(ns >> 6) + 1;
		m->bits = xbig_realloc(m->bits, (size_t)m->W * sizeof(uint64_t));
		m->fen = xbig_realloc(m->fen, ((size_t)m->W + 1) * sizeof(uint32_t));
	}
	/* marks on slots 1..k exactly, then the tree built bottom-up in O(W) */
	memset(m->bits, 0, (size_t)m->W * sizeof(uint64_t));
	for (uint32_t s = 1; s <= k; s++)
		m->bits[s >> 6] |= 1ull << (s & 63);
	for (uint32_t i = 1; i <= m->W; i++)
		m->fen[i] = (uint32_t)__builtin_popcountll(m->bits[i - 1]);
	for (uint32_t i = 1; i <= m->W; i++) {
		uint32_t j = i + (i & -i);
		if (j <= m->W)
			m->fen[j] += m->fen[i];
	}
	m->now = k + 1;
	return 0;
}

int lru_mrc_access(struct lru_mrc *m, uint32_t id)
{
	m->refs++;
	if (__builtin_expect(id >= m->ncap, 0)) {
		if (grow_array((void **)&m->last, &m->ncap, id, sizeof(uint32_t), 0))
			return -1;
	}
	uint32_t s = m->last[id];
	if (s) {
		if (s == m->now - 1) {
			/* already on top of the stack: nothing moves */
			m->hist[1]++;
			return 0;
		}
		m->hist[m->live - marks_below(m, s)]++;
		m->bits[s >> 6] &= ~(1ull << (s & 63));
		fen_add(m, s >> 6, (uint32_t)-1);
	} else {
		m->cold++;
		m->live++;
		if (m->live >= m->hcap) {
			uint32_t c = m->hcap;
			if (grow_array((void **)&m->hist, &c, m->live, sizeof(uint64_t), 0))
				return -1;
			m->hcap = c;
		}
	}
	if (m->now > m->S || !m->S) {
		if (!m->S)
			m->now = 1;
		if (compact(m))
			return -1;
	}
	uint32_t t = m->now++;
	m->bits[t >> 6] |= 1ull << (t & 63);
	fen_add(m, t >> 6, 1);
	m->owner[t] = id;
	m->last[id] = t;
	return 0;
}

int lru_mrc_access_batch(struct lru_mrc *m, const uint32_t *ids, size_t n)
{
	uint32_t max = 0;
	for (size_t i = 0; i < n; i++)
		max = ids[i] > max ? ids[i] : max;
	if (n && max >= m->ncap && grow_array((void **)&m->last, &m->ncap, max, 4, 0))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (i + MRC_AHEAD < n)
			__builtin_prefetch(&m->last[ids[i + MRC_AHEAD]], 1);
		if (lru_mrc_access(m, ids[i]))
			return -1;
	}
	return 0;
}

int lru_mrc_finish(struct lru_mrc *m, struct mrc *out)
{
	memset(out, 0, sizeof(*out));
	out->refs = m->refs;
	out->cold = m->cold;
	out->maxd = m->live;
	out->hist = m->hist;
	if (!out->hist)
		out->hist = xbig_alloc(2 * sizeof(uint64_t));
	xbig_free(m->last);
	xbig_free(m->owner);
	xbig_free(m->bits);
	xbig_free(m->fen);
	free(m);
	return out->hist ? 0 : -1;
}
