/* Internal to src/trace: the state of an open trace (struct trace) shared by trace.c, readers.c
 * and writer.c, and the layout of mmsim's binary trace format. */
#ifndef MMSIM_TRACE_IMPL_H
#define MMSIM_TRACE_IMPL_H

#include "trace/input.h"
#include "trace/pagemap.h"
#include "trace/trace.h"

/* mmsim binary format: a 16-byte header, then one record per reference.
 *   header: "MMSIMTRC", u8 version (1), u8 page_shift (0 = unknown), u16 flags (0), u32 0.
 *   record: LEB128 varint v; v & 3 is the kind (3 is invalid).
 *     v & 4 set: a page never seen before; the id is the next dense id, v >> 3 must be 0, and
 *       a second varint holds the zigzag-coded difference from the previous new page's number
 *       (so a sequential first touch costs two bytes).
 *     v & 4 clear: a page seen before; v >> 3 is the zigzag-coded difference of its id from the
 *       previous record's id (so re-references of nearby pages cost one byte).
 * Because ids are assigned in first-appearance order the reader needs no hash table. */
#define MMT_MAGIC   "MMSIMTRC"
#define MMT_HDR	    16
#define MMT_VERSION 1

static inline uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Decode a varint from [p, e). Returns bytes used, 0 if the input ends inside it, -1 if it is
 * longer than 10 bytes or overflows 64 bits. */
static inline int mmt_get_varint(const uint8_t *p, const uint8_t *e, uint64_t *out)
{
	uint64_t v = 0;
	for (int i = 0; i < 10; i++) {
		if (p + i >= e)
			return 0;
		uint64_t b = p[i];
		if (i == 9 && b > 1)
			return -1;
		v |= (b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*out = v;
			return i + 1;
		}
	}
	return -1;
}

/* Runs parsed ahead of the one being expanded, so that the page map's hash slots and blocks
 * for them are fetched from memory while earlier runs are mapped (see read_ahead in trace.c). */
#define TRACE_AHEAD 16
#define TRACE_RUNQ  32 /* a power of two above TRACE_AHEAD + 1 (one record, two runs) */

struct trace_run {
	uint64_t page, left;
	uint64_t line, record; /* t->line and t->record after its record, for error messages */
	uint8_t kind;
};

struct trace {
	struct tin in;
	int own_fd;
	char name[256];
	enum trace_format format;
	struct trace_opts opts;
	int state; /* 1 running, 0 ended, -1 failed */
	char err[640];
	uint64_t line;	 /* text: current line number */
	uint64_t record; /* binary: records decoded */
	uint64_t count;
	struct pagemap map;
	unsigned page_shift;
	/* runs of single-page references parsed ahead (a record gives one, a lackey modify two):
	 * runq[rq_head & mask] is being expanded, up to TRACE_AHEAD more wait behind it */
	struct trace_run runq[TRACE_RUNQ];
	uint32_t rq_head, rq_tail; /* free-running */
	int rd_state; /* the parser's: 1 reading, 0 at the end, -1 failed (err set); state
		       * follows it once the runs parsed before the end or error are returned */
	/* csv */
	unsigned csv_col;
	char csv_delim;
	int csv_started;
	/* mmsim binary */
	uint32_t mmt_prev;
	uint64_t mmt_last_new;
};

/* Formatted error at the current position; returns -1. */
int trace_fail(struct trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A record's run of n pages from page, queued behind the runs parsed before it. */
static inline void trace_push_run(struct trace *t, uint64_t page, uint64_t n, uint8_t kind)
{
	struct trace_run *r = &t->runq[t->rq_tail++ & (TRACE_RUNQ - 1)];
	r->page = page;
	r->left = n;
	r->kind = kind;
	r->line = t->line;
	r->record = t->record;
}

/* Record parsers: read lines (records) until one queues its runs (trace_push_run); 1, 0 at
 * the end, -1 on error. */
int trace_read_text_record(struct trace *t);
/* The common ARC line parsed without queueing its run: 1 with the line consumed and the run in
 * *start, *n; 0 consuming nothing when the line is of another shape or not wholly buffered
 * (trace_read_text_record then takes it). */
int trace_arc_fast_parse(struct trace *t, uint64_t *start, uint64_t *n);
int trace_read_oracle_record(struct trace *t);
/* Content sniffing for text formats; returns TRACE_FMT_AUTO when unsure. */
enum trace_format trace_sniff_text(const char *buf, size_t len);

#endif
