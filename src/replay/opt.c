/* OPT (Belady's MIN) at one cache size, with a heap of resident pages by next use; and the
 * next-use times every OPT needs.
 *
 * Both are demand paging: the referenced page always enters the cache, and on a miss with a
 * full cache the resident page whose next use is farthest away leaves. */
#include "replay/ops.h"

struct opt_sim {
	uint32_t *heap; /* max-heap of resident ids by next use */
	uint32_t *hpos; /* per id: heap index or NONE */
	uint32_t *key;	/* per id: next use */
	uint32_t hcap, ncap, size;
	uint64_t cache;
};

uint32_t *replay_next_use(const uint32_t *ids, uint64_t n, uint32_t ndistinct)
{
	if (n >= REPLAY_NEVER)
		return NULL;
	uint32_t *next = xbig_alloc((n ? n : 1) * sizeof(*next));
	uint32_t *last = xbig_alloc(((size_t)ndistinct + 1) * sizeof(*last));
	memset(last, 0xff, ((size_t)ndistinct + 1) * sizeof(*last));
	for (uint64_t t = n; t-- > 0;) {
		uint32_t x = ids[t];
		next[t] = last[x];
		last[x] = (uint32_t)t;
	}
	xbig_free(last);
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

static int opt_access(void *st, uint32_t id, uint8_t kind, uint32_t next)
{
	(void)kind;
	struct opt_sim *s = st;
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

static int opt_check(const void *st)
{
	const struct opt_sim *s = st;
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

static void *opt_create(uint64_t cache, const struct replay_linux_cfg *lc)
{
	(void)lc;
	struct opt_sim *s = xcalloc(1, sizeof(*s));
	s->cache = cache;
	return s;
}

static void opt_destroy(void *st)
{
	struct opt_sim *s = st;
	xbig_free(s->heap);
	xbig_free(s->hpos);
	xbig_free(s->key);
	free(s);
}

static size_t opt_bytes(const void *st)
{
	const struct opt_sim *s = st;
	return (size_t)s->ncap * 8 + (size_t)s->hcap * 4;
}

const struct replay_ops replay_opt_ops = {
    .name = "opt",
    .create = opt_create,
    .destroy = opt_destroy,
    .access = opt_access,
    .check = opt_check,
    .bytes = opt_bytes,
};
