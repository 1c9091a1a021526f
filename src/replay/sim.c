/* The replay_sim front: one table from enum replay_policy to each algorithm's ops, and the
 * hit/miss accounting every algorithm shares. A policy number outside the table is refused at
 * creation, so no hook is ever looked up for an unknown algorithm. */
#include "replay/ops.h"

static const struct replay_ops *const ops_table[REPLAY_NPOL] = {
    [REPLAY_LRU] = &replay_lru_ops,	[REPLAY_CLOCK] = &replay_clock_ops,
    [REPLAY_FIFO] = &replay_fifo_ops,	[REPLAY_OPT] = &replay_opt_ops,
    [REPLAY_LINUX] = &replay_linux_ops, [REPLAY_LINUX_EXEC] = &replay_linux_exec_ops,
};

/* Other names users know the algorithms by. */
static const struct {
	const char *alias;
	enum replay_policy p;
} aliases[] = {{"min", REPLAY_OPT}, {"belady", REPLAY_OPT}};

struct replay_sim {
	const struct replay_ops *ops;
	void *st;
	uint64_t hits, misses;
};

const char *replay_policy_name(enum replay_policy p)
{
	return (unsigned)p < REPLAY_NPOL ? ops_table[p]->name : "?";
}

int replay_policy_parse(const char *name, enum replay_policy *p)
{
	for (int i = 0; i < REPLAY_NPOL; i++)
		if (!strcmp(name, ops_table[i]->name)) {
			*p = (enum replay_policy)i;
			return 0;
		}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(name, aliases[i].alias)) {
			*p = aliases[i].p;
			return 0;
		}
	return -1;
}

struct replay_sim *replay_sim_new(enum replay_policy p, uint64_t cache,
				  const struct replay_linux_cfg *lc)
{
	static const struct replay_linux_cfg defaults;
	if ((unsigned)p >= REPLAY_NPOL || cache == 0)
		return NULL;
	struct replay_sim *s = xcalloc(1, sizeof(*s));
	/* A cache larger than the id space behaves like an infinite one. */
	if (cache > NONE - 2)
		cache = NONE - 2;
	s->ops = ops_table[p];
	s->st = s->ops->create(cache, lc ? lc : &defaults);
	return s;
}

void replay_sim_free(struct replay_sim *s)
{
	if (!s)
		return;
	s->ops->destroy(s->st);
	free(s);
}

int replay_sim_access(struct replay_sim *s, uint32_t id, uint8_t kind, uint32_t next_use)
{
	int r = s->ops->access(s->st, id, kind, next_use);
	if (r > 0)
		s->hits++;
	else if (r == 0)
		s->misses++;
	return r;
}

int replay_sim_access_batch(struct replay_sim *s, const uint32_t *ids, const uint8_t *kinds,
			    size_t n)
{
	if (s->ops->access_batch) {
		long h = s->ops->access_batch(s->st, ids, kinds, n);
		s->hits += (uint64_t)h;
		s->misses += n - (uint64_t)h;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (replay_sim_access(s, ids[i], kinds ? kinds[i] : TRACE_READ, REPLAY_NEVER) < 0)
			return -1;
	return 0;
}

void replay_sim_result(const struct replay_sim *s, struct replay_result *r)
{
	memset(r, 0, sizeof(*r));
	if (s->ops->counters)
		s->ops->counters(s->st, r);
	r->hits = s->hits;
	r->misses = s->misses;
	r->refs = s->hits + s->misses;
}

int replay_sim_reads_kind(const struct replay_sim *s)
{
	return s->ops->reads_kind;
}

int replay_sim_check(const struct replay_sim *s)
{
	return s->ops->check(s->st);
}

size_t replay_sim_bytes(const struct replay_sim *s)
{
	return s->ops->bytes(s->st);
}
