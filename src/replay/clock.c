/* CLOCK (second chance) at one cache size: frames in a circle, one reference bit each. */
#include "replay/ops.h"

struct clock_sim {
	uint32_t *frame; /* ids in the clock, frame[hand] is the next candidate */
	uint8_t *refbit;
	uint32_t *slot; /* per id: frame index or NONE */
	uint32_t fcap, ncap, used, hand;
	uint64_t cache;
};

static void *clock_create(uint64_t cache, const struct replay_linux_cfg *lc)
{
	(void)lc;
	struct clock_sim *s = xcalloc(1, sizeof(*s));
	s->cache = cache;
	return s;
}

static void clock_destroy(void *st)
{
	struct clock_sim *s = st;
	xbig_free(s->frame);
	xbig_free(s->refbit);
	xbig_free(s->slot);
	free(s);
}

static int clock_access(void *st, uint32_t id, uint8_t kind, uint32_t next_use)
{
	(void)kind;
	(void)next_use;
	struct clock_sim *s = st;
	if (__builtin_expect(id >= s->ncap, 0))
		if (grow_array((void **)&s->slot, &s->ncap, id, sizeof(uint32_t), 0xff))
			return -1;
	uint32_t f = s->slot[id];
	if (f != NONE) {
		s->refbit[f] = 1;
		return 1;
	}
	if (s->used < s->cache) {
		/* Still filling: frames are taken in order, the hand stays at frame 0. */
		if (s->used == s->fcap) {
			uint32_t c = s->fcap;
			if (grow_array((void **)&s->frame, &c, s->used, sizeof(uint32_t), 0xff))
				return -1;
			c = s->fcap;
			if (grow_array((void **)&s->refbit, &c, s->used, 1, 0))
				return -1;
			s->fcap = c;
		}
		f = s->used++;
	} else {
		/* Second chance: clear set bits until a frame with the bit clear comes round. */
		while (s->refbit[s->hand]) {
			s->refbit[s->hand] = 0;
			if (++s->hand == s->used)
				s->hand = 0;
		}
		f = s->hand;
		s->slot[s->frame[f]] = NONE;
		if (++s->hand == s->used)
			s->hand = 0;
	}
	s->frame[f] = id;
	s->refbit[f] = 0; /* the faulting reference does not count as a second use */
	s->slot[id] = f;
	return 0;
}

static int clock_check(const void *st)
{
	const struct clock_sim *c = st;
	for (uint32_t f = 0; f < c->used; f++)
		if (c->frame[f] >= c->ncap || c->slot[c->frame[f]] != f)
			return -1;
	return c->used <= c->cache ? 0 : -1;
}

static size_t clock_bytes(const void *st)
{
	const struct clock_sim *s = st;
	return (size_t)s->ncap * 4 + (size_t)s->fcap * 5;
}

const struct replay_ops replay_clock_ops = {
    .name = "clock",
    .create = clock_create,
    .destroy = clock_destroy,
    .access = clock_access,
    .check = clock_check,
    .bytes = clock_bytes,
};
