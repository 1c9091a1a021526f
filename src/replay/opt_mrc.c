/* One-pass OPT (Belady MIN) miss-ratio curve: the stack distance of every reference, so every
 * cache size at once (Mattson, Gecsei, Slutz and Traiger, "Evaluation techniques for storage
 * hierarchies", IBM Systems Journal 9(2), 1970: priority stack processing, with next use as
 * the priority).
 *
 * The update. When page x is referenced at depth d, x goes to the top; going down from the old
 * top to depth d - 1, a carried page is compared with each page in turn and the one needed
 * later (larger next use) is carried on. The pages that move are exactly the left-to-right
 * maxima of next use above d, and they come in runs of consecutive positions: within a run
 * each page moves down by one, the last one of the run is carried to the start of the next
 * run, and the last carried page takes depth d. So the update is a few rotations by one of
 * contiguous ranges of the stack. On the ARC traces there are 1.2 (P12) to 2.4 (OLTP) runs per
 * reference, but the runs are thousands of pages long: moving every page of a run, as a flat
 * array must, is what made the curve superlinear.
 *
 * The structure. The stack is cut into blocks of OPT_BLOCK positions, each a circular buffer
 * with its own head. Rotations never change a block's size, so a page's depth is its block
 * number times OPT_BLOCK plus its index inside the block, and only the page that crosses into
 * a block needs its block number changed. Rotating a whole block by one is O(1): step the head
 * back and write the incoming page where the outgoing one was. Each block keeps its largest
 * next use and its count of descents (neighbours not strictly increasing), both updated in
 * O(1) by a whole-block rotation, so a run is followed block by block (a block with no descent
 * that continues the run is skipped whole) and the next maximum is found from the block maxima.
 * A reference costs O(B) for the blocks at the ends of each run and O(1) for each block in
 * between, plus a scan of block maxima down to depth d: with B = 256, some 300 comparisons of
 * consecutive words for the deepest references of P12. The results are those of the flat
 * priority stack exactly (tests compare both with single-size OPT replays). */
#include "replay/ops.h"

#define OPT_BLOCK 128u /* a power of two */
#define OPT_MASK  (OPT_BLOCK - 1)

struct optstack {
	struct ent {
		uint32_t id, val; /* a page and its next use, side by side for the cache */
	} * e;			  /* nb * OPT_BLOCK slots, addressed through head[] */
	uint32_t *head;		  /* per block: physical slot of logical index 0 */
	uint32_t *desc;		  /* per block: i with val[i + 1] <= val[i] */
	uint32_t *bmax;		  /* per block: at least the largest val; exact after a full
				   * scan of the block or an increasing whole-block rotation */
	uint32_t *blk;		  /* per page: its block */
	uint32_t *tree;		  /* max over bmax: tree[cap + b] = bmax[b], tree[1] the root */
	uint32_t nb, cap, depth;
};

static inline uint32_t slot(const struct optstack *s, uint32_t b, uint32_t i)
{
	return b * OPT_BLOCK + ((s->head[b] + i) & OPT_MASK);
}

static inline uint32_t block_len(const struct optstack *s, uint32_t b)
{
	uint32_t n = s->depth - b * OPT_BLOCK;
	return n < OPT_BLOCK ? n : OPT_BLOCK;
}

/* bmax[b] = m, and the tree above it. */
static inline void set_bmax(struct optstack *s, uint32_t b, uint32_t m)
{
	s->bmax[b] = m;
	uint32_t i = s->cap + b;
	s->tree[i] = m;
	for (i >>= 1; i; i >>= 1) {
		uint32_t l = s->tree[2 * i], r = s->tree[2 * i + 1], t = l > r ? l : r;
		if (s->tree[i] == t)
			break;
		s->tree[i] = t;
	}
}

static inline uint32_t val_at(const struct optstack *s, uint32_t pos)
{
	return s->e[slot(s, pos / OPT_BLOCK, pos & OPT_MASK)].val;
}

static inline uint32_t lval(const struct optstack *s, uint32_t b, uint32_t i)
{
	return s->e[slot(s, b, i)].val;
}

/* The block's page at logical i leaves and page value v arrives somewhere: keep bmax. */
/* The largest next use in full block b, over the physical slots (order does not matter for a
 * maximum, and a plain loop over contiguous words vectorises). */
static uint32_t exact_bmax(const struct optstack *s, uint32_t b)
{
	const struct ent *v = s->e + (size_t)b * OPT_BLOCK;
	uint32_t m = 0;
	for (uint32_t i = 0; i < OPT_BLOCK; i++)
		m = v[i].val > m ? v[i].val : m;
	return m;
}

/* A page with next use gone leaves block b and one with v arrives. bmax only has to stay an
 * upper bound, so a departure never makes the block be rescanned here: a bound that turns
 * out too high is lowered by first_greater when it scans the whole block and finds nothing. */
static inline void bmax_replace(struct optstack *s, uint32_t b, uint32_t gone, uint32_t v)
{
	(void)gone;
	if (v > s->bmax[b])
		set_bmax(s, b, v);
}

/* Move logical a..b of a block (head h) to a+1..b+1, b + 1 < OPT_BLOCK; nothing if a > b. In
 * contiguous pieces of the circular buffer. */
static void shift_up(struct ent *es, uint32_t h, uint32_t a, uint32_t b)
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
		memmove(&es[dst + 1 - k], &es[src + 1 - k], (size_t)k * sizeof(*es));
		i -= k;
	}
}

/* Move logical a..b (a >= 1) to a-1..b-1; nothing if a > b. */
static void shift_down(struct ent *es, uint32_t h, uint32_t a, uint32_t b)
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
		memmove(&es[dst], &es[src], (size_t)k * sizeof(*es));
		i += k;
	}
}

/* Rotate positions lo..hi (one block, lo <= hi) down by one: page *cid enters at lo, the page
 * at hi leaves and comes back through *cid / *cval. desc and bmax follow in O(1): only the
 * neighbour pairs at lo and around hi change. */
static void rotate_part(struct optstack *s, uint32_t b, uint32_t lo, uint32_t hi, uint32_t *cid,
			uint32_t *cval)
{
	uint32_t n = block_len(s, b), ph = slot(s, b, hi);
	uint32_t oid = s->e[ph].id, oval = s->e[ph].val;
	int32_t dd = 0;
	if (lo > 0) /* (e[lo-1], e[lo]) becomes (e[lo-1], c); when lo == hi, e[lo] is e[hi] */
		dd += (int32_t)(*cval <= lval(s, b, lo - 1)) -
		      (int32_t)(lval(s, b, lo) <= lval(s, b, lo - 1));
	if (lo < hi) { /* (c, e[lo]) is new; (e[hi-1], e[hi]) goes */
		dd += (int32_t)(lval(s, b, lo) <= *cval);
		dd -= (int32_t)(oval <= lval(s, b, hi - 1));
	}
	if (hi + 1 < n) { /* (e[hi], e[hi+1]) becomes (x, e[hi+1]), x = e[hi-1] or c */
		uint32_t nxt = lval(s, b, hi + 1), x = lo < hi ? lval(s, b, hi - 1) : *cval;
		dd += (int32_t)(nxt <= x) - (int32_t)(nxt <= oval);
	}
	struct ent *es = s->e + (size_t)b * OPT_BLOCK;
	if (n == OPT_BLOCK && lo + (OPT_BLOCK - 1 - hi) < hi - lo) {
		/* Cheaper the other way round: rotate the whole block by one (O(1)), then move
		 * back what lies outside lo..hi. */
		uint32_t last = (s->head[b] + OPT_MASK) & OPT_MASK, eid = es[last].id,
			 ev = es[last].val;
		s->head[b] = last;
		shift_down(es, last, 1, lo);
		if (hi < OPT_MASK) {
			shift_down(es, last, hi + 2, OPT_MASK);
			es[(last + OPT_MASK) & OPT_MASK] = (struct ent){eid, ev};
		}
	} else {
		shift_up(es, s->head[b], lo, hi - 1);
	}
	uint32_t to = (s->head[b] + lo) & OPT_MASK;
	es[to] = (struct ent){*cid, *cval};
	s->blk[*cid] = b;
	s->desc[b] = (uint32_t)((int32_t)s->desc[b] + dd);
	bmax_replace(s, b, oval, *cval);
	*cid = oid;
	*cval = oval;
}

/* Overwrite the value at logical i of block b (page id stays or is replaced by the caller). */
static void set_val(struct optstack *s, uint32_t b, uint32_t i, uint32_t v)
{
	uint32_t n = block_len(s, b), ph = slot(s, b, i), old = s->e[ph].val;
	int32_t dd = 0;
	if (i > 0) {
		uint32_t p = lval(s, b, i - 1);
		dd += (int32_t)(v <= p) - (int32_t)(old <= p);
	}
	if (i + 1 < n) {
		uint32_t q = lval(s, b, i + 1);
		dd += (int32_t)(q <= v) - (int32_t)(q <= old);
	}
	s->e[ph].val = v;
	s->desc[b] = (uint32_t)((int32_t)s->desc[b] + dd);
	bmax_replace(s, b, old, v);
}

/* The same for a whole full block, in O(1). */
static void rotate_block(struct optstack *s, uint32_t b, uint32_t *cid, uint32_t *cval)
{
	uint32_t last = slot(s, b, OPT_BLOCK - 1), first = slot(s, b, 0);
	uint32_t oid = s->e[last].id, oval = s->e[last].val;
	uint32_t before_last = s->e[slot(s, b, OPT_BLOCK - 2)].val, first_val = s->e[first].val;
	uint32_t dsc = s->desc[b] - (oval <= before_last) + (first_val <= *cval);
	s->head[b] = (s->head[b] - 1) & OPT_MASK;
	s->e[last].id = *cid; /* the slot of the leaving page is the new logical 0 */
	s->e[last].val = *cval;
	s->blk[*cid] = b;
	s->desc[b] = dsc;
	if (dsc == 0)
		set_bmax(s, b, before_last); /* increasing: the largest is the new last */
	else
		bmax_replace(s, b, oval, *cval);
	*cid = oid;
	*cval = oval;
}

/* Rotate positions lo..hi (any blocks) down by one, carrying (*cid, *cval) in and out. */
static void rotate_range(struct optstack *s, uint32_t lo, uint32_t hi, uint32_t *cid,
			 uint32_t *cval)
{
	uint32_t bl = lo / OPT_BLOCK, bh = hi / OPT_BLOCK;
	if (bl == bh) {
		rotate_part(s, bl, lo & OPT_MASK, hi & OPT_MASK, cid, cval);
		return;
	}
	/* Right to left would need the page leaving the lower block first; going left to right,
	 * each block's leaving page is the next block's entering one. */
	rotate_part(s, bl, lo & OPT_MASK, OPT_MASK, cid, cval);
	for (uint32_t b = bl + 1; b < bh; b++)
		rotate_block(s, b, cid, cval);
	if ((hi & OPT_MASK) == OPT_MASK && block_len(s, bh) == OPT_BLOCK)
		rotate_block(s, bh, cid, cval);
	else
		rotate_part(s, bh, 0, hi & OPT_MASK, cid, cval);
}

/* Last position of the strictly increasing run of next uses that starts at a, not past lim. */
static uint32_t run_end(const struct optstack *s, uint32_t a, uint32_t lim)
{
	uint32_t p = a, v = val_at(s, a);
	while (p < lim) {
		uint32_t b = (p + 1) / OPT_BLOCK;
		if (((p + 1) & OPT_MASK) == 0 && b * OPT_BLOCK + OPT_BLOCK - 1 <= lim &&
		    !s->desc[b] && s->e[slot(s, b, 0)].val > v) {
			p = b * OPT_BLOCK + OPT_BLOCK - 1; /* the whole block continues the run */
			v = s->e[slot(s, b, OPT_BLOCK - 1)].val;
			continue;
		}
		/* the rest of this block up to lim, in contiguous pieces, eight at a time */
		uint32_t end = b * OPT_BLOCK + OPT_MASK < lim ? b * OPT_BLOCK + OPT_MASK : lim;
		uint32_t off = (s->head[b] + ((p + 1) & OPT_MASK)) & OPT_MASK, len = end - p;
		if (len > OPT_BLOCK - off)
			len = OPT_BLOCK - off;
		const struct ent *q = s->e + (size_t)b * OPT_BLOCK + off;
		if (q[0].val <= v)
			return p;
		uint32_t j = 1;
		for (; j + 8 <= len; j += 8)
			if ((q[j].val <= q[j - 1].val) | (q[j + 1].val <= q[j].val) |
			    (q[j + 2].val <= q[j + 1].val) | (q[j + 3].val <= q[j + 2].val) |
			    (q[j + 4].val <= q[j + 3].val) | (q[j + 5].val <= q[j + 4].val) |
			    (q[j + 6].val <= q[j + 5].val) | (q[j + 7].val <= q[j + 6].val))
				break;
		for (; j < len; j++)
			if (q[j].val <= q[j - 1].val)
				return p + j;
		p += len;
		v = q[len - 1].val;
	}
	return p;
}

/* First logical index in i0..i1 of block b whose next use exceeds v, or UINT32_MAX. */
static uint32_t scan_greater(const struct optstack *s, uint32_t b, uint32_t i0, uint32_t i1,
			     uint32_t v)
{
	const struct ent *base = s->e + (size_t)b * OPT_BLOCK;
	uint32_t h = s->head[b];
	/* over the one or two contiguous pieces of the circular buffer, eight slots tested
	 * with a single branch */
	for (uint32_t i = i0; i <= i1;) {
		uint32_t ph = (h + i) & OPT_MASK, len = i1 - i + 1;
		if (len > OPT_BLOCK - ph)
			len = OPT_BLOCK - ph;
		const struct ent *p = base + ph;
		uint32_t j = 0;
		for (; j + 8 <= len; j += 8)
			if ((p[j].val > v) | (p[j + 1].val > v) | (p[j + 2].val > v) |
			    (p[j + 3].val > v) | (p[j + 4].val > v) | (p[j + 5].val > v) |
			    (p[j + 6].val > v) | (p[j + 7].val > v))
				break;
		for (; j < len; j++)
			if (p[j].val > v)
				return i + j;
		i += len;
	}
	return UINT32_MAX;
}

/* First block in lo..hi whose largest next use exceeds v, or UINT32_MAX: the segment tree
 * walked up from both ends, then down into the leftmost subtree that qualifies. */
static uint32_t tree_first_greater(const struct optstack *s, uint32_t lo, uint32_t hi, uint32_t v)
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

/* First position in lo..hi whose next use exceeds v, or UINT32_MAX. */
static uint32_t first_greater(struct optstack *s, uint32_t lo, uint32_t hi, uint32_t v)
{
	uint32_t bl = lo / OPT_BLOCK, bh = hi / OPT_BLOCK, i;
	if (bl == bh) {
		i = s->bmax[bl] > v ? scan_greater(s, bl, lo & OPT_MASK, hi & OPT_MASK, v)
				    : UINT32_MAX;
		return i == UINT32_MAX ? i : bl * OPT_BLOCK + i;
	}
	/* a block whose bound is not above v cannot hold the answer */
	i = s->bmax[bl] > v ? scan_greater(s, bl, lo & OPT_MASK, OPT_MASK, v) : UINT32_MAX;
	if (i != UINT32_MAX)
		return bl * OPT_BLOCK + i;
	/* whole blocks: the tree names the first whose bound is above v; a bound that was too
	 * high is made exact and the search goes on */
	for (uint32_t from = bl + 1; from + 1 <= bh;) {
		uint32_t b = tree_first_greater(s, from, bh - 1, v);
		if (b == UINT32_MAX)
			break;
		i = scan_greater(s, b, 0, OPT_MASK, v);
		if (i != UINT32_MAX)
			return b * OPT_BLOCK + i;
		set_bmax(s, b, exact_bmax(s, b));
		from = b + 1;
	}
	i = s->bmax[bh] > v ? scan_greater(s, bh, 0, hi & OPT_MASK, v) : UINT32_MAX;
	return i == UINT32_MAX ? i : bh * OPT_BLOCK + i;
}

static uint32_t depth_of(const struct optstack *s, uint32_t x)
{
	/* physical order is fine for finding it; slots past the end of a partial last block
	 * hold nothing valid, hence the length check */
	uint32_t b = s->blk[x], n = block_len(s, b);
	const struct ent *ids = s->e + (size_t)b * OPT_BLOCK;
	for (uint32_t j0 = 0; j0 < OPT_BLOCK; j0 += 8) {
		/* eight compares folded into one branch */
		if (!((ids[j0].id == x) | (ids[j0 + 1].id == x) | (ids[j0 + 2].id == x) |
		      (ids[j0 + 3].id == x) | (ids[j0 + 4].id == x) | (ids[j0 + 5].id == x) |
		      (ids[j0 + 6].id == x) | (ids[j0 + 7].id == x)))
			continue;
		for (uint32_t j = j0; j < j0 + 8; j++)
			if (ids[j].id == x) {
				uint32_t i = (j - s->head[b]) & OPT_MASK;
				if (i < n)
					return b * OPT_BLOCK + i;
			}
	}
	return UINT32_MAX; /* cannot happen: the block of a page holds it */
}

static int grow(struct optstack *s)
{
	uint32_t nc = s->cap ? s->cap * 2 : 16;
	uint32_t **blockarrs[] = {&s->head, &s->desc, &s->bmax};
	for (size_t i = 0; i < 3; i++) {
		*blockarrs[i] = xrealloc(*blockarrs[i], (size_t)nc * sizeof(uint32_t));
	}
	s->e = xrealloc(s->e, (size_t)nc * OPT_BLOCK * sizeof(*s->e));
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
static int push_slot(struct optstack *s)
{
	if (s->depth % OPT_BLOCK)
		return 0;
	if (s->nb == s->cap && grow(s))
		return -1;
	s->head[s->nb] = 0;
	s->desc[s->nb] = 0;
	s->bmax[s->nb] = 0; /* and its tree leaf, zeroed when the tree was built */
	s->nb++;
	return 0;
}

static void optstack_free(struct optstack *s)
{
	free(s->e);
	free(s->head);
	free(s->desc);
	free(s->bmax);
	free(s->blk);
	free(s->tree);
}

/* One reference to x with next use nx; returns its stack distance (1-based), 0 if cold. */
static int64_t reference(struct optstack *s, uint32_t x, uint32_t nx, int cold)
{
	uint32_t d;
	if (cold) {
		if (push_slot(s))
			return -1;
		d = s->depth++;
		uint32_t ph = slot(s, d / OPT_BLOCK, d & OPT_MASK);
		s->e[ph].id = x; /* a placeholder the chain overwrites */
		s->e[ph].val = 0;
		s->blk[x] = d / OPT_BLOCK;
		if (d & OPT_MASK)
			s->desc[d / OPT_BLOCK]++; /* 0 <= the value before it */
	} else {
		d = depth_of(s, x);
	}
	if (d == 0) {
		set_val(s, 0, 0, nx);
		return cold ? 0 : 1;
	}
	/* Positions 0..d-1 rotate along the chain of maxima; x enters at the top. */
	uint32_t cid = x, cval = nx, a = 0;
	for (;;) {
		uint32_t b = run_end(s, a, d - 1);
		rotate_range(s, a, b, &cid, &cval);
		if (b + 1 > d - 1)
			break;
		a = first_greater(s, b + 1, d - 1, cval);
		if (a == UINT32_MAX)
			break;
	}
	uint32_t bd = d / OPT_BLOCK, ph = slot(s, bd, d & OPT_MASK);
	s->e[ph].id = cid;
	s->blk[cid] = bd;
	set_val(s, bd, d & OPT_MASK, cval);
	return cold ? 0 : (int64_t)d + 1;
}

/* Every block summary and page-to-block link against a recount: 0 when sound. */
static int optstack_check(const struct optstack *s, uint32_t nd)
{
	for (uint32_t b = 0; b < s->nb; b++) {
		uint32_t n = block_len(s, b), m = 0, dsc = 0;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t v = lval(s, b, i);
			if (i && v <= lval(s, b, i - 1))
				dsc++;
			m = v > m ? v : m;
			uint32_t x = s->e[slot(s, b, i)].id;
			if (x > nd || s->blk[x] != b)
				return -1;
		}
		if (s->desc[b] != dsc || s->bmax[b] < m || s->tree[s->cap + b] != s->bmax[b])
			return -1;
	}
	for (uint32_t i = 1; i < s->cap; i++) {
		uint32_t l = s->tree[2 * i], r = s->tree[2 * i + 1];
		if (s->tree[i] != (l > r ? l : r))
			return -1;
	}
	return 0;
}

int opt_mrc(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t nd, struct mrc *out)
{
	return opt_mrc_checked(ids, next, n, nd, out, 0);
}

int opt_mrc_checked(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t nd,
		    struct mrc *out, uint64_t check_every)
{
	memset(out, 0, sizeof(*out));
	struct optstack s = {0};
	uint8_t *seen = xcalloc((size_t)nd + 1, 1);
	s.blk = xcalloc((size_t)nd + 1, sizeof(uint32_t));
	out->hist = xcalloc((size_t)nd + 2, sizeof(uint64_t));
	for (uint64_t t = 0; t < n; t++) {
		uint32_t x = ids[t];
		int64_t d = reference(&s, x, next[t], !seen[x]);
		if (d < 0) {
			free(seen);
			optstack_free(&s);
			mrc_free(out);
			return -1;
		}
		if (d == 0) {
			seen[x] = 1;
			out->cold++;
		} else {
			out->hist[d]++;
		}
		if (check_every && (t + 1) % check_every == 0 && optstack_check(&s, nd)) {
			free(seen);
			optstack_free(&s);
			mrc_free(out);
			return -2;
		}
	}
	out->refs = n;
	out->maxd = s.depth;
	free(seen);
	optstack_free(&s);
	return 0;
}
