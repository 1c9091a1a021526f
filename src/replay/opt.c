/* OPT (Belady's MIN): per-size replay with a heap, and the one-pass stack algorithm.
 *
 * Both are demand paging: the referenced page always enters the cache, and on a miss with a
 * full cache the resident page whose next use is farthest away leaves. */
#include "replay/sim_impl.h"
#include "sim/xalloc.h"

uint32_t *replay_next_use(const uint32_t *ids, uint64_t n, uint32_t ndistinct)
{
	if (n >= REPLAY_NEVER)
		return NULL;
	uint32_t *next = xmalloc((n ? n : 1) * sizeof(*next));
	uint32_t *last = xmalloc(((size_t)ndistinct + 1) * sizeof(*last));
	memset(last, 0xff, ((size_t)ndistinct + 1) * sizeof(*last));
	for (uint64_t t = n; t-- > 0;) {
		uint32_t x = ids[t];
		next[t] = last[x];
		last[x] = (uint32_t)t;
	}
	free(last);
	return next;
}

/* ---- per-size: a max-heap of resident pages keyed by next use ---- */

static inline void heap_put(struct opt_sim *s, uint32_t i, uint32_t id)
{
	s->heap[i] = id;
	s->hpos[id] = i;
}

static void sift_up(struct opt_sim *s, uint32_t i)
{
	uint32_t id = s->heap[i], k = s->key[id];
	while (i) {
		uint32_t p = (i - 1) / 2;
		if (s->key[s->heap[p]] >= k)
			break;
		heap_put(s, i, s->heap[p]);
		i = p;
	}
	heap_put(s, i, id);
}

static void sift_down(struct opt_sim *s, uint32_t i)
{
	uint32_t id = s->heap[i], k = s->key[id];
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= s->size)
			break;
		if (c + 1 < s->size && s->key[s->heap[c + 1]] > s->key[s->heap[c]])
			c++;
		if (s->key[s->heap[c]] <= k)
			break;
		heap_put(s, i, s->heap[c]);
		i = c;
	}
	heap_put(s, i, id);
}

int opt_access(struct opt_sim *s, uint32_t id, uint32_t next)
{
	if (__builtin_expect(id >= s->ncap, 0)) {
		uint32_t c = s->ncap;
		if (grow_array((void **)&s->hpos, &c, id, sizeof(uint32_t), 0xff))
			return -1;
		c = s->ncap;
		if (grow_array((void **)&s->key, &c, id, sizeof(uint32_t), 0))
			return -1;
		s->ncap = c;
	}
	uint32_t i = s->hpos[id];
	s->key[id] = next;
	if (i != NONE) {
		/* the key only grows: it was this reference's time */
		sift_up(s, i);
		return 1;
	}
	if (s->size == s->cache) {
		uint32_t victim = s->heap[0];
		s->hpos[victim] = NONE;
		s->size--;
		if (s->size) {
			heap_put(s, 0, s->heap[s->size]);
			sift_down(s, 0);
		}
	}
	if (s->size == s->hcap)
		if (grow_array((void **)&s->heap, &s->hcap, s->size, sizeof(uint32_t), 0))
			return -1;
	heap_put(s, s->size, id);
	s->size++;
	sift_up(s, s->size - 1);
	return 0;
}

int opt_check(const struct opt_sim *s)
{
	if (s->size > s->cache)
		return -1;
	for (uint32_t i = 0; i < s->size; i++) {
		uint32_t id = s->heap[i];
		if (id >= s->ncap || s->hpos[id] != i)
			return -1;
		if (i && s->key[s->heap[(i - 1) / 2]] < s->key[id])
			return -1;
	}
	return 0;
}

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
	sg.v = xcalloc(2 * (size_t)sg.P, sizeof(uint32_t));
	uint32_t *st = xmalloc(((size_t)nd + 2) * sizeof(uint32_t));
	uint32_t *pos = xcalloc((size_t)nd + 1, sizeof(uint32_t));
	out->hist = xcalloc((size_t)nd + 2, sizeof(uint64_t));
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
