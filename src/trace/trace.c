/* Trace API: opening, format detection, dense ids, and the mmsim binary reader. */
#include "trace/trace_impl.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *const fmt_names[TRACE_FMT_NR] = {
    [TRACE_FMT_AUTO] = "auto",	   [TRACE_FMT_ARC] = "arc",
    [TRACE_FMT_LIRS] = "lirs",	   [TRACE_FMT_TXT] = "txt",
    [TRACE_FMT_CSV] = "csv",	   [TRACE_FMT_ORACLE] = "oracleGeneral",
    [TRACE_FMT_LACKEY] = "lackey", [TRACE_FMT_MMSIM] = "mmsim",
};

const char *trace_format_name(enum trace_format f)
{
	return (unsigned)f < TRACE_FMT_NR ? fmt_names[f] : "?";
}

int trace_format_parse(const char *name, enum trace_format *f)
{
	for (int i = 0; i < TRACE_FMT_NR; i++)
		if (!strcasecmp(name, fmt_names[i])) {
			*f = (enum trace_format)i;
			return 0;
		}
	if (!strcasecmp(name, "lis"))
		*f = TRACE_FMT_ARC;
	else if (!strcasecmp(name, "trace"))
		*f = TRACE_FMT_LIRS;
	else if (!strcasecmp(name, "oracle"))
		*f = TRACE_FMT_ORACLE;
	else
		return -1;
	return 0;
}

int trace_fail(struct trace *t, const char *fmt, ...)
{
	if (t->state < 0)
		return -1;
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t->format == TRACE_FMT_MMSIM || t->format == TRACE_FMT_ORACLE)
		snprintf(t->err, sizeof(t->err), "%s: record %llu: %s", t->name,
			 (unsigned long long)t->record + 1, msg);
	else if (t->line)
		snprintf(t->err, sizeof(t->err), "%s:%llu: %s", t->name,
			 (unsigned long long)t->line, msg);
	else
		snprintf(t->err, sizeof(t->err), "%s: %s", t->name, msg);
	t->state = -1;
	return -1;
}

/* Format from the file name, with any compression suffix removed. */
static enum trace_format format_by_name(const char *path)
{
	char base[256];
	const char *slash = strrchr(path, '/');
	snprintf(base, sizeof(base), "%s", slash ? slash + 1 : path);
	size_t l = strlen(base);
	static const char *const comp[] = {".zst", ".zstd", ".gz"};
	for (size_t i = 0; i < 3; i++) {
		size_t k = strlen(comp[i]);
		if (l > k && !strcasecmp(base + l - k, comp[i])) {
			base[l - k] = 0;
			l -= k;
			break;
		}
	}
	if (strstr(base, "oracleGeneral"))
		return TRACE_FMT_ORACLE;
	const char *dot = strrchr(base, '.');
	if (!dot)
		return TRACE_FMT_AUTO;
	static const struct {
		const char *ext;
		enum trace_format f;
	} ext[] = {
	    {".lis", TRACE_FMT_ARC},   {".trace", TRACE_FMT_LIRS},    {".trc", TRACE_FMT_LIRS},
	    {".txt", TRACE_FMT_TXT},   {".csv", TRACE_FMT_CSV},	      {".lackey", TRACE_FMT_LACKEY},
	    {".mmt", TRACE_FMT_MMSIM}, {".mmtrace", TRACE_FMT_MMSIM},
	};
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strcasecmp(dot, ext[i].ext))
			return ext[i].f;
	return TRACE_FMT_AUTO;
}

static struct trace *setup(struct trace *t, const char *name, const struct trace_opts *opts,
			   char *err, size_t errlen)
{
	snprintf(t->name, sizeof(t->name), "%s", name);
	if (opts)
		t->opts = *opts;
	t->state = 1;
	t->rd_state = 1;
	pagemap_init(&t->map);
	if (t->in.failed) {
		snprintf(err, errlen, "%s: %s", t->name, t->in.err);
		goto bad;
	}
	long avail = tin_want(&t->in, 4096);
	if (avail < 0) {
		snprintf(err, errlen, "%s: %s", t->name, t->in.err);
		goto bad;
	}
	const uint8_t *b = t->in.buf + t->in.pos;
	int magic = avail >= 8 && !memcmp(b, MMT_MAGIC, 8);
	enum trace_format f = t->opts.format;
	if (f == TRACE_FMT_AUTO)
		f = magic ? TRACE_FMT_MMSIM : format_by_name(name);
	if (f == TRACE_FMT_AUTO)
		f = trace_sniff_text((const char *)b, (size_t)avail);
	if (f == TRACE_FMT_AUTO) {
		snprintf(err, errlen,
			 "%s: cannot tell the trace format from the name or the content; use "
			 "--format arc|lirs|txt|csv|oracleGeneral|lackey|mmsim",
			 t->name);
		goto bad;
	}
	if ((unsigned)f >= TRACE_FMT_NR) {
		snprintf(err, errlen, "%s: unknown format", t->name);
		goto bad;
	}
	t->format = f;
	t->page_shift = t->opts.page_shift ? t->opts.page_shift : 12;
	if (t->page_shift > 40) {
		snprintf(err, errlen, "%s: page shift %u out of range", t->name, t->page_shift);
		goto bad;
	}
	t->csv_col = t->opts.csv_col;
	t->csv_delim = t->opts.csv_delim;
	if (f == TRACE_FMT_MMSIM) {
		if (avail < MMT_HDR || !magic) {
			snprintf(err, errlen, "%s: not an mmsim trace (bad magic)", t->name);
			goto bad;
		}
		if (b[8] != MMT_VERSION) {
			snprintf(err, errlen, "%s: mmsim trace version %u, expected %u", t->name,
				 b[8], MMT_VERSION);
			goto bad;
		}
		if (b[9] > 40) {
			snprintf(err, errlen, "%s: page shift %u out of range", t->name, b[9]);
			goto bad;
		}
		t->page_shift = b[9];
		t->in.pos += MMT_HDR;
	} else if (f != TRACE_FMT_LACKEY) {
		t->page_shift = 0;
	}
	return t;
bad:
	trace_close(t);
	return NULL;
}

struct trace *trace_open_fd(int fd, const char *name, const struct trace_opts *opts, char *err,
			    size_t errlen)
{
	struct trace *t = xcalloc(1, sizeof(*t));
	t->own_fd = -1;
	tin_open_fd(&t->in, fd);
	return setup(t, name, opts, err, errlen);
}

struct trace *trace_open(const char *path, const struct trace_opts *opts, char *err, size_t errlen)
{
	if (!strcmp(path, "-"))
		return trace_open_fd(0, "<stdin>", opts, err, errlen);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct trace *t = trace_open_fd(fd, path, opts, err, errlen);
	if (!t) {
		close(fd);
		return NULL;
	}
	t->own_fd = fd;
	return t;
}

struct trace *trace_open_mem(const void *buf, size_t len, const char *name,
			     const struct trace_opts *opts, char *err, size_t errlen)
{
	struct trace *t = xcalloc(1, sizeof(*t));
	t->own_fd = -1;
	tin_open_mem(&t->in, buf, len);
	return setup(t, name, opts, err, errlen);
}

void trace_close(struct trace *t)
{
	if (!t)
		return;
	tin_close(&t->in);
	pagemap_free(&t->map);
	if (t->own_fd >= 0)
		close(t->own_fd);
	free(t);
}

const char *trace_error(const struct trace *t)
{
	return t->err;
}

enum trace_format trace_get_format(const struct trace *t)
{
	return t->format;
}

uint64_t trace_count(const struct trace *t)
{
	return t->count;
}

uint32_t trace_distinct(const struct trace *t)
{
	return t->map.n;
}

size_t trace_map_bytes(const struct trace *t)
{
	return pagemap_bytes(&t->map);
}

uint64_t trace_page_of(const struct trace *t, uint32_t id)
{
	return id < t->map.n ? t->map.pages[id] : 0;
}

unsigned trace_page_shift(const struct trace *t)
{
	return t->page_shift;
}

/* Slow path of the binary reader: the buffer may end inside a record. */
static int mmt_refill(struct trace *t)
{
	long a = tin_want(&t->in, 20);
	if (a < 0)
		return trace_fail(t, "%s", t->in.err);
	return a > 0;
}

static int next_mmsim(struct trace *t, struct trace_ref *ref)
{
	struct tin *in = &t->in;
	if (in->end - in->pos < 20) {
		int r = mmt_refill(t);
		if (r <= 0)
			return t->state = r;
	}
	const uint8_t *p = in->buf + in->pos, *e = in->buf + in->end;
	uint64_t v;
	int k = mmt_get_varint(p, e, &v);
	if (k <= 0)
		return trace_fail(t, k ? "overlong varint" : "truncated record");
	unsigned kind = v & 3;
	if (kind == 3)
		return trace_fail(t, "invalid reference kind 3");
	uint32_t id;
	uint64_t page;
	if (v & 4) {
		uint64_t d;
		if (v >> 3)
			return trace_fail(t, "stray bits in a new-page record");
		int k2 = mmt_get_varint(p + k, e, &d);
		if (k2 <= 0)
			return trace_fail(t, k2 ? "overlong varint" : "truncated record");
		k += k2;
		page = t->mmt_last_new + (uint64_t)unzigzag(d);
		/* trusted to be new: checking would cost a hash lookup per new page, and a file
		 * that lies only gets the page replayed under two ids */
		id = pagemap_append(&t->map, page);
		if (id == PAGEMAP_FAIL)
			return trace_fail(t, "more distinct pages than ids (2^31)");
		t->mmt_last_new = page;
	} else {
		int64_t nid = (int64_t)t->mmt_prev + unzigzag(v >> 3);
		if (nid < 0 || nid >= (int64_t)t->map.n)
			return trace_fail(t, "reference to page id %lld, only %u seen so far",
					  (long long)nid, t->map.n);
		id = (uint32_t)nid;
		page = t->map.pages[id];
	}
	in->pos += (size_t)k;
	t->mmt_prev = id;
	t->record++;
	t->count++;
	ref->page = page;
	ref->id = id;
	ref->kind = (uint8_t)kind;
	return 1;
}

/* Pass the chunks of run r to a page map hint: its first and last, at most two between. */
static inline void hint_run(const struct pagemap *m, const struct trace_run *r,
			    void (*hint)(const struct pagemap *, uint64_t))
{
	uint64_t c = r->page >> PAGEMAP_CHUNK_SHIFT;
	uint64_t last = (r->page + r->left - 1) >> PAGEMAP_CHUNK_SHIFT;
	for (int k = 0; c <= last; k++, c++) {
		if (k == 3)
			c = last;
		hint(m, c << PAGEMAP_CHUNK_SHIFT);
	}
}

/* Parse records until TRACE_AHEAD runs wait behind the current one, asking the page map for
 * the hash slots of each new run's chunks. When the parser ends or fails, rd_state says so
 * and the state of the references follows once the runs before are returned, so an error
 * still comes after every reference of the lines above it. */
static void read_ahead(struct trace *t)
{
	/* with no hints to give, a run parsed ahead only waits */
	uint32_t ahead = pagemap_hints_pay(&t->map) ? TRACE_AHEAD : 0;
	while (t->rd_state > 0 && t->rq_tail - t->rq_head <= ahead) {
		uint32_t from = t->rq_tail;
		int r = t->format == TRACE_FMT_ORACLE ? trace_read_oracle_record(t)
						      : trace_read_text_record(t);
		if (r <= 0) {
			/* trace_fail set state: the error waits behind the queued runs */
			t->rd_state = r;
			t->state = 1;
			break;
		}
		if (ahead)
			for (uint32_t i = from; i != t->rq_tail; i++)
				hint_run(&t->map, &t->runq[i & (TRACE_RUNQ - 1)],
					 pagemap_prefetch_slot);
	}
}

/* The run being expanded, parsing more when none is; NULL at the end or on an error (state
 * then says which). */
static struct trace_run *cur_run(struct trace *t)
{
	if (t->rq_head == t->rq_tail) {
		read_ahead(t);
		if (t->rq_head == t->rq_tail) {
			t->state = t->rd_state;
			return NULL;
		}
	}
	return &t->runq[t->rq_head & (TRACE_RUNQ - 1)];
}

/* How far ahead of the run being expanded its blocks are fetched: the slots asked for when it
 * was parsed have arrived by then, and the blocks will have by the time it is expanded. */
#define BLOCKS_AHEAD 4

/* The current run is done: the next one becomes current. */
static void next_run(struct trace *t)
{
	t->rq_head++;
	if (!pagemap_hints_pay(&t->map))
		return; /* cur_run parses the next when it is wanted, arc_direct's turn first */
	if (t->rq_tail - t->rq_head > BLOCKS_AHEAD) {
		const struct trace_run *q =
		    &t->runq[(t->rq_head + BLOCKS_AHEAD) & (TRACE_RUNQ - 1)];
		hint_run(&t->map, q, pagemap_prefetch_entry);
	}
	read_ahead(t);
}

/* The page map ran out of ids on a page of run r. */
/* The page map ran out of ids on the line just read. */
static int ids_exhausted_here(struct trace *t)
{
	return trace_fail(t, "more distinct pages than ids (2^31)");
}

static int ids_exhausted(struct trace *t, const struct trace_run *r)
{
	t->line = r->line;
	t->record = r->record;
	return ids_exhausted_here(t);
}

int trace_next(struct trace *t, struct trace_ref *ref)
{
	if (t->state <= 0)
		return t->state;
	if (t->format == TRACE_FMT_MMSIM)
		return next_mmsim(t, ref);
	struct trace_run *r = cur_run(t);
	if (!r)
		return t->state;
	int is_new;
	uint32_t id = pagemap_get(&t->map, r->page, &is_new);
	if (id == PAGEMAP_FAIL)
		return ids_exhausted(t, r);
	ref->page = r->page++;
	ref->id = id;
	ref->kind = r->kind;
	t->count++;
	if (!--r->left)
		next_run(t);
	return 1;
}

/* The binary format's inner loop: while 20 bytes (two maximal varints) remain in the buffer
 * no record can be cut short, so bounds are checked once per record, not per byte. */
static size_t mmt_batch(struct trace *t, uint32_t *ids, uint8_t *kinds, size_t max)
{
	struct tin *in = &t->in;
	const uint8_t *p = in->buf + in->pos;
	const uint8_t *safe = in->end >= 20 ? in->buf + in->end - 20 : in->buf;
	uint32_t prev = t->mmt_prev, n = t->map.n;
	size_t i = 0;
	while (i < max && p < safe) {
		uint64_t v = *p;
		const uint8_t *q = p + 1;
		if (v & 0x80) {
			int k = mmt_get_varint(p, p + 20, &v);
			if (k <= 0)
				break;
			q = p + k;
		}
		if ((v & 3) == 3 || (v & 4))
			break; /* new pages and errors take the slow path */
		int64_t id = (int64_t)prev + unzigzag(v >> 3);
		if (id < 0 || id >= (int64_t)n)
			break;
		prev = (uint32_t)id;
		ids[i] = prev;
		if (kinds)
			kinds[i] = (uint8_t)(v & 3);
		i++;
		p = q;
	}
	in->pos = (size_t)(p - in->buf);
	t->mmt_prev = prev;
	t->record += i;
	t->count += i;
	return i;
}

/* The text formats' inner loop: the current run's pages, mapped straight into the batch. */
static size_t expand_batch(struct trace *t, struct trace_run *r, uint32_t *ids, uint8_t *kinds,
			   size_t max)
{
	size_t k = r->left < max ? (size_t)r->left : max;
	uint64_t page = r->page;
	size_t got = pagemap_get_run(&t->map, page, k, ids);
	if (got < k) {
		k = got;
		ids_exhausted(t, r);
	}
	if (kinds)
		memset(kinds, r->kind, k);
	r->page = page + k;
	r->left -= k;
	t->count += k;
	if (!r->left)
		next_run(t);
	return k;
}

/* ARC lines mapped as they are parsed, their runs never queued: while the map is small enough
 * that read_ahead gives no hints, the queue is only overhead, which OLTP's one page per line
 * pays on every reference. Stops at a line of another shape, at the end of the buffered
 * input, or with a run's rest queued when the batch is full. */
static size_t arc_direct(struct trace *t, uint32_t *ids, uint8_t *kinds, size_t max)
{
	size_t i = 0;
	uint64_t start, n;
	while (i < max && trace_arc_fast_parse(t, &start, &n)) {
		size_t k = n < max - i ? (size_t)n : max - i;
		size_t got = pagemap_get_run(&t->map, start, k, ids + i);
		if (kinds)
			memset(kinds + i, TRACE_READ, got);
		i += got;
		t->count += got;
		if (got < k) {
			ids_exhausted_here(t);
			break;
		}
		if (k < n) {
			trace_push_run(t, start + k, n - k, TRACE_READ);
			break;
		}
	}
	return i;
}

long trace_next_batch(struct trace *t, uint32_t *ids, uint8_t *kinds, size_t max)
{
	size_t i = 0;
	if (t->format != TRACE_FMT_MMSIM) {
		struct trace_run *r;
		while (i < max && t->state > 0) {
			if (t->format == TRACE_FMT_ARC && t->rq_head == t->rq_tail &&
			    t->rd_state > 0 && !pagemap_hints_pay(&t->map)) {
				i += arc_direct(t, ids + i, kinds ? kinds + i : NULL, max - i);
				if (i == max || t->state <= 0)
					break;
			}
			if (!(r = cur_run(t)))
				break;
			i += expand_batch(t, r, ids + i, kinds ? kinds + i : NULL, max - i);
		}
	} else {
		struct trace_ref ref;
		while (i < max && t->state > 0) {
			i += mmt_batch(t, ids + i, kinds ? kinds + i : NULL, max - i);
			if (i == max || trace_next(t, &ref) <= 0)
				break;
			ids[i] = ref.id;
			if (kinds)
				kinds[i] = ref.kind;
			i++;
		}
	}
	/* the references before an error first; the error comes again on the next call */
	return t->state < 0 && !i ? -1 : (long)i;
}
