/* Exact LRU at one cache size: one intrusive list, most recent at n[0].next. */
#include "replay/ops.h"

struct lru_sim {
	struct node *n; /* n[0] is the list head; page id i is node i + 1 */
	uint32_t ncap, size;
	uint64_t cache;
};

static void *lru_create(uint64_t cache, const struct replay_linux_cfg *lc)
{
	(void)lc;
	struct lru_sim *s = xcalloc(1, sizeof(*s));
	s->cache = cache;
	return s;
}

static void lru_destroy(void *st)
{
	struct lru_sim *s = st;
	free(s->n);
	free(s);
}

static int lru_access(void *st, uint32_t id, uint8_t kind, uint32_t next_use)
{
	(void)kind;
	(void)next_use;
	struct lru_sim *s = st;
	uint32_t x = id + 1;
	if (__builtin_expect(x >= s->ncap, 0)) {
		if (grow_array((void **)&s->n, &s->ncap, x, sizeof(struct node), 0xff))
			return -1;
		if (s->ncap && s->n[0].next == NONE)
			s->n[0].next = s->n[0].prev = 0;
	}
	struct node *n = s->n;
	if (n[x].next != NONE) {
		if (n[0].next == x)
			return 1;
		unlink_node(n, x);
		push_head(n, 0, x);
		return 1;
	}
	if (s->size == s->cache) {
		uint32_t v = n[0].prev;
		unlink_node(n, v);
		n[v].next = NONE;
	} else {
		s->size++;
	}
	push_head(n, 0, x);
	return 0;
}

static int lru_check(const void *st)
{
	const struct lru_sim *s = st;
	uint32_t cnt = 0, prev = 0;
	if (!s->ncap)
		return s->size != 0;
	for (uint32_t x = s->n[0].next; x != 0; x = s->n[x].next) {
		if (x >= s->ncap || s->n[x].prev != prev || ++cnt > s->size)
			return -1;
		prev = x;
	}
	return cnt == s->size && s->n[0].prev == prev ? 0 : -1;
}

static size_t lru_bytes(const void *st)
{
	const struct lru_sim *s = st;
	return (size_t)s->ncap * sizeof(struct node);
}

const struct replay_ops replay_lru_ops = {
    .name = "lru",
    .create = lru_create,
    .destroy = lru_destroy,
    .access = lru_access,
    .check = lru_check,
    .bytes = lru_bytes,
};
