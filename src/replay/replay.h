/* Reference-string mode: replacement policies replayed over a trace of dense page ids (see
 * trace/trace.h), and exact miss-ratio curves.
 *
 * A replay_sim is one policy at one cache size. It is fed ids in trace order; ids are dense and
 * appear first in increasing order, so per-page state lives in arrays indexed by id that grow as
 * new ids arrive. Nothing is hashed and nothing is allocated on a hit.
 */
#ifndef MMSIM_REPLAY_REPLAY_H
#define MMSIM_REPLAY_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

enum replay_policy {
	REPLAY_LRU,
	REPLAY_CLOCK,
	REPLAY_FIFO,
	REPLAY_OPT,
	REPLAY_LINUX,	   /* 2.6.28 active/inactive file LRU */
	REPLAY_LINUX_EXEC, /* the same with VM_EXEC protection (2.6.31) */
	REPLAY_NPOL,
};

/* No further reference (next-use time of a page's last reference). */
#define REPLAY_NEVER UINT32_MAX

const char *replay_policy_name(enum replay_policy p);
int replay_policy_parse(const char *name, enum replay_policy *p);

/* How the `linux` policies balance the active list against the inactive one. */
struct replay_linux_cfg {
	/* 0: as 2.6.28 scans the file lists, active in proportion to its size (each inactive page
	 * scanned scans active/inactive active pages). N > 0: deactivate while
	 * inactive * N < active, the inactive_ratio rule 2.6.28 applies to anon pages (and
	 * 2.6.31's inactive_file_is_low with N = 1). */
	unsigned inactive_ratio;
};

struct replay_result {
	uint64_t refs, hits, misses;
	/* linux policies only, named as the kernel's vmstat counters */
	uint64_t pgactivate, pgdeactivate, pgrefill, pgscan, pgsteal, rotated;
};

struct replay_sim;

/* cache: pages (>= 1). lc may be NULL (defaults). NULL on out of memory. */
struct replay_sim *replay_sim_new(enum replay_policy p, uint64_t cache,
				  const struct replay_linux_cfg *lc);
void replay_sim_free(struct replay_sim *s);
/* One reference. next_use is the index of the next reference to the same page
 * (REPLAY_NEVER if none); only OPT looks at it. Returns 1 hit, 0 miss, -1 out of memory. */
int replay_sim_access(struct replay_sim *s, uint32_t id, uint8_t kind, uint32_t next_use);
/* n references without next use (every policy but OPT), kinds may be NULL (all reads): the
 * same as n calls of replay_sim_access, faster for the policies that look ahead. 0, or -1 out
 * of memory. */
int replay_sim_access_batch(struct replay_sim *s, const uint32_t *ids, const uint8_t *kinds,
			    size_t n);
void replay_sim_result(const struct replay_sim *s, struct replay_result *r);
/* 1 when the policy tells reads, writes and executions apart; the others are given no kinds. */
int replay_sim_reads_kind(const struct replay_sim *s);
/* Consistency check of the internal structures, for tests: 0 when sound. */
int replay_sim_check(const struct replay_sim *s);
/* Bytes allocated per id slot and fixed, for the benchmark's memory report. */
size_t replay_sim_bytes(const struct replay_sim *s);

/* next[t] = index of the next reference to ids[t]'s page, or REPLAY_NEVER. n must be below
 * REPLAY_NEVER. Returns NULL on out of memory. */
uint32_t *replay_next_use(const uint32_t *ids, uint64_t n, uint32_t ndistinct);

/* Run several (policy, size) jobs over one trace in a single pass (OPT loads the trace into
 * memory to see the future; the others stream). limit > 0 stops after that many references. */
struct replay_job {
	enum replay_policy policy;
	uint64_t cache;
	struct replay_result res;
};
struct replay_info {
	uint64_t refs;
	uint32_t distinct;
	enum trace_format format;
};
int replay_run(const char *path, const struct trace_opts *topts, const struct replay_linux_cfg *lc,
	       struct replay_job *jobs, size_t njobs, uint64_t limit, struct replay_info *info,
	       char *err, size_t errlen);

/* Miss-ratio curves. hist[d] (1 <= d <= maxd) counts references at stack distance d: a cache
 * of c pages hits exactly the references with d <= c. cold counts first references. */
struct mrc {
	uint64_t refs, cold;
	uint32_t maxd;
	uint64_t *hist; /* maxd + 1 entries, hist[0] unused */
};
void mrc_free(struct mrc *m);
/* Misses of a cache of c pages. */
uint64_t mrc_misses(const struct mrc *m, uint64_t c);

/* One-pass LRU stack distances (Mattson) in O(log n) per reference. */
struct lru_mrc;
struct lru_mrc *lru_mrc_new(void);
int lru_mrc_access(struct lru_mrc *m, uint32_t id); /* 0, or -1 out of memory */
/* n references in a row: the same as n calls of lru_mrc_access, prefetching ahead. */
int lru_mrc_access_batch(struct lru_mrc *m, const uint32_t *ids, size_t n);
/* Moves the histogram into out and frees m. */
int lru_mrc_finish(struct lru_mrc *m, struct mrc *out);
size_t lru_mrc_bytes(const struct lru_mrc *m);

/* One-pass OPT (Belady MIN) stack distances with next-use priorities (Mattson et al. 1970). */
int opt_mrc(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t ndistinct,
	    struct mrc *out);
/* The same, checking its internal structure against a recount after every check_every
 * references (0: never), -2 when a check fails, and with blocks of `block` slots (128 or 512;
 * 0 chooses by footprint, as opt_mrc does). For tests. */
int opt_mrc_checked(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t ndistinct,
		    struct mrc *out, uint64_t check_every, unsigned block);
/* The same with the scans chosen: AVX2 (avx2 != 0, only where opt_mrc_have_avx2) or the
 * baseline ones. Both give the same curve. */
int opt_mrc_variant(const uint32_t *ids, const uint32_t *next, uint64_t n, uint32_t ndistinct,
		    struct mrc *out, uint64_t check_every, unsigned block, int avx2);
/* 1 when this build has AVX2 scans and this CPU can run them. */
int opt_mrc_have_avx2(void);

/* One-pass OPT stack distances on-line, in O(log n) per reference (Bilardi, Ekanadham and
 * Pattnaik's critical markers, opt_mrc_tree.c): no next uses, the trace streams as for LRU. */
struct opt_mrc_tree;
struct opt_mrc_tree *opt_mrc_tree_new(void);
/* 0, -1 more than 2^28 distinct pages (or slots past 2^31), -2 an internal inconsistency */
int opt_mrc_tree_access(struct opt_mrc_tree *m, uint32_t id);
/* n references in a row: the same as n calls of opt_mrc_tree_access, prefetching ahead. */
int opt_mrc_tree_access_batch(struct opt_mrc_tree *m, const uint32_t *ids, size_t n);
/* Moves the histogram into out and frees m. */
int opt_mrc_tree_finish(struct opt_mrc_tree *m, struct mrc *out);
void opt_mrc_tree_abort(struct opt_mrc_tree *m);
size_t opt_mrc_tree_bytes(const struct opt_mrc_tree *m);
/* The internal structure against a recount (O(n), for tests): 0 when sound. */
int opt_mrc_tree_check(const struct opt_mrc_tree *m);

/* Whole-trace drivers for the mrc command. limit as in replay_run. */
int mrc_run(const char *path, const struct trace_opts *topts, enum replay_policy p, uint64_t limit,
	    struct mrc *out, struct replay_info *info, char *err, size_t errlen);

#endif
