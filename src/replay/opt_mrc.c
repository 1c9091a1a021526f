/* One-pass OPT (Belady MIN) miss-ratio curve: every cache size from one pass over a trace. */
#include "replay/ops.h"

/* ---- one pass: the OPT stack ----
 *
 * Mattson's update for a priority stack: the referenced page x goes to the top; going down from
 * the old top to x's old depth d, a "carried" page is compared with each page in turn and the
 * one needed later (larger next use) is carried on, the other stays. Pages left in place are
 * those that are not a new maximum of next use seen so far on the way down, so only those
 * left-to-right maxima move: each takes the place of the next one, and the last goes to depth
 * d. A max segment tree over stack positions finds each next maximum in O(log n); the maxima
 * come in runs of consecutive positions, each run shifts by one with a memmove, so a reference
 * costs O(runs log n + maxima moved) instead of O(d) - in practice a fraction of a run each. */

struct seg {
	uint32_t *v; /* v[P + pos] = next use of the page at stack position pos */
	uint32_t P;
};

static inline void seg_set(struct seg *s, uint32_t pos, uint32_t val)
{
	uint32_t i = s->P + pos;
	s->v[i] = val;
	for (i >>= 1; i; i >>= 1) {
		uint32_t m = s->v[2 * i] > s->v[2 * i + 1] ? s->v[2 * i] : s->v[2 * i + 1];
		if (s->v[i] == m)
			break;
		s->v[i] = m;
	}
}

/* Recompute the inner nodes above leaves lo..hi. */
static void seg_rebuild(struct seg *s, uint32_t lo, uint32_t hi)
{
	lo += s->P;
	hi += s->P;
	while (lo > 1) {
		lo >>= 1;
		hi >>= 1;
		for (uint32_t i = lo; i <= hi; i++)
			s->v[i] = s->v[2 * i] > s->v[2 * i + 1] ? s->v[2 * i] : s->v[2 * i + 1];
	}
}

static inline uint32_t seg_descend(const struct seg *s, uint32_t i, uint32_t val)
{
	while (i < s->P) {
		i *= 2;
		if (s->v[i] <= val)
			i++;
	}
	return i - s->P;
}

/* First position in [lo, hi] whose value exceeds val, or 0. */
static uint32_t seg_first_greater(const struct seg *s, uint32_t lo, uint32_t hi, uint32_t val)
{
	if (lo > hi)
		return 0;
	uint32_t l = lo + s->P, r = hi + s->P + 1, rights[40];
	int nr = 0;
	while (l < r) {
		if (l & 1) {
			if (s->v[l] > val)
				return seg_descend(s, l, val);
			l++;
		}
		if (r & 1)
			rights[nr++] = --r;
		l >>= 1;
		r >>= 1;
	}
	while (nr--)
		if (s->v[rights[nr]] > val)
			return seg_descend(s, rights[nr], val);
	return 0;
}

int opt_mrc(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t nd, struct mrc *out)
{
	memset(out, 0, sizeof(*out));
	struct seg sg = {NULL, 1};
	while (sg.P < (uint64_t)nd + 2)
		sg.P *= 2;
	sg.v = calloc(2 * (size_t)sg.P, sizeof(uint32_t));
	uint32_t *st = malloc(((size_t)nd + 2) * sizeof(uint32_t));
	uint32_t *pos = calloc((size_t)nd + 1, sizeof(uint32_t));
	out->hist = calloc((size_t)nd + 2, sizeof(uint64_t));
	if (!sg.v || !st || !pos || !out->hist) {
		free(sg.v);
		free(st);
		free(pos);
		mrc_free(out);
		return -1;
	}
	uint32_t depth = 0;
	for (uint64_t t = 0; t < n; t++) {
		uint32_t x = ids[t];
		uint32_t d = pos[x];
		if (!d) {
			d = ++depth;
			out->cold++;
		} else {
			out->hist[d]++;
		}
		if (d > 1) {
			uint32_t *leaf = sg.v + sg.P;
			uint32_t carry = st[1], ckey = leaf[1], cur = 1;
			for (;;) {
				uint32_t j = seg_first_greater(&sg, cur + 1, d - 1, ckey);
				if (!j)
					break;
				/* The maxima come in long runs of consecutive positions (the
				 * stack is mostly ordered by next use): shift a whole run at
				 * once, then repair the tree over it. */
				uint32_t b = j;
				while (b + 1 < d && leaf[b + 1] > leaf[b])
					b++;
				uint32_t ncarry = st[b], nkey = leaf[b];
				memmove(&st[j + 1], &st[j], (size_t)(b - j) * sizeof(*st));
				memmove(&leaf[j + 1], &leaf[j], (size_t)(b - j) * sizeof(*leaf));
				st[j] = carry;
				leaf[j] = ckey;
				for (uint32_t i = j; i <= b; i++)
					pos[st[i]] = i;
				seg_rebuild(&sg, j, b);
				carry = ncarry;
				ckey = nkey;
				cur = b;
			}
			st[d] = carry;
			pos[carry] = d;
			seg_set(&sg, d, ckey);
		}
		st[1] = x;
		pos[x] = 1;
		seg_set(&sg, 1, next[t]);
	}
	out->refs = n;
	out->maxd = depth;
	free(sg.v);
	free(st);
	free(pos);
	return 0;
}
