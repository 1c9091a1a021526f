/* Whole-trace drivers: every job of a replay in one pass over the trace. */
#include "replay/ops.h"
#include "sim/xalloc.h"

#include <stdio.h>

/* How many to read next without passing limit (0 = no limit). */
static size_t batch_size(const struct trace *t, uint64_t limit, size_t b)
{
	if (!limit)
		return b;
	uint64_t left = limit - trace_count(t);
	return left < b ? (size_t)left : b;
}

/* Read up to limit references (0 = all) into memory. */
static int load(const char *path, const struct trace_opts *topts, uint64_t limit,
		uint32_t **ids_out, uint8_t **kinds_out, uint64_t *n_out, struct replay_info *info,
		char *err, size_t errlen)
{
	struct trace *t = trace_open(path, topts, err, errlen);
	if (!t)
		return -1;
	uint64_t n = 0, cap = 1 << 16;
	uint32_t *ids = xbig_alloc(cap * sizeof(*ids));
	uint8_t *kinds = kinds_out ? xbig_alloc(cap) : NULL;
	long rc = 0;
	for (;;) {
		if (limit && n >= limit)
			break;
		if (n == cap) {
			if (cap >= REPLAY_NEVER / 2) {
				struct trace_ref r;
				if ((rc = trace_next(t, &r)) <= 0)
					break; /* the trace ended at the last reference that fits */
				snprintf(err, errlen,
					 "%s: OPT needs the trace in memory and handles fewer than "
					 "2^32 references; use --limit",
					 path);
				goto fail;
			}
			cap *= 2;
			ids = xbig_realloc(ids, cap * sizeof(*ids));
			if (kinds)
				kinds = xbig_realloc(kinds, cap);
		}
		size_t want = batch_size(t, limit, (size_t)(cap - n));
		if ((rc = trace_next_batch(t, ids + n, kinds ? kinds + n : NULL, want)) <= 0)
			break;
		n += (uint64_t)rc;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", trace_error(t));
		goto fail;
	}
	info->refs = n;
	info->distinct = trace_distinct(t);
	info->format = trace_get_format(t);
	*ids_out = ids;
	if (kinds_out)
		*kinds_out = kinds;
	*n_out = n;
	trace_close(t);
	return 0;
fail:
	xbig_free(ids);
	xbig_free(kinds);
	trace_close(t);
	return -1;
}

int replay_run(const char *path, const struct trace_opts *topts, const struct replay_linux_cfg *lc,
	       struct replay_job *jobs, size_t njobs, uint64_t limit, struct replay_info *info,
	       char *err, size_t errlen)
{
	struct replay_info dummy;
	if (!info)
		info = &dummy;
	memset(info, 0, sizeof(*info));
	struct replay_sim **sims = xcalloc(njobs ? njobs : 1, sizeof(*sims));
	int need_opt = 0, rc = -1;
	for (size_t j = 0; j < njobs; j++) {
		sims[j] = replay_sim_new(jobs[j].policy, jobs[j].cache, lc);
		if (!sims[j])
			goto oom;
		need_opt |= jobs[j].policy == REPLAY_OPT;
	}
	if (need_opt) {
		uint32_t *ids = NULL, *next = NULL;
		uint8_t *kinds = NULL;
		uint64_t n;
		if (load(path, topts, limit, &ids, &kinds, &n, info, err, errlen))
			goto out;
		next = replay_next_use(ids, n, info->distinct);
		if (!next) {
			xbig_free(ids);
			xbig_free(kinds);
			goto oom;
		}
		for (uint64_t i = 0; i < n && rc; i++)
			for (size_t j = 0; j < njobs; j++)
				if (replay_sim_access(sims[j], ids[i], kinds[i], next[i]) < 0) {
					rc = 0; /* reused below as "failed" */
					break;
				}
		xbig_free(ids);
		xbig_free(kinds);
		xbig_free(next);
		if (!rc)
			goto oom;
	} else {
		struct trace *t = trace_open(path, topts, err, errlen);
		if (!t)
			goto out;
		enum { B = 4096 };
		uint32_t ids[B];
		uint8_t kbuf[B], *kinds = NULL;
		/* kinds cost the reader a store per run: only for a policy that reads them */
		for (size_t j = 0; j < njobs; j++)
			if (replay_sim_reads_kind(sims[j]))
				kinds = kbuf;
		long k = 0;
		while ((k = trace_next_batch(t, ids, kinds, batch_size(t, limit, B))) > 0)
			for (size_t j = 0; j < njobs; j++)
				if (replay_sim_access_batch(sims[j], ids, kinds, (size_t)k) < 0) {
					trace_close(t);
					goto oom;
				}
		if (k < 0) {
			snprintf(err, errlen, "%s", trace_error(t));
			trace_close(t);
			goto out;
		}
		info->refs = trace_count(t);
		info->distinct = trace_distinct(t);
		info->format = trace_get_format(t);
		trace_close(t);
	}
	for (size_t j = 0; j < njobs; j++)
		replay_sim_result(sims[j], &jobs[j].res);
	rc = 0;
	goto out;
oom:
	snprintf(err, errlen, "%s: out of memory", path);
	rc = -1;
out:
	if (sims)
		for (size_t j = 0; j < njobs; j++)
			replay_sim_free(sims[j]);
	free(sims);
	return rc;
}

/* A one-pass curve as run_curve streams a trace through it. */
struct curve_ops {
	void *(*create)(void);
	int (*access)(void *m, const uint32_t *ids, size_t n); /* 0, or a refusal */
	int (*finish)(void *m, struct mrc *out);
	void (*abort)(void *m);
	const char *(*refusal)(int rc);
};

static void *lru_create(void)
{
	return lru_mrc_new();
}

static int lru_access(void *m, const uint32_t *ids, size_t n)
{
	return lru_mrc_access_batch(m, ids, n);
}

static int lru_finish(void *m, struct mrc *out)
{
	return lru_mrc_finish(m, out);
}

static void lru_abort(void *m)
{
	struct mrc dropped;
	memset(&dropped, 0, sizeof(dropped));
	lru_mrc_finish(m, &dropped);
	mrc_free(&dropped);
}

static const char *lru_refusal(int rc)
{
	(void)rc;
	return "out of memory";
}

static void *opt_create(void)
{
	return opt_mrc_tree_new();
}

static int opt_access(void *m, const uint32_t *ids, size_t n)
{
	return opt_mrc_tree_access_batch(m, ids, n);
}

static int opt_finish(void *m, struct mrc *out)
{
	return opt_mrc_tree_finish(m, out);
}

static void opt_abort(void *m)
{
	opt_mrc_tree_abort(m);
}

static const char *opt_refusal(int rc)
{
	return rc == -2 ? "internal error in the OPT curve"
			: "more distinct pages than the OPT curve holds (2^28)";
}

static const struct curve_ops lru_curve = {lru_create, lru_access, lru_finish, lru_abort,
					   lru_refusal};
/* The OPT curve streams like the LRU one: its stack distances depend on the past only
 * (opt_mrc_tree.c), so neither the trace nor next uses are held in memory. */
static const struct curve_ops opt_curve = {opt_create, opt_access, opt_finish, opt_abort,
					   opt_refusal};

static int run_curve(const struct curve_ops *c, const char *path, const struct trace_opts *topts,
		     uint64_t limit, struct mrc *out, struct replay_info *info, char *err,
		     size_t errlen)
{
	struct trace *t = trace_open(path, topts, err, errlen);
	if (!t)
		return -1;
	void *m = c->create();
	enum { B = 4096 };
	uint32_t ids[B];
	long k = 0;
	int rc = 0;
	if (!m) {
		snprintf(err, errlen, "%s: out of memory", path);
		trace_close(t);
		return -1;
	}
	while ((k = trace_next_batch(t, ids, NULL, batch_size(t, limit, B))) > 0)
		if ((rc = c->access(m, ids, (size_t)k)) != 0)
			break;
	if (rc != 0 || k < 0) {
		if (rc != 0)
			snprintf(err, errlen, "%s: %s", path, c->refusal(rc));
		else
			snprintf(err, errlen, "%s", trace_error(t));
		c->abort(m);
		trace_close(t);
		return -1;
	}
	info->refs = trace_count(t);
	info->distinct = trace_distinct(t);
	info->format = trace_get_format(t);
	trace_close(t);
	return c->finish(m, out);
}

int mrc_run(const char *path, const struct trace_opts *topts, enum replay_policy p, uint64_t limit,
	    struct mrc *out, struct replay_info *info, char *err, size_t errlen)
{
	struct replay_info dummy;
	if (!info)
		info = &dummy;
	memset(info, 0, sizeof(*info));
	memset(out, 0, sizeof(*out));
	if (p != REPLAY_LRU && p != REPLAY_OPT) {
		snprintf(err, errlen, "one-pass curves exist for lru and opt only");
		return -1;
	}
	return run_curve(p == REPLAY_OPT ? &opt_curve : &lru_curve, path, topts, limit, out, info,
			 err, errlen);
}
