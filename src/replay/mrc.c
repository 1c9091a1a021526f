/* One-pass LRU miss-ratio curve: Mattson's stack distances counted with a Fenwick tree.
 *
 * Each page's most recent reference holds a mark at its time slot. The LRU stack distance of a
 * re-reference is the number of marks from the page's previous slot to now, i.e. the number of
 * distinct pages touched since, itself included: one prefix query and two point updates, all
 * O(log n). Slots are time, so they run out; when they do, the live marks (one per distinct
 * page) are renumbered 1..live in order and the tree is rebuilt, which keeps the tree at most
 * twice the number of distinct pages and costs O(1) amortised per reference. */
#include "replay/ops.h"
#include "sim/xalloc.h"

#include <stdio.h>

struct lru_mrc {
	uint32_t *last;	 /* per id: slot of its latest reference, 0 = none yet */
	uint32_t *owner; /* per slot: id holding the mark, or NONE */
	uint32_t *fen;	 /* Fenwick tree over slots 1..S */
	uint64_t *hist;
	uint32_t ncap, hcap, S, now, live;
	uint64_t refs, cold;
};

void mrc_free(struct mrc *m)
{
	free(m->hist);
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
	return (size_t)m->ncap * 4 + (size_t)m->hcap * 8 + ((size_t)m->S + 1) * 8;
}

/* Renumber the live marks to 1..live and resize the tree to about twice that. */
static int compact(struct lru_mrc *m)
{
	uint32_t k = 0;
	for (uint32_t s = 1; s < m->now; s++) {
		uint32_t id = m->owner[s];
		if (id == NONE)
			continue;
		m->owner[++k] = id;
		m->last[id] = k;
	}
	uint64_t ns = 2 * (uint64_t)k + 1024;
	if (ns >= NONE)
		return -1;
	if (ns > m->S) {
		uint32_t *o = xrealloc(m->owner, (ns + 1) * sizeof(uint32_t));
		m->owner = o;
		uint32_t *f = xrealloc(m->fen, (ns + 1) * sizeof(uint32_t));
		m->fen = f;
		m->S = (uint32_t)ns;
	}
	for (uint32_t s = k + 1; s <= m->S; s++)
		m->owner[s] = NONE;
	/* fen[i] covers slots (i - lowbit(i), i]; marks sit exactly on 1..k */
	for (uint32_t i = 1; i <= m->S; i++) {
		uint32_t lo = i - (i & -i) + 1, hi = i < k ? i : k;
		m->fen[i] = hi >= lo ? hi - lo + 1 : 0;
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
	uint32_t *fen = m->fen;
	if (s) {
		if (s == m->now - 1) {
			/* already on top of the stack: nothing moves */
			m->hist[1]++;
			return 0;
		}
		uint32_t below = 0;
		for (uint32_t i = s - 1; i; i &= i - 1)
			below += fen[i];
		m->hist[m->live - below]++;
		for (uint32_t i = s; i <= m->S; i += i & -i)
			fen[i]--;
		m->owner[s] = NONE;
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
		fen = m->fen;
	}
	uint32_t t = m->now++;
	for (uint32_t i = t; i <= m->S; i += i & -i)
		fen[i]++;
	m->owner[t] = id;
	m->last[id] = t;
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
		out->hist = xcalloc(2, sizeof(uint64_t));
	free(m->last);
	free(m->owner);
	free(m->fen);
	free(m);
	return out->hist ? 0 : -1;
}
