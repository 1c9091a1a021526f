/* The blocked OPT priority stack of opt_mrc.c, written once for any block size: the includer
 * defines OPT_BLOCK (a power of two) and OPT(name), which gives each instance's names their
 * own suffix. No include guard: it is included once per block size. */
#include "replay/opt_scan.h"

#define OPT_MASK (OPT_BLOCK - 1)
#ifndef OPT_NOPAGE
#define OPT_NOPAGE UINT32_MAX /* the id in the slots past the bottom of the stack */
#endif

struct OPT(optstack) {
	/* nb * OPT_BLOCK slots each, addressed through head[]: a page and its next use, in two
	 * arrays so that the scans read contiguous words of one kind */
	uint32_t *id, *val;
	uint32_t *head;	 /* per block: physical slot of logical index 0 */
	uint32_t *desc;	 /* per block: i with val[i + 1] <= val[i] */
	uint32_t *bmax;	 /* per block: at least the largest val (the tree's leaves); exact
			  * after a search scans the whole block and finds it too high */
	uint32_t *bfine; /* per block: at least the largest val, at most bmax: also lowered,
			  * without the tree, when a search learns the block holds nothing
			  * above what it looks for, and exact after an increasing whole-block
			  * rotation */
	uint32_t *at;	 /* per page: the slot it was last written to. A page leaves a block only by
			  * being written into another, so at / OPT_BLOCK is its block; shifts inside
			  * the block may have moved it since */
	uint32_t *tree;	 /* max over bmax: tree[cap + b] = bmax[b], tree[1] the root */
	uint32_t nb, cap, depth;
};

static inline uint32_t OPT(slot)(const struct OPT(optstack) * s, uint32_t b, uint32_t i)
{
	return b * OPT_BLOCK + ((s->head[b] + i) & OPT_MASK);
}

static inline uint32_t OPT(block_len)(const struct OPT(optstack) * s, uint32_t b)
{
	uint32_t n = s->depth - b * OPT_BLOCK;
	return n < OPT_BLOCK ? n : OPT_BLOCK;
}

/* bmax[b] = bfine[b] = m, and the tree above it. */
static inline void OPT(set_bmax)(struct OPT(optstack) * s, uint32_t b, uint32_t m)
{
	s->bmax[b] = m;
	s->bfine[b] = m;
	uint32_t i = s->cap + b;
	s->tree[i] = m;
	for (i >>= 1; i; i >>= 1) {
		uint32_t l = s->tree[2 * i], r = s->tree[2 * i + 1], t = l > r ? l : r;
		if (s->tree[i] == t)
			break;
		s->tree[i] = t;
	}
}

static inline uint32_t OPT(val_at)(const struct OPT(optstack) * s, uint32_t pos)
{
	return s->val[OPT(slot)(s, pos / OPT_BLOCK, pos & OPT_MASK)];
}

static inline uint32_t OPT(lval)(const struct OPT(optstack) * s, uint32_t b, uint32_t i)
{
	return s->val[OPT(slot)(s, b, i)];
}

/* The largest next use in full block b, over the physical slots (order does not matter for a
 * maximum, and a plain loop over contiguous words vectorises). */
static uint32_t OPT(exact_bmax)(const struct OPT(optstack) * s, uint32_t b)
{
	const uint32_t *v = s->val + (size_t)b * OPT_BLOCK;
	uint32_t m = 0;
	for (uint32_t i = 0; i < OPT_BLOCK; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

/* A page leaves block b and one with next use v arrives. bmax only has to stay an upper
 * bound, so the departure is not looked at (the block is not rescanned here): a bound that
 * turns out too high is lowered by first_greater when it scans the whole block and finds
 * nothing. */
static inline void OPT(bmax_replace)(struct OPT(optstack) * s, uint32_t b, uint32_t v)
{
	if (v > s->bmax[b])
		OPT(set_bmax)(s, b, v);
	else if (v > s->bfine[b])
		s->bfine[b] = v;
}

/* Move logical a..b of a block (head h) to a+1..b+1, b + 1 < OPT_BLOCK; nothing if a > b. In
 * contiguous pieces of the circular buffer. */
static void OPT(shift_up)(uint32_t *es, uint32_t h, uint32_t a, uint32_t b)
{
	if (a > b)
		return;
	for (uint32_t i = b + 1; i > a;) {
		uint32_t src = (h + i - 1) & OPT_MASK, dst = (h + i) & OPT_MASK;
		if (dst == 0) {
			es[0] = es[OPT_MASK];
			i--;
			continue;
		}
		uint32_t k = i - a < src + 1 ? i - a : src + 1;
		opt_shift_words(&es[dst + 1 - k], &es[src + 1 - k], k);
		i -= k;
	}
}

/* Move logical a..b (a >= 1) to a-1..b-1; nothing if a > b. */
static void OPT(shift_down)(uint32_t *es, uint32_t h, uint32_t a, uint32_t b)
{
	if (a > b)
		return;
	for (uint32_t i = a; i <= b;) {
		uint32_t src = (h + i) & OPT_MASK, dst = (h + i - 1) & OPT_MASK;
		if (src == 0) {
			es[OPT_MASK] = es[0];
			i++;
			continue;
		}
		uint32_t k = b - i + 1 < OPT_BLOCK - src ? b - i + 1 : OPT_BLOCK - src;
		opt_shift_words(&es[dst], &es[src], k);
		i += k;
	}
}

/* Rotate positions lo..hi (one block, lo <= hi) down by one: page *cid enters at lo, the page
 * at hi leaves and comes back through *cid / *cval. desc and bmax follow in O(1): only the
 * neighbour pairs at lo and around hi change. */
static void OPT(rotate_part)(struct OPT(optstack) * s, uint32_t b, uint32_t lo, uint32_t hi,
			     uint32_t *cid, uint32_t *cval)
{
	uint32_t n = OPT(block_len)(s, b), ph = OPT(slot)(s, b, hi);
	uint32_t oid = s->id[ph], oval = s->val[ph];
	int32_t dd = 0;
	if (lo > 0) /* (e[lo-1], e[lo]) becomes (e[lo-1], c); when lo == hi, e[lo] is e[hi] */
		dd += (int32_t)(*cval <= OPT(lval)(s, b, lo - 1)) -
		      (int32_t)(OPT(lval)(s, b, lo) <= OPT(lval)(s, b, lo - 1));
	if (lo < hi) { /* (c, e[lo]) is new; (e[hi-1], e[hi]) goes */
		dd += (int32_t)(OPT(lval)(s, b, lo) <= *cval);
		dd -= (int32_t)(oval <= OPT(lval)(s, b, hi - 1));
	}
	if (hi + 1 < n) { /* (e[hi], e[hi+1]) becomes (x, e[hi+1]), x = e[hi-1] or c */
		uint32_t nxt = OPT(lval)(s, b, hi + 1),
			 x = lo < hi ? OPT(lval)(s, b, hi - 1) : *cval;
		dd += (int32_t)(nxt <= x) - (int32_t)(nxt <= oval);
	}
	uint32_t *is = s->id + (size_t)b * OPT_BLOCK, *vs = s->val + (size_t)b * OPT_BLOCK;
	if (n == OPT_BLOCK && lo + (OPT_BLOCK - 1 - hi) < hi - lo) {
		/* Cheaper the other way round: rotate the whole block by one (O(1)), then move
		 * back what lies outside lo..hi. */
		uint32_t last = (s->head[b] + OPT_MASK) & OPT_MASK, eid = is[last], ev = vs[last];
		s->head[b] = last;
		OPT(shift_down)(is, last, 1, lo);
		OPT(shift_down)(vs, last, 1, lo);
		if (hi < OPT_MASK) {
			OPT(shift_down)(is, last, hi + 2, OPT_MASK);
			OPT(shift_down)(vs, last, hi + 2, OPT_MASK);
			is[(last + OPT_MASK) & OPT_MASK] = eid;
			vs[(last + OPT_MASK) & OPT_MASK] = ev;
		}
	} else {
		OPT(shift_up)(is, s->head[b], lo, hi - 1);
		OPT(shift_up)(vs, s->head[b], lo, hi - 1);
	}
	uint32_t to = (s->head[b] + lo) & OPT_MASK;
	is[to] = *cid;
	vs[to] = *cval;
	s->at[*cid] = b * OPT_BLOCK + to;
	s->desc[b] = (uint32_t)((int32_t)s->desc[b] + dd);
	OPT(bmax_replace)(s, b, *cval);
	*cid = oid;
	*cval = oval;
}

/* Overwrite the value at logical i of block b (page id stays or is replaced by the caller). */
static void OPT(set_val)(struct OPT(optstack) * s, uint32_t b, uint32_t i, uint32_t v)
{
	uint32_t n = OPT(block_len)(s, b), ph = OPT(slot)(s, b, i), old = s->val[ph];
	int32_t dd = 0;
	if (i > 0) {
		uint32_t p = OPT(lval)(s, b, i - 1);
		dd += (int32_t)(v <= p) - (int32_t)(old <= p);
	}
	if (i + 1 < n) {
		uint32_t q = OPT(lval)(s, b, i + 1);
		dd += (int32_t)(q <= v) - (int32_t)(q <= old);
	}
	s->val[ph] = v;
	s->desc[b] = (uint32_t)((int32_t)s->desc[b] + dd);
	OPT(bmax_replace)(s, b, v);
}

/* The same for a whole full block, in O(1). */
static void OPT(rotate_block)(struct OPT(optstack) * s, uint32_t b, uint32_t *cid, uint32_t *cval)
{
	uint32_t last = OPT(slot)(s, b, OPT_BLOCK - 1), first = OPT(slot)(s, b, 0);
	uint32_t oid = s->id[last], oval = s->val[last];
	uint32_t before_last = s->val[OPT(slot)(s, b, OPT_BLOCK - 2)], first_val = s->val[first];
	uint32_t dsc = s->desc[b] - (oval <= before_last) + (first_val <= *cval);
	s->head[b] = (s->head[b] - 1) & OPT_MASK;
	s->id[last] = *cid; /* the slot of the leaving page is the new logical 0 */
	s->val[last] = *cval;
	s->at[*cid] = last;
	s->desc[b] = dsc;
	if (dsc == 0) /* increasing: the largest is the new last; the tree's bound stays above */
		s->bfine[b] = before_last;
	else
		OPT(bmax_replace)(s, b, *cval);
	*cid = oid;
	*cval = oval;
}

/* Rotate positions lo..hi (any blocks) down by one, carrying (*cid, *cval) in and out. */
static void OPT(rotate_range)(struct OPT(optstack) * s, uint32_t lo, uint32_t hi, uint32_t *cid,
			      uint32_t *cval)
{
	uint32_t bl = lo / OPT_BLOCK, bh = hi / OPT_BLOCK;
	if (bl == bh) {
		OPT(rotate_part)(s, bl, lo & OPT_MASK, hi & OPT_MASK, cid, cval);
		return;
	}
	/* Right to left would need the page leaving the lower block first; going left to right,
	 * each block's leaving page is the next block's entering one. */
	OPT(rotate_part)(s, bl, lo & OPT_MASK, OPT_MASK, cid, cval);
	for (uint32_t b = bl + 1; b < bh; b++)
		OPT(rotate_block)(s, b, cid, cval);
	if ((hi & OPT_MASK) == OPT_MASK && OPT(block_len)(s, bh) == OPT_BLOCK)
		OPT(rotate_block)(s, bh, cid, cval);
	else
		OPT(rotate_part)(s, bh, 0, hi & OPT_MASK, cid, cval);
}

/* Last position of the strictly increasing run of next uses that starts at a, not past lim. */
static uint32_t OPT(run_end)(const struct OPT(optstack) * s, uint32_t a, uint32_t lim)
{
	uint32_t p = a, v = OPT(val_at)(s, a);
	while (p < lim) {
		uint32_t b = (p + 1) / OPT_BLOCK;
		if (((p + 1) & OPT_MASK) == 0 && b * OPT_BLOCK + OPT_BLOCK - 1 <= lim &&
		    !s->desc[b] && s->val[OPT(slot)(s, b, 0)] > v) {
			p = b * OPT_BLOCK + OPT_BLOCK - 1; /* the whole block continues the run */
			v = s->val[OPT(slot)(s, b, OPT_BLOCK - 1)];
			continue;
		}
		/* the rest of this block up to lim, in contiguous pieces */
		uint32_t end = b * OPT_BLOCK + OPT_MASK < lim ? b * OPT_BLOCK + OPT_MASK : lim;
		uint32_t off = (s->head[b] + ((p + 1) & OPT_MASK)) & OPT_MASK, len = end - p;
		if (len > OPT_BLOCK - off)
			len = OPT_BLOCK - off;
		const uint32_t *q = s->val + (size_t)b * OPT_BLOCK + off;
		if (q[0] <= v)
			return p;
		uint32_t j = opt_first_descent(q, len);
		if (j < len)
			return p + j;
		p += len;
		v = q[len - 1];
	}
	return p;
}

/* First logical index in i0..i1 of block b whose next use exceeds v, or UINT32_MAX. */
static uint32_t OPT(scan_greater)(const struct OPT(optstack) * s, uint32_t b, uint32_t i0,
				  uint32_t i1, uint32_t v)
{
	const uint32_t *base = s->val + (size_t)b * OPT_BLOCK;
	uint32_t h = s->head[b];
	/* over the one or two contiguous pieces of the circular buffer */
	for (uint32_t i = i0; i <= i1;) {
		uint32_t ph = (h + i) & OPT_MASK, len = i1 - i + 1;
		if (len > OPT_BLOCK - ph)
			len = OPT_BLOCK - ph;
		uint32_t j = opt_first_gt(base + ph, len, v);
		if (j < len)
			return i + j;
		i += len;
	}
	return UINT32_MAX;
}

/* First block in lo..hi whose largest next use exceeds v, or UINT32_MAX: the segment tree
 * walked up from both ends, then down into the leftmost subtree that qualifies. */
static uint32_t OPT(tree_first_greater)(const struct OPT(optstack) * s, uint32_t lo, uint32_t hi,
					uint32_t v)
{
	if (lo > hi)
		return UINT32_MAX;
	uint32_t l = lo + s->cap, r = hi + s->cap + 1, rights[40], hit = 0;
	int nr = 0;
	while (l < r && !hit) {
		if (l & 1) {
			if (s->tree[l] > v)
				hit = l;
			l++;
		}
		if (!hit && (r & 1))
			rights[nr++] = --r;
		l >>= 1;
		r >>= 1;
	}
	while (!hit && nr--)
		if (s->tree[rights[nr]] > v)
			hit = rights[nr];
	if (!hit)
		return UINT32_MAX;
	while (hit < s->cap)
		hit = s->tree[2 * hit] > v ? 2 * hit : 2 * hit + 1;
	return hit - s->cap;
}

/* First block in lo..hi (lo <= hi) whose bound exceeds v, or UINT32_MAX. The next larger
 * value is usually a few blocks on (on OLTP a gap is 730 positions on average), where reading
 * the bounds in a row is cheaper than a walk up and down the tree; the tree takes the rest. */
static uint32_t OPT(next_block)(const struct OPT(optstack) * s, uint32_t lo, uint32_t hi,
				uint32_t v)
{
	uint32_t n = hi - lo + 1 < 32 ? hi - lo + 1 : 32, j = opt_first_gt(s->bfine + lo, n, v);
	if (j < n)
		return lo + j;
	return lo + n <= hi ? OPT(tree_first_greater)(s, lo + n, hi, v) : UINT32_MAX;
}

/* First position in lo..hi whose next use exceeds v, or UINT32_MAX. Called with every next
 * use above lo at most v, save at position 0 (the referenced page's, which enters first): so
 * a scan that finds nothing in the rest of lo's block bounds the whole block. */
static uint32_t OPT(first_greater)(struct OPT(optstack) * s, uint32_t lo, uint32_t hi, uint32_t v)
{
	uint32_t bl = lo / OPT_BLOCK, bh = hi / OPT_BLOCK, i;
	/* a block whose bound is not above v cannot hold the answer */
	if (s->bfine[bl] > v) {
		uint32_t end = bl == bh ? hi & OPT_MASK : OPT_MASK;
		i = OPT(scan_greater)(s, bl, lo & OPT_MASK, end, v);
		if (i != UINT32_MAX)
			return bl * OPT_BLOCK + i;
		if (end == OPT_MASK) {
			uint32_t top = bl ? 0 : OPT(lval)(s, 0, 0);
			s->bfine[bl] = top > v ? top : v;
		}
	}
	if (bl == bh)
		return UINT32_MAX;
	/* whole blocks: the first whose bound is above v; a bound that was too high is made
	 * exact and the search goes on */
	for (uint32_t from = bl + 1; from + 1 <= bh;) {
		uint32_t b = OPT(next_block)(s, from, bh - 1, v);
		if (b == UINT32_MAX)
			break;
		i = OPT(scan_greater)(s, b, 0, OPT_MASK, v);
		if (i != UINT32_MAX)
			return b * OPT_BLOCK + i;
		OPT(set_bmax)(s, b, OPT(exact_bmax)(s, b));
		from = b + 1;
	}
	i = s->bfine[bh] > v ? OPT(scan_greater)(s, bh, 0, hi & OPT_MASK, v) : UINT32_MAX;
	return i == UINT32_MAX ? i : bh * OPT_BLOCK + i;
}

static uint32_t OPT(depth_of)(const struct OPT(optstack) * s, uint32_t x)
{
	/* where it was written, unless a shift has moved it; else a scan of its block, in
	 * physical order: a page is in the stack once, and the slots past the end of a partial
	 * last block hold OPT_NOPAGE */
	uint32_t g = s->at[x], b = g / OPT_BLOCK, j = g & OPT_MASK;
	if (s->id[g] != x)
		j = opt_find_eq(s->id + (size_t)b * OPT_BLOCK, OPT_BLOCK, x);
	return b * OPT_BLOCK + ((j - s->head[b]) & OPT_MASK);
}

static int OPT(grow)(struct OPT(optstack) * s)
{
	uint32_t nc = s->cap ? s->cap * 2 : 16;
	uint32_t **blockarrs[] = {&s->head, &s->desc, &s->bmax, &s->bfine};
	for (size_t i = 0; i < 4; i++) { /* bfine is read sixteen words at a time: padded */
		*blockarrs[i] = xrealloc(*blockarrs[i], ((size_t)nc + OPT_PAD) * sizeof(uint32_t));
	}
	/* OPT_PAD words either side for the scans of opt_scan.h */
	size_t words = (size_t)nc * OPT_BLOCK + 2 * OPT_PAD;
	uint32_t *ni = xbig_realloc(s->id ? s->id - OPT_PAD : NULL, words * sizeof(*s->id)),
		 *nv = xbig_realloc(s->val ? s->val - OPT_PAD : NULL, words * sizeof(*s->val));
	memset(ni + words - OPT_PAD, 0xff, OPT_PAD * sizeof(*ni));
	memset(nv + words - OPT_PAD, 0, OPT_PAD * sizeof(*nv));
	if (!s->id) {
		memset(ni, 0xff, OPT_PAD * sizeof(*ni));
		memset(nv, 0, OPT_PAD * sizeof(*nv));
	}
	s->id = ni + OPT_PAD;
	s->val = nv + OPT_PAD;
	uint32_t *t = xcalloc(2 * (size_t)nc, sizeof(uint32_t));
	memcpy(t + nc, s->bmax, (size_t)s->nb * sizeof(uint32_t));
	for (uint32_t i = nc - 1; i; i--)
		t[i] = t[2 * i] > t[2 * i + 1] ? t[2 * i] : t[2 * i + 1];
	free(s->tree);
	s->tree = t;
	s->cap = nc;
	return 0;
}

/* Make room for one more position at the bottom. */
static int OPT(push_slot)(struct OPT(optstack) * s)
{
	if (s->depth % OPT_BLOCK)
		return 0;
	if (s->nb == s->cap && OPT(grow)(s))
		return -1;
	s->head[s->nb] = 0;
	s->desc[s->nb] = 0;
	s->bmax[s->nb] = 0; /* and its tree leaf, zeroed when the tree was built */
	s->bfine[s->nb] = 0;
	memset(s->id + (size_t)s->nb * OPT_BLOCK, 0xff, OPT_BLOCK * sizeof(*s->id));
	memset(s->val + (size_t)s->nb * OPT_BLOCK, 0, OPT_BLOCK * sizeof(*s->val));
	s->nb++;
	return 0;
}

static void OPT(optstack_free)(struct OPT(optstack) * s)
{
	if (s->id) {
		xbig_free(s->id - OPT_PAD);
		xbig_free(s->val - OPT_PAD);
	}
	free(s->head);
	free(s->desc);
	free(s->bmax);
	free(s->bfine);
	xbig_free(s->at);
	free(s->tree);
}

/* One reference to x with next use nx; returns its stack distance (1-based), 0 if cold. */
static int64_t OPT(reference)(struct OPT(optstack) * s, uint32_t x, uint32_t nx, int cold)
{
	uint32_t d;
	if (cold) {
		if (OPT(push_slot)(s))
			return -1;
		d = s->depth++;
		uint32_t ph = OPT(slot)(s, d / OPT_BLOCK, d & OPT_MASK);
		s->id[ph] = x; /* a placeholder the chain overwrites */
		s->val[ph] = 0;
		s->at[x] = ph;
		if (d & OPT_MASK)
			s->desc[d / OPT_BLOCK]++; /* 0 <= the value before it */
	} else {
		d = OPT(depth_of)(s, x);
	}
	if (d == 0) {
		OPT(set_val)(s, 0, 0, nx);
		return cold ? 0 : 1;
	}
	/* Positions 0..d-1 rotate along the chain of maxima; x enters at the top. */
	uint32_t cid = x, cval = nx, a = 0;
	for (;;) {
		uint32_t b = OPT(run_end)(s, a, d - 1);
		OPT(rotate_range)(s, a, b, &cid, &cval);
		if (b + 1 > d - 1 || cval == NONE) /* nothing is needed later than never */
			break;
		a = OPT(first_greater)(s, b + 1, d - 1, cval);
		if (a == UINT32_MAX)
			break;
	}
	uint32_t bd = d / OPT_BLOCK, ph = OPT(slot)(s, bd, d & OPT_MASK);
	s->id[ph] = cid;
	s->at[cid] = ph;
	OPT(set_val)(s, bd, d & OPT_MASK, cval);
	return cold ? 0 : (int64_t)d + 1;
}

/* Every block summary and page-to-block link against a recount: 0 when sound. */
static int OPT(optstack_check)(const struct OPT(optstack) * s, uint32_t nd)
{
	for (uint32_t b = 0; b < s->nb; b++) {
		uint32_t n = OPT(block_len)(s, b), m = 0, dsc = 0;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t v = OPT(lval)(s, b, i);
			if (i && v <= OPT(lval)(s, b, i - 1))
				dsc++;
			m = v > m ? v : m;
			uint32_t x = s->id[OPT(slot)(s, b, i)];
			if (x > nd || s->at[x] / OPT_BLOCK != b)
				return -1;
		}
		for (uint32_t i = n; i < OPT_BLOCK; i++)
			if (s->id[OPT(slot)(s, b, i)] != OPT_NOPAGE)
				return -1;
		if (s->desc[b] != dsc || s->bfine[b] < m || s->bmax[b] < s->bfine[b] ||
		    s->tree[s->cap + b] != s->bmax[b])
			return -1;
	}
	for (uint32_t i = 1; i < s->cap; i++) {
		uint32_t l = s->tree[2 * i], r = s->tree[2 * i + 1];
		if (s->tree[i] != (l > r ? l : r))
			return -1;
	}
	return 0;
}

static int OPT(pass)(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t nd,
		     struct mrc *out, uint64_t check_every)
{
	memset(out, 0, sizeof(*out));
	struct OPT(optstack) s = {0};
	uint8_t *seen = xcalloc((size_t)nd + 1, 1);
	s.at = xbig_alloc(((size_t)nd + 1) * sizeof(uint32_t));
	out->hist = xbig_alloc(((size_t)nd + 2) * sizeof(uint64_t));
	for (uint64_t t = 0; t < n; t++) {
		uint32_t x = ids[t];
		int64_t d = OPT(reference)(&s, x, next[t], !seen[x]);
		if (d < 0) {
			free(seen);
			OPT(optstack_free)(&s);
			mrc_free(out);
			return -1;
		}
		if (d == 0) {
			seen[x] = 1;
			out->cold++;
		} else {
			out->hist[d]++;
		}
		if (check_every && (t + 1) % check_every == 0 && OPT(optstack_check)(&s, nd)) {
			free(seen);
			OPT(optstack_free)(&s);
			mrc_free(out);
			return -2;
		}
	}
	out->refs = n;
	out->maxd = s.depth;
	free(seen);
	OPT(optstack_free)(&s);
	return 0;
}

#undef OPT_MASK
