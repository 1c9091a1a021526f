/* Exact LRU, CLOCK and FIFO, and the replay_sim front that dispatches to every policy. */
#include "replay/sim_impl.h"
#include "sim/xalloc.h"

static const char *const pol_names[REPLAY_NPOL] = {
    [REPLAY_LRU] = "lru", [REPLAY_CLOCK] = "clock", [REPLAY_FIFO] = "fifo",
    [REPLAY_OPT] = "opt", [REPLAY_LINUX] = "linux", [REPLAY_LINUX_EXEC] = "linux+exec",
};

const char *replay_policy_name(enum replay_policy p)
{
	return (unsigned)p < REPLAY_NPOL ? pol_names[p] : "?";
}

int replay_policy_parse(const char *name, enum replay_policy *p)
{
	for (int i = 0; i < REPLAY_NPOL; i++)
		if (!strcmp(name, pol_names[i])) {
			*p = (enum replay_policy)i;
			return 0;
		}
	if (!strcmp(name, "min") || !strcmp(name, "belady")) {
		*p = REPLAY_OPT;
		return 0;
	}
	return -1;
}

/* ---- LRU: one intrusive list, most recent at n[0].next ---- */

static inline void unlink_node(struct node *n, uint32_t x)
{
	n[n[x].prev].next = n[x].next;
	n[n[x].next].prev = n[x].prev;
}

static inline void push_head(struct node *n, uint32_t h, uint32_t x)
{
	uint32_t f = n[h].next;
	n[x].prev = h;
	n[x].next = f;
	n[f].prev = x;
	n[h].next = x;
}

int lru_access(struct lru_sim *s, uint32_t id)
{
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

static int lru_check(const struct lru_sim *s)
{
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

/* ---- CLOCK: frames in a circle, one reference bit each ---- */

int clock_access(struct clock_sim *s, uint32_t id)
{
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

/* ---- FIFO ---- */

int fifo_access(struct fifo_sim *s, uint32_t id)
{
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

/* ---- front ---- */

struct replay_sim *replay_sim_new(enum replay_policy p, uint64_t cache,
				  const struct replay_linux_cfg *lc)
{
	if ((unsigned)p >= REPLAY_NPOL || cache == 0)
		return NULL;
	struct replay_sim *s = xcalloc(1, sizeof(*s));
	s->policy = p;
	/* A cache larger than the id space behaves like an infinite one. */
	if (cache > NONE - 2)
		cache = NONE - 2;
	switch (p) {
	case REPLAY_LRU:
		s->u.lru.cache = cache;
		break;
	case REPLAY_CLOCK:
		s->u.clock.cache = cache;
		break;
	case REPLAY_FIFO:
		s->u.fifo.cache = cache;
		break;
	case REPLAY_OPT:
		s->u.opt.cache = cache;
		break;
	case REPLAY_LINUX:
	case REPLAY_LINUX_EXEC:
		linux_init(&s->u.lx, cache, lc, p == REPLAY_LINUX_EXEC);
		break;
	default:
		break;
	}
	return s;
}

void replay_sim_free(struct replay_sim *s)
{
	if (!s)
		return;
	switch (s->policy) {
	case REPLAY_LRU:
		free(s->u.lru.n);
		break;
	case REPLAY_CLOCK:
		free(s->u.clock.frame);
		free(s->u.clock.refbit);
		free(s->u.clock.slot);
		break;
	case REPLAY_FIFO:
		free(s->u.fifo.ring);
		free(s->u.fifo.in);
		break;
	case REPLAY_OPT:
		free(s->u.opt.heap);
		free(s->u.opt.hpos);
		free(s->u.opt.key);
		break;
	default:
		free(s->u.lx.n);
		free(s->u.lx.fl);
		break;
	}
	free(s);
}

int replay_sim_access(struct replay_sim *s, uint32_t id, uint8_t kind, uint32_t next_use)
{
	int r;
	switch (s->policy) {
	case REPLAY_LRU:
		r = lru_access(&s->u.lru, id);
		break;
	case REPLAY_CLOCK:
		r = clock_access(&s->u.clock, id);
		break;
	case REPLAY_FIFO:
		r = fifo_access(&s->u.fifo, id);
		break;
	case REPLAY_OPT:
		r = opt_access(&s->u.opt, id, next_use);
		break;
	default:
		r = linux_access(&s->u.lx, id, kind);
		break;
	}
	if (r > 0)
		s->hits++;
	else if (r == 0)
		s->misses++;
	return r;
}

void replay_sim_result(const struct replay_sim *s, struct replay_result *r)
{
	memset(r, 0, sizeof(*r));
	if (s->policy == REPLAY_LINUX || s->policy == REPLAY_LINUX_EXEC)
		*r = s->u.lx.st;
	r->hits = s->hits;
	r->misses = s->misses;
	r->refs = s->hits + s->misses;
}

int replay_sim_check(const struct replay_sim *s)
{
	switch (s->policy) {
	case REPLAY_LRU:
		return lru_check(&s->u.lru);
	case REPLAY_CLOCK: {
		const struct clock_sim *c = &s->u.clock;
		for (uint32_t f = 0; f < c->used; f++)
			if (c->frame[f] >= c->ncap || c->slot[c->frame[f]] != f)
				return -1;
		return c->used <= c->cache ? 0 : -1;
	}
	case REPLAY_FIFO: {
		const struct fifo_sim *f = &s->u.fifo;
		for (uint32_t i = 0; i < f->used; i++)
			if (f->ring[i] >= f->ncap || !f->in[f->ring[i]])
				return -1;
		return f->used <= f->cache ? 0 : -1;
	}
	case REPLAY_OPT:
		return opt_check(&s->u.opt);
	default:
		return linux_check(&s->u.lx);
	}
}

size_t replay_sim_bytes(const struct replay_sim *s)
{
	switch (s->policy) {
	case REPLAY_LRU:
		return (size_t)s->u.lru.ncap * sizeof(struct node);
	case REPLAY_CLOCK:
		return (size_t)s->u.clock.ncap * 4 + (size_t)s->u.clock.fcap * 5;
	case REPLAY_FIFO:
		return (size_t)s->u.fifo.ncap + (size_t)s->u.fifo.rcap * 4;
	case REPLAY_OPT:
		return (size_t)s->u.opt.ncap * 8 + (size_t)s->u.opt.hcap * 4;
	default:
		return (size_t)s->u.lx.ncap * (sizeof(struct node) + 1);
	}
}
