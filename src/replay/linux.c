/* The 2.6.28 file LRU (kernel-reclaim.md §1.3, 1.4, 1.11-1.13) as a pure replacement policy,
 * optionally with 2.6.31's VM_EXEC protection (§3).
 *
 * What a reference means:
 * - read/write: a buffered read()/write() of a page-cache page, which calls
 *   mark_page_accessed(): inactive+unreferenced -> referenced; inactive+referenced -> activate
 *   (clearing PG_referenced); active -> referenced.
 * - exec: an instruction fetch through a VM_EXEC file mapping. The first touch faults
 *   (filemap_fault calls mark_page_accessed, the new PTE is young); later touches only set the
 *   PTE young bit, which the kernel sees when page_referenced() harvests it.
 * A miss adds the page at the head of the inactive list (add_to_page_cache_lru), then the
 * access above happens. When the cache is full, reclaim frees one page:
 * - the active list is scanned (shrink_active_list) in proportion to its size, or per the
 *   inactive_ratio rule (see struct replay_linux_cfg): every scanned page is deactivated, except
 *   that with VM_EXEC protection a referenced exec page gets another trip round the active list.
 *   For a mapped page the scan harvests (and clears) PG_referenced and the young bit; an
 *   unmapped page keeps PG_referenced, as page_referenced() is not called for it.
 * - the inactive tail is scanned (shrink_page_list): a mapped page found referenced is
 *   activated; anything else is evicted (an unmapped page's PG_referenced is cleared by
 *   page_referenced() but does not save it).
 * Reclaim here takes one page at a time where the kernel works in batches of SWAP_CLUSTER_MAX
 * under a scan priority; docs/replay.md lists this and the other simplifications. */
#include "replay/ops.h"

struct linux_sim {
	struct node *n; /* n[0] inactive head, n[1] active head; page id i is node i + 2 */
	uint8_t *fl;
	uint32_t ncap, nr_active, nr_inactive;
	uint64_t cache, acc;
	unsigned ratio;
	int exec_protect;
	struct replay_result st;
};

enum {
	F_RES = 1,    /* in the cache */
	F_ACTIVE = 2, /* PG_active */
	F_REF = 4,    /* PG_referenced */
	F_YOUNG = 8,  /* the PTE young bit of its mapping */
	F_MAPPED = 16 /* mapped by an exec mapping (page_mapping_inuse) */
};

#define INACTIVE 0
#define ACTIVE	 1

static void *linux_create_variant(uint64_t cache, const struct replay_linux_cfg *lc, int exec)
{
	struct linux_sim *s = xcalloc(1, sizeof(*s));
	s->cache = cache;
	s->ratio = lc->inactive_ratio;
	s->exec_protect = exec;
	return s;
}

/* page_referenced() for one page: PG_referenced, plus the young bit if mapped; both cleared. */
static inline int page_referenced(uint8_t *fl)
{
	int r = (*fl & F_REF) != 0;
	if (*fl & F_MAPPED)
		r += (*fl & F_YOUNG) != 0;
	*fl &= (uint8_t) ~(F_REF | ((*fl & F_MAPPED) ? F_YOUNG : 0));
	return r;
}

static void activate_page(struct linux_sim *s, uint32_t x)
{
	unlink_node(s->n, x);
	push_head(s->n, ACTIVE, x);
	s->fl[x - 2] |= F_ACTIVE;
	s->nr_inactive--;
	s->nr_active++;
	s->st.pgactivate++;
}

/* shrink_active_list for the page at the active tail. */
static void scan_active_one(struct linux_sim *s)
{
	uint32_t x = s->n[ACTIVE].prev;
	uint8_t *fl = &s->fl[x - 2];
	s->st.pgrefill++;
	unlink_node(s->n, x);
	if ((*fl & F_MAPPED) && page_referenced(fl)) {
		s->st.rotated++;
		if (s->exec_protect) {
			push_head(s->n, ACTIVE, x);
			return;
		}
	}
	*fl &= (uint8_t)~F_ACTIVE;
	push_head(s->n, INACTIVE, x);
	s->nr_active--;
	s->nr_inactive++;
	s->st.pgdeactivate++;
}

/* Balance the lists before one inactive page is scanned. */
static void balance(struct linux_sim *s)
{
	if (!s->nr_inactive) {
		while (!s->nr_inactive && s->nr_active)
			scan_active_one(s);
		return;
	}
	if (s->ratio) {
		/* a bounded number of scans: each either deactivates or rotates */
		uint64_t budget = s->nr_active;
		while ((uint64_t)s->nr_inactive * s->ratio < s->nr_active && budget--)
			scan_active_one(s);
		return;
	}
	/* 2.6.28 scans each file list by size >> priority, so per inactive page scanned it
	 * scans nr_active / nr_inactive active pages; acc keeps the remainder. */
	s->acc += s->nr_active;
	uint64_t quota = s->acc / s->nr_inactive;
	s->acc %= s->nr_inactive;
	while (quota-- && s->nr_active)
		scan_active_one(s);
}

/* Free one page. */
static void reclaim_one(struct linux_sim *s)
{
	for (;;) {
		balance(s);
		uint32_t x = s->n[INACTIVE].prev;
		uint8_t *fl = &s->fl[x - 2];
		s->st.pgscan++;
		int referenced = page_referenced(fl);
		if (referenced && (*fl & F_MAPPED)) {
			activate_page(s, x);
			continue;
		}
		unlink_node(s->n, x);
		*fl = 0;
		s->nr_inactive--;
		s->st.pgsteal++;
		return;
	}
}

static inline void mark_page_accessed(struct linux_sim *s, uint32_t x)
{
	uint8_t *fl = &s->fl[x - 2];
	if (!(*fl & F_ACTIVE) && (*fl & F_REF)) {
		activate_page(s, x);
		*fl &= (uint8_t)~F_REF;
	} else if (!(*fl & F_REF)) {
		*fl |= F_REF;
	}
}

static int linux_access(void *st_, uint32_t id, uint8_t kind, uint32_t next_use)
{
	(void)next_use;
	struct linux_sim *s = st_;
	uint32_t x = id + 2;
	if (__builtin_expect(x >= s->ncap, 0)) {
		uint32_t c = s->ncap;
		if (grow_array((void **)&s->n, &c, x, sizeof(struct node), 0xff))
			return -1;
		c = s->ncap;
		if (grow_array((void **)&s->fl, &c, x, 1, 0))
			return -1;
		if (!s->ncap) {
			s->n[0].next = s->n[0].prev = 0;
			s->n[1].next = s->n[1].prev = 1;
		}
		s->ncap = c;
	}
	uint8_t *fl = &s->fl[id];
	int exec = kind == TRACE_EXEC;
	if (*fl & F_RES) {
		if (exec && (*fl & F_MAPPED))
			*fl |= F_YOUNG;
		else
			mark_page_accessed(s, x); /* includes the fault that maps it */
		if (exec)
			*fl |= F_MAPPED | F_YOUNG;
		return 1;
	}
	if ((uint64_t)s->nr_active + s->nr_inactive >= s->cache)
		reclaim_one(s);
	*fl = F_RES;
	push_head(s->n, INACTIVE, x);
	s->nr_inactive++;
	mark_page_accessed(s, x);
	if (exec)
		*fl |= F_MAPPED | F_YOUNG;
	return 0;
}

static int linux_check(const void *st_)
{
	const struct linux_sim *s = st_;
	if (!s->ncap)
		return 0;
	for (uint32_t h = 0; h < 2; h++) {
		uint32_t cnt = 0, prev = h;
		for (uint32_t x = s->n[h].next; x != h; x = s->n[x].next) {
			if (x < 2 || x >= s->ncap || s->n[x].prev != prev)
				return -1;
			uint8_t f = s->fl[x - 2];
			if (!(f & F_RES) || !!(f & F_ACTIVE) != (h == ACTIVE))
				return -1;
			if (++cnt > s->cache)
				return -1;
			prev = x;
		}
		if (s->n[h].prev != prev || cnt != (h ? s->nr_active : s->nr_inactive))
			return -1;
	}
	return (uint64_t)s->nr_active + s->nr_inactive <= s->cache ? 0 : -1;
}

static void *linux_create(uint64_t cache, const struct replay_linux_cfg *lc)
{
	return linux_create_variant(cache, lc, 0);
}

static void *linux_exec_create(uint64_t cache, const struct replay_linux_cfg *lc)
{
	return linux_create_variant(cache, lc, 1);
}

static void linux_destroy(void *st_)
{
	struct linux_sim *s = st_;
	xbig_free(s->n);
	xbig_free(s->fl);
	free(s);
}

static size_t linux_bytes(const void *st_)
{
	const struct linux_sim *s = st_;
	return (size_t)s->ncap * (sizeof(struct node) + 1);
}

static void linux_counters(const void *st_, struct replay_result *r)
{
	const struct linux_sim *s = st_;
	*r = s->st;
}

const struct replay_ops replay_linux_ops = {
    .name = "linux",
    .create = linux_create,
    .destroy = linux_destroy,
    .access = linux_access,
    .check = linux_check,
    .bytes = linux_bytes,
    .counters = linux_counters,
    .reads_kind = 1,
};

const struct replay_ops replay_linux_exec_ops = {
    .name = "linux+exec",
    .create = linux_exec_create,
    .destroy = linux_destroy,
    .access = linux_access,
    .check = linux_check,
    .bytes = linux_bytes,
    .counters = linux_counters,
    .reads_kind = 1,
};
