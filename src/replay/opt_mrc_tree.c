/* One-pass OPT (Belady MIN) miss-ratio curve in O(log n) per reference, on-line: the stack
 * distance of a reference depends on the past only, so the trace is streamed like the LRU
 * curve's and next uses are never computed. This follows the critical-marker formulation of
 * Bilardi, Ekanadham and Pattnaik ("Optimal on-line computation of stack distances for MIN
 * and OPT", Computing Frontiers 2017), kept in time slots the way mrc.c keeps the LRU stack.
 *
 * The state. Time is cut into slots, one per reference that changes the state. Each page
 * holds a mark (a page bit) at the slot of its latest reference, so the LRU stack is the page
 * bits read from the newest slot down. There is one critical marker per cache size c >= 1
 * below the number of distinct pages seen (marker c belongs to caches of c + 1 pages), also a
 * slot (a marker bit; a slot holds at most one marker, as a marker is only ever placed at the
 * slot being written). For a page slot u let
 *
 *     beta(u) = #{marker bits after u} - #{page bits after u}     (always >= 0)
 *
 * (the paper's beta_i = #{c : M_c <= i} - i, with M_c the LRU depth of marker c and i the LRU
 * depth of the page at u).
 *
 * A reference to page x whose latest reference is at slot s:
 *   - first reference: cold. A page bit at a new slot and, from the second page on, a new
 *     marker there too (the paper's markers all move one down and a new one enters at 1);
 *   - x is the newest page: distance 1, nothing changes;
 *   - otherwise: z = the oldest page slot after s with beta(z) = 0 (the newest page always
 *     qualifies); c = the smallest cache index whose marker is at or before z; the distance
 *     is c + 1. Then x's page bit moves from s to a new slot and marker c moves there too.
 *
 * The structures. Marker and page bits are two bitmaps, 64 slots a word. A segment tree over
 * the words keeps, per node, the sum of (marker - page) bits in its range and the least suffix
 * sum (over its range, after a page slot) at its page slots: z is the leftmost page slot after
 * s whose suffix sum to the end is 0, found by one descent that carries the sum of what lies
 * to the right (O(log n)). A second tree over cache indices keeps the least marker slot, and c
 * is the leftmost index whose slot is <= z (O(log n); 16 children a node, one cache line a level,
 * the markers' array its bottom level). An update clears two bits, whose words are recomputed and
 * walked up together, and sets two at the newest slot, whose word needs no recount. When the slots
 * run out, the live ones (at most two per page) are renumbered in order and everything rebuilt,
 * which keeps the slots within about four per distinct page and costs O(1) amortised per reference.
 *
 * The results are those of the flat priority stack and of single-size OPT replays (the tests
 * compare all three on random strings at every size, and the shared traces against opt_mrc). */
#include "replay/ops.h"
#include "sim/xalloc.h"

#define CS_INF	     (1 << 30) /* least suffix of a range without page bits */
#define CS_NONE	     UINT32_MAX
#define CS_MAX_PAGES (1u << 28) /* keeps every sum far from CS_INF in 32 bits */
#define CS_CB	     16u	/* children of a node of the cache-index tree: one cache line */
#define CS_LEVELS    8		/* its levels above theta[]: 16^8 indices */

/* A range of slots: the sum of its (marker - page) bits, and the least sum of the bits after a
 * page slot within the range (CS_INF without page slots). */
struct cs_node {
	int32_t sum, min;
};

struct opt_mrc_tree {
	uint32_t *last;	   /* per id: slot of its latest reference, 0 = not seen yet */
	uint32_t *theta;   /* per cache index c >= 1: slot of its marker */
	uint64_t *mark;	   /* per slot: a marker bit; W words */
	uint64_t *page;	   /* per slot: a page bit */
	struct cs_node *t; /* slot tree over the words, 2 * P nodes, leaf P + w */
	/* the cache-index tree, CS_CB children a node: lev[k][j] = the least marker slot of
	 * lev[k - 1][CS_CB * j ...] (lev[0] = theta), each level padded to whole nodes with
	 * CS_NONE; nlev levels above theta, the top one a single node */
	uint32_t *lev[CS_LEVELS + 1], nlev;
	uint64_t *hist;
	uint32_t ncap, hcap, S, W, P, CP, now, top, pages;
	uint64_t refs, cold;
};

static inline int32_t cs_min(int32_t a, int32_t b)
{
	return a < b ? a : b;
}

/* The same for the sixteen combinations of four marker bits and four page bits: nib[a << 4 | b]
 * = (sum, least), read from the top bit down, least NIB_NONE without a page bit. Sums inside a
 * word stay within -64..64 and so does any suffix sum a search adds to them (beta >= 0 at page
 * slots, and only marker bits lie between), so NIB_NONE plus any of them never qualifies. */
#define NIB_NONE 200
static struct {
	int16_t sum, min;
} nib[256];

static void cs_init_nib(void)
{
	if (nib[0].min)
		return;
	for (unsigned i = 0; i < 256; i++) {
		unsigned a = i >> 4, b = i & 15;
		int run = 0, least = NIB_NONE;
		for (int u = 3; u >= 0; u--) {
			if (b >> u & 1) {
				least = run < least ? run : least;
				run--;
			}
			if (a >> u & 1)
				run++;
		}
		nib[i].sum = (int16_t)run;
		nib[i].min = (int16_t)least;
	}
}

static inline unsigned nib_at(uint64_t a, uint64_t b, unsigned k)
{
	return (unsigned)((a >> (4 * k) & 15) << 4 | (b >> (4 * k) & 15));
}

/* The aggregates of one word (marker bits a, page bits b), from its sixteen nibbles, without
 * branches. */
static inline struct cs_node cs_bits(uint64_t a, uint64_t b)
{
	int32_t run = 0, least = CS_INF;
	for (int k = 15; k >= 0; k--) {
		unsigned i = nib_at(a, b, (unsigned)k);
		least = cs_min(least, run + nib[i].min);
		run += nib[i].sum;
	}
	return (struct cs_node){run, b ? least : CS_INF};
}

static inline struct cs_node cs_join(struct cs_node l, struct cs_node r)
{
	return (struct cs_node){l.sum + r.sum, cs_min(l.min + r.sum, r.min)};
}

/* Recompute word w's leaf and the nodes above it, stopping where nothing changes. */
static void cs_fix(struct opt_mrc_tree *m, uint32_t w)
{
	uint32_t i = m->P + w;
	m->t[i] = cs_bits(m->mark[w], m->page[w]);
	for (i >>= 1; i; i >>= 1) {
		struct cs_node v = cs_join(m->t[2 * i], m->t[2 * i + 1]);
		if (m->t[i].sum == v.sum && m->t[i].min == v.min)
			break;
		m->t[i] = v;
	}
}

/* A page bit and a marker bit were set at slot t of word w, the newest slot: the sums after
 * the word's other slots are as they were, the new page's is 0 within the word. */
static void cs_push_top(struct opt_mrc_tree *m, uint32_t w)
{
	uint32_t i = m->P + w;
	if (m->t[i].min <= 0)
		return;
	m->t[i].min = 0;
	for (i >>= 1; i; i >>= 1) {
		int32_t mn = cs_min(m->t[2 * i].min + m->t[2 * i + 1].sum, m->t[2 * i + 1].min);
		if (m->t[i].min == mn)
			break;
		m->t[i].min = mn;
	}
}

/* Words v and w changed (v != w): both leaves, then both paths up together until they meet, and
 * from there one walk that stops where nothing changes (above the meeting point the sums of a
 * warm reference are as they were: one page bit and one marker bit went away below it). */
static void cs_fix2(struct opt_mrc_tree *m, uint32_t v, uint32_t w)
{
	uint32_t i = m->P + v, j = m->P + w;
	m->t[i] = cs_bits(m->mark[v], m->page[v]);
	m->t[j] = cs_bits(m->mark[w], m->page[w]);
	for (i >>= 1, j >>= 1; i != j; i >>= 1, j >>= 1) {
		m->t[i] = cs_join(m->t[2 * i], m->t[2 * i + 1]);
		m->t[j] = cs_join(m->t[2 * j], m->t[2 * j + 1]);
	}
	for (; i; i >>= 1) {
		struct cs_node n = cs_join(m->t[2 * i], m->t[2 * i + 1]);
		if (m->t[i].sum == n.sum && m->t[i].min == n.min)
			break;
		m->t[i] = n;
	}
}

static void cs_build(struct opt_mrc_tree *m)
{
	for (uint32_t w = 0; w < m->P; w++)
		m->t[m->P + w] =
		    w < m->W ? cs_bits(m->mark[w], m->page[w]) : (struct cs_node){0, CS_INF};
	for (uint32_t i = m->P - 1; i; i--)
		m->t[i] = cs_join(m->t[2 * i], m->t[2 * i + 1]);
}

/* The lowest page slot of word w (marker bits a, page bits b) whose sum of the bits after it,
 * plus r, is <= 0; CS_NONE if none. */
static uint32_t cs_word_find(uint32_t w, uint64_t a, uint64_t b, int32_t r)
{
	int32_t run = r, at = -1, before = 0;
	for (int k = 15; k >= 0; k--) { /* the lowest nibble that qualifies */
		unsigned i = nib_at(a, b, (unsigned)k);
		int hit = run + nib[i].min <= 0;
		at = hit ? k : at;
		before = hit ? run : before;
		run += nib[i].sum;
	}
	if (at < 0)
		return CS_NONE;
	uint32_t lowest = CS_NONE;
	run = before;
	for (int u = 4 * at + 3; u >= 4 * at; u--) {
		if (b >> u & 1) {
			if (run <= 0)
				lowest = (uint32_t)u;
			run--;
		}
		if (a >> u & 1)
			run++;
	}
	return w * 64 + lowest;
}

/* The lowest page slot >= l whose sum of the bits after it (to the end) is <= 0, CS_NONE if
 * none: down to l's word, then into the first subtree to its right that holds one. */
static uint32_t cs_find(const struct opt_mrc_tree *m, uint32_t l)
{
	uint32_t lw = l / 64, node = 1, lo = 0, hi = m->P - 1, nr = 0, rights[40];
	int32_t r = 0, rr[40];
	while (node < m->P) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (lw <= mid) {
			rights[nr] = 2 * node + 1; /* tried after the left side, nearest first */
			rr[nr++] = r;
			r += m->t[2 * node + 1].sum;
			node = 2 * node;
			hi = mid;
		} else {
			node = 2 * node + 1;
			lo = mid + 1;
		}
	}
	/* slots below l do not count in the sums after slots >= l */
	if (m->t[node].min + r <= 0) { /* the whole word's least sum: none if it is above 0 */
		uint64_t keep = ~0ull << (l % 64);
		uint32_t f = cs_word_find(lw, m->mark[lw] & keep, m->page[lw] & keep, r);
		if (f != CS_NONE)
			return f;
	}
	while (nr--) {
		node = rights[nr];
		r = rr[nr];
		if (m->t[node].min + r > 0)
			continue;
		while (node < m->P) { /* the left child if it holds one, else the right */
			int32_t rl = r + m->t[2 * node + 1].sum;
			if (m->t[2 * node].min + rl <= 0) {
				node = 2 * node;
				r = rl;
			} else {
				node = 2 * node + 1;
			}
		}
		uint32_t w = node - m->P;
		return cs_word_find(w, m->mark[w], m->page[w], r);
	}
	return CS_NONE;
}

/* The least of the CS_CB words at v (one node's children). */
static inline uint32_t cs_min16(const uint32_t *v)
{
	uint32_t mn = CS_NONE;
	for (uint32_t j = 0; j < CS_CB; j++)
		mn = v[j] < mn ? v[j] : mn;
	return mn;
}

/* The first of the CS_CB words at v that is <= z (one exists). */
static inline uint32_t cs_first16(const uint32_t *v, uint32_t z)
{
	unsigned bits = 0;
	for (uint32_t j = 0; j < CS_CB; j++)
		bits |= (unsigned)(v[j] <= z) << j;
	return (uint32_t)__builtin_ctz(bits);
}

static void cs_cset(struct opt_mrc_tree *m, uint32_t c, uint32_t slot)
{
	m->theta[c] = slot;
	for (uint32_t k = 1; k <= m->nlev; k++) {
		c /= CS_CB;
		uint32_t v = cs_min16(m->lev[k - 1] + (size_t)c * CS_CB);
		if (m->lev[k][c] == v)
			break;
		m->lev[k][c] = v;
	}
}

static void cs_cbuild(struct opt_mrc_tree *m)
{
	uint32_t n = m->CP;
	for (uint32_t k = 1; k <= m->nlev; k++) {
		uint32_t up = (n + CS_CB - 1) / CS_CB;
		for (uint32_t j = 0; j < up; j++)
			m->lev[k][j] = cs_min16(m->lev[k - 1] + (size_t)j * CS_CB);
		for (uint32_t j = up; j < CS_CB; j++)
			m->lev[k][j] = CS_NONE;
		n = up;
	}
}

/* The smallest cache index whose marker slot is <= z (one exists: see the header): from the
 * top node down, the first child that holds one, one cache line a level. */
static uint32_t cs_cfind(const struct opt_mrc_tree *m, uint32_t z)
{
	uint32_t j = 0;
	if (cs_min16(m->lev[m->nlev]) > z)
		return CS_NONE;
	for (uint32_t k = m->nlev + 1; k--;)
		j = j * CS_CB + cs_first16(m->lev[k] + (size_t)j * CS_CB, z);
	return j;
}

static inline void bit_set(uint64_t *v, uint32_t s)
{
	v[s >> 6] |= 1ull << (s & 63);
}

static inline void bit_clear(uint64_t *v, uint32_t s)
{
	v[s >> 6] &= ~(1ull << (s & 63));
}

/* Renumber the live slots 1..L in order and size everything for about 2L slots. */
static int cs_compact(struct opt_mrc_tree *m)
{
	uint32_t L = 0, *pre = xmalloc(((size_t)m->W + 1) * sizeof(uint32_t));
	for (uint32_t w = 0; w < m->W; w++) {
		pre[w] = L;
		L += (uint32_t)__builtin_popcountll(m->mark[w] | m->page[w]);
	}
#define CS_NEW(u)                                                                                  \
	(1 + pre[(u) >> 6] +                                                                       \
	 (uint32_t)__builtin_popcountll((m->mark[(u) >> 6] | m->page[(u) >> 6]) &                  \
					((1ull << ((u)&63)) - 1)))
	for (uint32_t x = 0; x < m->ncap; x++)
		if (m->last[x])
			m->last[x] = CS_NEW(m->last[x]);
	for (uint32_t c = 1; c < m->pages; c++)
		m->theta[c] = CS_NEW(m->theta[c]);
	if (m->top)
		m->top = CS_NEW(m->top);
#undef CS_NEW
	free(pre);
	uint64_t ns = ((2 * (uint64_t)L + 4096) | 63) + 1; /* a multiple of 64 */
	if (ns > ((uint64_t)1 << 31))
		return -1;
	if (ns > m->S) {
		uint32_t w = (uint32_t)(ns / 64), p = 1;
		while (p < w)
			p *= 2;
		xbig_free(m->mark);
		xbig_free(m->page);
		xbig_free(m->t);
		m->mark = xbig_alloc((size_t)w * sizeof(uint64_t));
		m->page = xbig_alloc((size_t)w * sizeof(uint64_t));
		m->t = xbig_alloc(2 * (size_t)p * sizeof(struct cs_node));
		m->S = (uint32_t)ns;
		m->W = w;
		m->P = p;
	}
	memset(m->mark, 0, (size_t)m->W * sizeof(uint64_t));
	memset(m->page, 0, (size_t)m->W * sizeof(uint64_t));
	for (uint32_t x = 0; x < m->ncap; x++)
		if (m->last[x])
			bit_set(m->page, m->last[x]);
	for (uint32_t c = 1; c < m->pages; c++)
		bit_set(m->mark, m->theta[c]);
	cs_build(m);
	cs_cbuild(m);
	m->now = L + 1;
	return 0;
}

/* Room for cache index c in theta and the cache-index tree. */
static void cs_grow_caches(struct opt_mrc_tree *m, uint32_t c)
{
	if (c < m->CP)
		return;
	uint32_t cp = m->CP ? m->CP : 1024;
	while (cp <= c)
		cp *= 2;
	m->theta = xbig_realloc(m->theta, (size_t)cp * sizeof(uint32_t));
	memset(m->theta + m->CP, 0xff, (size_t)(cp - m->CP) * sizeof(uint32_t));
	m->lev[0] = m->theta;
	for (uint32_t k = 1; k <= m->nlev; k++)
		xbig_free(m->lev[k]);
	uint32_t n = cp, k = 0;
	while (n > 1) { /* levels until one node holds them all */
		n = (n + CS_CB - 1) / CS_CB;
		m->lev[++k] = xbig_alloc((size_t)(n < CS_CB ? CS_CB : n) * sizeof(uint32_t));
	}
	m->nlev = k;
	m->CP = cp;
	cs_cbuild(m);
}

struct opt_mrc_tree *opt_mrc_tree_new(void)
{
	cs_init_nib();
	return xcalloc(1, sizeof(struct opt_mrc_tree));
}

size_t opt_mrc_tree_bytes(const struct opt_mrc_tree *m)
{
	return (size_t)m->ncap * 4 + (size_t)m->hcap * 8 + (size_t)m->CP * 4 +
	       (size_t)m->CP / CS_CB * 8 + (size_t)m->W * 16 + (size_t)m->P * 16;
}

/* A slot for the reference being processed. */
static inline int cs_slot(struct opt_mrc_tree *m, uint32_t *slot)
{
	if (m->now >= m->S && cs_compact(m))
		return -1;
	*slot = m->now++;
	return 0;
}

int opt_mrc_tree_access(struct opt_mrc_tree *m, uint32_t id)
{
	m->refs++;
	if (__builtin_expect(id >= m->ncap, 0))
		grow_array((void **)&m->last, &m->ncap, id, sizeof(uint32_t), 0);
	uint32_t s = m->last[id], t;
	if (!s) {
		if (m->pages + 1 >= CS_MAX_PAGES)
			return -1;
		m->cold++;
		if (m->pages + 1 >= m->hcap) {
			uint32_t c = m->hcap;
			grow_array((void **)&m->hist, &c, m->pages + 1, sizeof(uint64_t), 0);
			m->hcap = c;
		}
		cs_grow_caches(m, m->pages);
		if (cs_slot(m, &t))
			return -1;
		bit_set(m->page, t);
		if (m->pages >= 1) { /* a new marker for the new cache index, at the new slot */
			m->theta[m->pages] = t;
			bit_set(m->mark, t);
		}
		m->pages++;
		if (m->pages > 1)
			cs_cset(m, m->pages - 1, t);
		m->last[id] = t;
		m->top = t;
		if (m->pages > 1)
			cs_push_top(m, t >> 6);
		else
			cs_fix(m, t >> 6);
		return 0;
	}
	if (s == m->top) {
		m->hist[1]++;
		return 0;
	}
	uint32_t z = cs_find(m, s + 1);
	uint32_t c = z == CS_NONE ? CS_NONE : cs_cfind(m, z);
	if (c == CS_NONE)
		return -2; /* cannot happen: the newest page qualifies, and a marker is before it */
	m->hist[c + 1]++;
	if (cs_slot(m, &t))
		return -1;
	s = m->last[id]; /* a compaction renumbers */
	uint32_t old = m->theta[c];
	bit_clear(m->page, s);
	bit_clear(m->mark, old);
	bit_set(m->page, t);
	bit_set(m->mark, t);
	m->theta[c] = t;
	m->last[id] = t;
	m->top = t;
	if (old >> 6 != s >> 6)
		cs_fix2(m, s >> 6, old >> 6);
	else
		cs_fix(m, s >> 6);
	if (t >> 6 != s >> 6 && t >> 6 != old >> 6)
		cs_push_top(m, t >> 6);
	else
		cs_fix(m, t >> 6);
	cs_cset(m, c, t);
	return 0;
}

int opt_mrc_tree_access_batch(struct opt_mrc_tree *m, const uint32_t *ids, size_t n)
{
	uint32_t max = 0;
	for (size_t i = 0; i < n; i++)
		max = ids[i] > max ? ids[i] : max;
	if (n && max >= m->ncap)
		grow_array((void **)&m->last, &m->ncap, max, sizeof(uint32_t), 0);
	for (size_t i = 0; i < n; i++) {
		if (i + 16 < n)
			__builtin_prefetch(&m->last[ids[i + 16]]);
		int r = opt_mrc_tree_access(m, ids[i]);
		if (r)
			return r;
	}
	return 0;
}

/* Every aggregate against a recount, every page and marker against its bit, and beta >= 0 at
 * every page slot: 0 when sound. */
int opt_mrc_tree_check(const struct opt_mrc_tree *m)
{
	uint32_t np = 0, nm = 0;
	for (uint32_t x = 0; x < m->ncap; x++)
		if (m->last[x]) {
			np++;
			if (!(m->page[m->last[x] >> 6] >> (m->last[x] & 63) & 1))
				return -1;
		}
	for (uint32_t c = 1; c < m->pages; c++) {
		nm++;
		if (!(m->mark[m->theta[c] >> 6] >> (m->theta[c] & 63) & 1))
			return -1;
	}
	uint32_t bp = 0, bm = 0;
	int32_t run = 0;
	for (uint32_t w = m->W; w--;) { /* bit by bit, from the newest slot down */
		bp += (uint32_t)__builtin_popcountll(m->page[w]);
		bm += (uint32_t)__builtin_popcountll(m->mark[w]);
		int32_t wrun = 0, wmin = CS_INF;
		for (int u = 63; u >= 0; u--) {
			if (m->page[w] >> u & 1) {
				if (run < 0)
					return -1;
				wmin = cs_min(wmin, wrun);
				run--;
				wrun--;
			}
			if (m->mark[w] >> u & 1) {
				run++;
				wrun++;
			}
		}
		if (m->t[m->P + w].sum != wrun || m->t[m->P + w].min != wmin)
			return -1;
	}
	if (bp != np || bm != nm || (m->pages && run != -1))
		return -1;
	for (uint32_t i = 1; i < m->P; i++) {
		struct cs_node v = cs_join(m->t[2 * i], m->t[2 * i + 1]);
		if (m->t[i].sum != v.sum || m->t[i].min != v.min)
			return -1;
	}
	if (m->CP && m->theta[0] != CS_NONE)
		return -1;
	for (uint32_t c = m->pages ? m->pages : 1; c < m->CP; c++)
		if (m->theta[c] != CS_NONE)
			return -1;
	uint32_t n = m->CP;
	for (uint32_t k = 1; k <= m->nlev; k++) {
		uint32_t up = (n + CS_CB - 1) / CS_CB;
		for (uint32_t j = 0; j < (up < CS_CB ? CS_CB : up); j++) {
			uint32_t mn = CS_NONE;
			for (uint32_t i = j * CS_CB; j < up && i < (j + 1) * CS_CB; i++)
				mn = m->lev[k - 1][i] < mn ? m->lev[k - 1][i] : mn;
			if (m->lev[k][j] != mn)
				return -1;
		}
		n = up;
	}
	if (m->CP && n != 1)
		return -1;
	return 0;
}

int opt_mrc_tree_finish(struct opt_mrc_tree *m, struct mrc *out)
{
	memset(out, 0, sizeof(*out));
	out->refs = m->refs;
	out->cold = m->cold;
	out->maxd = m->pages;
	out->hist = m->hist ? m->hist : xbig_alloc(2 * sizeof(uint64_t));
	xbig_free(m->last);
	xbig_free(m->theta);
	xbig_free(m->mark);
	xbig_free(m->page);
	xbig_free(m->t);
	for (uint32_t k = 1; k <= m->nlev; k++)
		xbig_free(m->lev[k]);
	free(m);
	return 0;
}

void opt_mrc_tree_abort(struct opt_mrc_tree *m)
{
	struct mrc out;
	opt_mrc_tree_finish(m, &out);
	mrc_free(&out);
}
