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
	/* expansion of one record into several single-page references */
	uint64_t pend_page, pend_left;
	uint8_t pend_kind;
	uint64_t pend2_page, pend2_left;
	uint8_t pend2_kind;
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
/* Text readers: read lines until one record fills t->pend_*; 1, 0 at end, -1 on error. */
int trace_read_text_record(struct trace *t);
int trace_read_oracle_record(struct trace *t);
/* Content sniffing for text formats; returns TRACE_FMT_AUTO when unsure. */
enum trace_format trace_sniff_text(const char *buf, size_t len);

#endif
