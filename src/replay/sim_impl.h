/* Internal to src/replay: the per-policy simulators behind replay_sim. */
#ifndef MMSIM_REPLAY_SIM_IMPL_H
#define MMSIM_REPLAY_SIM_IMPL_H

#include "replay/replay.h"
#include "sim/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

struct node {
	uint32_t prev, next;
};

/* Grow an array of per-id elements to hold index id, filling new slots with byte fill. */
static inline int grow_array(void **a, uint32_t *cap, uint32_t id, size_t elem, int fill)
{
	if (id < *cap)
		return 0;
	uint64_t nc = *cap ? *cap : 1024;
	while (nc <= id)
		nc *= 2;
	if (nc > (uint64_t)NONE)
		nc = NONE;
	void *p = xrealloc(*a, (size_t)nc * elem);
	memset((char *)p + (size_t)*cap * elem, fill, (size_t)(nc - *cap) * elem);
	*a = p;
	*cap = (uint32_t)nc;
	return 0;
}

struct lru_sim {
	struct node *n; /* n[0] is the list head; page id i is node i + 1 */
	uint32_t ncap, size;
	uint64_t cache;
};

struct clock_sim {
	uint32_t *frame; /* ids in the clock, frame[hand] is the next candidate */
	uint8_t *refbit;
	uint32_t *slot; /* per id: frame index or NONE */
	uint32_t fcap, ncap, used, hand;
	uint64_t cache;
};

struct fifo_sim {
	uint32_t *ring;
	uint8_t *in; /* per id */
	uint32_t rcap, ncap, used, head;
	uint64_t cache;
};

struct opt_sim {
	uint32_t *heap; /* max-heap of resident ids by next use */
	uint32_t *hpos; /* per id: heap index or NONE */
	uint32_t *key;	/* per id: next use */
	uint32_t hcap, ncap, size;
	uint64_t cache;
};

struct linux_sim {
	struct node *n; /* n[0] inactive head, n[1] active head; page id i is node i + 2 */
	uint8_t *fl;
	uint32_t ncap, nr_active, nr_inactive;
	uint64_t cache, acc;
	unsigned ratio;
	int exec_protect;
	struct replay_result st;
};

struct replay_sim {
	enum replay_policy policy;
	uint64_t hits, misses;
	union {
		struct lru_sim lru;
		struct clock_sim clock;
		struct fifo_sim fifo;
		struct opt_sim opt;
		struct linux_sim lx;
	} u;
};

int lru_access(struct lru_sim *s, uint32_t id);
int clock_access(struct clock_sim *s, uint32_t id);
int fifo_access(struct fifo_sim *s, uint32_t id);
int opt_access(struct opt_sim *s, uint32_t id, uint32_t next);
int linux_access(struct linux_sim *s, uint32_t id, uint8_t kind);
void linux_init(struct linux_sim *s, uint64_t cache, const struct replay_linux_cfg *lc, int exec);
int linux_check(const struct linux_sim *s);
int opt_check(const struct opt_sim *s);

#endif
