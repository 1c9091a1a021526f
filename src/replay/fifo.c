/* FIFO at one cache size: a ring of resident ids, the oldest at head. */
#include "replay/ops.h"

struct fifo_sim {
	uint32_t *ring;
	uint8_t *in; /* per id */
	uint32_t rcap, ncap, used, head;
	uint64_t cache;
};

static void *fifo_create(uint64_t cache, const struct replay_linux_cfg *lc)
{
	(void)lc;
	struct fifo_sim *s = xcalloc(1, sizeof(*s));
	s->cache = cache;
	return s;
}

static void fifo_destroy(void *st)
{
	struct fifo_sim *s = st;
	xbig_free(s->ring);
	xbig_free(s->in);
	free(s);
}

static int fifo_access(void *st, uint32_t id, uint8_t kind, uint32_t next_use)
{
	(void)kind;
	(void)next_use;
	struct fifo_sim *s = st;
	if (__builtin_expect(id >= s->ncap, 0))
		if (grow_array((void **)&s->in, &s->ncap, id, 1, 0))
			return -1;
	if (s->in[id])
		return 1;
	if (s->used < s->cache) {
		if (s->used == s->rcap)
			if (grow_array((void **)&s->ring, &s->rcap, s->used, sizeof(uint32_t), 0))
				return -1;
		s->ring[s->used++] = id;
	} else {
		s->in[s->ring[s->head]] = 0;
		s->ring[s->head] = id;
		if (++s->head == s->used)
			s->head = 0;
	}
	s->in[id] = 1;
	return 0;
}

static int fifo_check(const void *st)
{
	const struct fifo_sim *f = st;
	for (uint32_t i = 0; i < f->used; i++)
		if (f->ring[i] >= f->ncap || !f->in[f->ring[i]])
			return -1;
	return f->used <= f->cache ? 0 : -1;
}

static size_t fifo_bytes(const void *st)
{
	const struct fifo_sim *s = st;
	return (size_t)s->ncap + (size_t)s->rcap * 4;
}

const struct replay_ops replay_fifo_ops = {
    .name = "fifo",
    .create = fifo_create,
    .destroy = fifo_destroy,
    .access = fifo_access,
    .check = fifo_check,
    .bytes = fifo_bytes,
};
