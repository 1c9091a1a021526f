/* Exact LRU at one cache size, as a queue of references with lazy deletion.
 *
 * Every reference appends its id to a ring; a page's latest entry is the one pos[id] points
 * at, and its older entries are stale. The resident pages in order of last reference are the
 * live entries from tail to head, so the least recently used page is the first live entry at
 * the tail: an eviction pops entries until it finds one. This evicts exactly the page a
 * doubly linked list would, but nothing chases pointers: the per-page state touched by a
 * reference is pos[id] (known from the id stream, so a batch prefetches it ahead) and the
 * victim's pos (known from the ring ahead of the tail, prefetched likewise); the ring itself
 * is read and written in order. A linked list's eviction instead waits for the tail node's
 * neighbour, one dependent cache miss per miss, which no prefetch can run ahead of.
 *
 * The ring holds at least LRU_SLACK times the resident pages: when it fills, the live entries
 * are packed (in order) at the tail, or moved into a ring twice the size when they take more
 * than 1/LRU_SLACK of it, so each packing is paid for by the 3/4 ring of references since the
 * last one. (At 2x, OLTP at 64 Ki pages, mostly hits, packed every 64 Ki references and spent
 * 7% of its replay there.) */
#include "replay/ops.h"

struct lru_sim {
	uint32_t *pos;	/* per id: ring index of its latest entry if resident, NONE otherwise */
	uint32_t *ring; /* ids in order of reference, stale entries included */
	uint32_t pcap;	/* ids pos can hold */
	uint32_t rmask; /* ring size - 1 (a power of two) */
	uint32_t head;	/* free-running: the next entry goes to ring[head & rmask] */
	uint32_t tail;	/* free-running: the oldest entry not yet popped */
	uint32_t size;	/* resident pages */
	uint32_t cache; /* capacity in pages */
};

/* How many references ahead a batch prefetches the per-page state. */
#define LRU_AHEAD    16
#define LRU_RING_MIN 1024u
#define LRU_SLACK    4
/* The largest ring; at that size it packs in place however full, which works while fewer pages
 * are resident than it has entries: true of ids below PAGEMAP_MAX_IDS. */
#define LRU_RING_MAX (1u << 31)

static void *lru_create(uint64_t cache, const struct replay_linux_cfg *lc)
{
	(void)lc;
	struct lru_sim *s = xcalloc(1, sizeof(*s));
	s->cache = (uint32_t)cache; /* sim.c caps it below NONE - 1 */
	s->rmask = LRU_RING_MIN - 1;
	s->ring = xbig_alloc(LRU_RING_MIN * sizeof(*s->ring)); /* prefetches read any slot */
	return s;
}

static void lru_destroy(void *st)
{
	struct lru_sim *s = st;
	xbig_free(s->pos);
	xbig_free(s->ring);
	free(s);
}

/* The ring is full: pack its live entries, into a twice larger ring if they fill more than
 * 1/LRU_SLACK of it. */
__attribute__((noinline)) static void make_room(struct lru_sim *s)
{
	uint32_t rsize = s->rmask + 1;
	uint32_t *dst = s->ring, dmask = s->rmask;
	if ((uint64_t)s->size * LRU_SLACK > rsize && rsize < LRU_RING_MAX) {
		dst = xbig_alloc((size_t)rsize * 2 * sizeof(*dst));
		dmask = rsize * 2 - 1;
	}
	uint32_t w = dst == s->ring ? s->tail : 0;
	for (uint32_t r = s->tail; r != s->head; r++) {
		__builtin_prefetch(&s->pos[s->ring[(r + LRU_AHEAD) & s->rmask]], 1);
		uint32_t i = r & s->rmask, e = s->ring[i];
		/* without branches: live and stale entries come in no pattern to predict; a stale
		 * entry is written over by the next live one (w <= r, so nothing unread is lost) */
		int live = s->pos[e] == i;
		dst[w & dmask] = e;
		s->pos[e] = live ? w & dmask : s->pos[e];
		w += (uint32_t)live;
	}
	if (dst != s->ring) {
		xbig_free(s->ring);
		s->ring = dst;
		s->rmask = dmask;
		s->tail = 0;
	}
	s->head = w;
}

/* The fields a reference changes, copied into a local for a batch: pos[] and ring[] are
 * uint32_t like them, so through the struct every store to either would force the compiler to
 * reload them all. */
struct lru_cur {
	uint32_t *pos, *ring;
	uint32_t rmask, head, tail;
	uint32_t room; /* cache - size: one register where two would spill */
	size_t misses; /* counted on the miss path alone: a count of hits costs every reference */
};

static inline struct lru_cur lru_load(const struct lru_sim *s)
{
	return (struct lru_cur){s->pos, s->ring, s->rmask, s->head, s->tail, s->cache - s->size, 0};
}

static inline void lru_store(struct lru_sim *s, const struct lru_cur *c)
{
	s->head = c->head;
	s->tail = c->tail;
	s->size = s->cache - c->room;
}

/* Entries the ring has free. A reference appends at most one, so this many references in a
 * row need no test for a full ring (evictions only free more). */
static inline uint32_t ring_free(const struct lru_cur *c)
{
	return c->rmask + 1 - (c->head - c->tail);
}

/* A reference; pos must hold id and the ring have a free entry. Forced inline: only then do
 * the fields of c live in registers across a batch. */
__attribute__((always_inline)) static inline void lru_ref(struct lru_cur *c, uint32_t id)
{
	uint32_t p = c->pos[id];
	if (p != NONE) {
		if (p == ((c->head - 1) & c->rmask))
			return; /* already the most recent: the ring would gain a stale entry */
	} else if (c->misses++, !c->room) {
		/* the least recently used page leaves */
		for (;;) {
			uint32_t i = c->tail++ & c->rmask;
			uint32_t e = c->ring[i];
			/* the entry a few pops from now (stale at worst: only a hint) */
			__builtin_prefetch(&c->pos[c->ring[(c->tail + LRU_AHEAD) & c->rmask]], 1);
			if (c->pos[e] == i) {
				c->pos[e] = NONE;
				break;
			}
		}
	} else {
		c->room--;
	}
	uint32_t i = c->head++ & c->rmask;
	c->ring[i] = id;
	c->pos[id] = i;
}

/* Make room in a full ring (packing may change every entry's place, so c is reloaded). */
static inline void lru_make_room(struct lru_sim *s, struct lru_cur *c)
{
	lru_store(s, c);
	make_room(s);
	size_t misses = c->misses;
	*c = lru_load(s);
	c->misses = misses;
}

static int lru_access(void *st, uint32_t id, uint8_t kind, uint32_t next_use)
{
	(void)kind;
	(void)next_use;
	struct lru_sim *s = st;
	if (__builtin_expect(id >= s->pcap, 0))
		grow_array((void **)&s->pos, &s->pcap, id, sizeof(*s->pos), 0xff);
	struct lru_cur c = lru_load(s);
	if (!ring_free(&c))
		lru_make_room(s, &c);
	lru_ref(&c, id);
	lru_store(s, &c);
	return !c.misses;
}

/* One reference of a batch; the caller prefetches its pos ahead. */
__attribute__((always_inline)) static inline void
lru_batch_ref(struct lru_sim *s, struct lru_cur *c, uint32_t *pcap, uint32_t id)
{
	/* per reference, not from a scan of the batch for its largest id first: that scan was a
	 * chain of dependent compares, and this test is always predicted */
	if (__builtin_expect(id >= *pcap, 0)) {
		grow_array((void **)&s->pos, &s->pcap, id, sizeof(*s->pos), 0xff);
		c->pos = s->pos;
		*pcap = s->pcap;
	}
	lru_ref(c, id);
}

static long lru_access_batch(void *st, const uint32_t *ids, const uint8_t *kinds, size_t n)
{
	(void)kinds;
	struct lru_sim *s = st;
	struct lru_cur c = lru_load(s);
	uint32_t pcap = s->pcap;
	const uint32_t *p = ids, *end = ids + n;
	/* where the prefetch ahead would pass the end: the loop before it has no test for that */
	const uint32_t *mid = n > LRU_AHEAD ? end - LRU_AHEAD : ids;
	while (p < end) {
		if (!ring_free(&c))
			lru_make_room(s, &c);
		/* the references that fit in the ring's free entries, with no test for it */
		const uint32_t *stop = end - p > ring_free(&c) ? p + ring_free(&c) : end;
		for (const uint32_t *e = stop < mid ? stop : mid; p < e; p++) {
			/* a prefetch past the end of pos is harmless: it cannot fault */
			__builtin_prefetch(&c.pos[p[LRU_AHEAD]], 1);
			lru_batch_ref(s, &c, &pcap, *p);
		}
		for (; p < stop; p++)
			lru_batch_ref(s, &c, &pcap, *p);
	}
	lru_store(s, &c);
	return (long)n - c.misses;
}

static int lru_check(const void *st)
{
	const struct lru_sim *s = st;
	if (s->head - s->tail > s->rmask + 1 || s->size > s->cache)
		return -1;
	uint32_t live = 0;
	for (uint32_t r = s->tail; r != s->head; r++) {
		uint32_t e = s->ring[r & s->rmask];
		if (e >= s->pcap)
			return -1;
		live += s->pos[e] == (r & s->rmask);
	}
	/* every resident page has its latest entry in the window, and only resident pages do */
	uint32_t resident = 0;
	for (uint32_t id = 0; id < s->pcap; id++) {
		uint32_t p = s->pos[id];
		if (p == NONE)
			continue;
		if (p > s->rmask || s->ring[p] != id ||
		    ((p - s->tail) & s->rmask) >= s->head - s->tail)
			return -1;
		resident++;
	}
	return live == s->size && resident == s->size ? 0 : -1;
}

static size_t lru_bytes(const void *st)
{
	const struct lru_sim *s = st;
	return ((size_t)s->pcap + s->rmask + 1) * sizeof(uint32_t);
}

const struct replay_ops replay_lru_ops = {
    .name = "lru",
    .create = lru_create,
    .destroy = lru_destroy,
    .access = lru_access,
    .access_batch = lru_access_batch,
    .check = lru_check,
    .bytes = lru_bytes,
};
