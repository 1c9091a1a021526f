/* Internal to src/replay: what one replacement algorithm provides to the replay_sim front.
 *
 * Each algorithm lives in its own file and exports one `struct replay_ops` (as libCacheSim's
 * eviction policies each fill a cache_t and the kernel's *_operations tables do); sim.c holds
 * the one table that maps enum replay_policy to them. An algorithm owns its state: create
 * allocates it, every other hook receives it back. */
#ifndef MMSIM_REPLAY_OPS_H
#define MMSIM_REPLAY_OPS_H

#include "replay/replay.h"
#include "sim/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* The OPT curve's pass (opt_mrc_pass.h) with blocks of `block` slots (128 or 512), as
 * opt_mrc_checked: with baseline scans, and (opt_mrc_avx2.c, where MMSIM_OPT_AVX2 is defined)
 * with AVX2 ones, for a CPU that has them. */
int opt_pass_plain(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t nd,
		   struct mrc *out, uint64_t check_every, unsigned block);
int opt_pass_avx2(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t nd,
		  struct mrc *out, uint64_t check_every, unsigned block);

struct replay_ops {
	const char *name;
	/* cache >= 1 pages; lc never NULL. Allocates through xalloc (aborts on no memory). */
	void *(*create)(uint64_t cache, const struct replay_linux_cfg *lc);
	void (*destroy)(void *st);
	/* 1 hit, 0 miss, -1 out of memory (see replay_sim_access) */
	int (*access)(void *st, uint32_t id, uint8_t kind, uint32_t next_use);
	/* n references in a row, as n calls of access without next use (NULL: the front calls
	 * access). Returns the hits. Lets an algorithm look ahead in the ids (prefetch). */
	long (*access_batch)(void *st, const uint32_t *ids, const uint8_t *kinds, size_t n);
	/* 0 when the internal structures are sound */
	int (*check)(const void *st);
	size_t (*bytes)(const void *st);
	/* the algorithm's own counters beyond hits and misses; NULL when it has none */
	void (*counters)(const void *st, struct replay_result *r);
	/* 1 when access looks at the kind: the reader then writes the kinds beside the ids */
	int reads_kind;
};

extern const struct replay_ops replay_lru_ops, replay_clock_ops, replay_fifo_ops, replay_opt_ops,
    replay_linux_ops, replay_linux_exec_ops;

struct node {
	uint32_t prev, next;
};

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
	void *p = xbig_realloc(*a, (size_t)nc * elem);
	memset((char *)p + (size_t)*cap * elem, fill, (size_t)(nc - *cap) * elem);
	*a = p;
	*cap = (uint32_t)nc;
	return 0;
}

#endif
