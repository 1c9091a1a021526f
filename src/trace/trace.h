/* Page-reference traces: streaming readers for the external formats and mmsim's own compact
 * binary format, and a writer for the latter.
 *
 * A trace is opened by path (format detected from the name and the content, compression from
 * the magic bytes), by file descriptor or from memory, and read one reference at a time with
 * trace_next(). Every reference carries its page number, its kind and a dense id: pages are
 * numbered 0, 1, 2, ... in order of first appearance, so replay code can index plain arrays
 * instead of hashing page numbers. The numbering is a property of the reference string, so it
 * is the same whichever format the trace comes in.
 *
 * Errors (unreadable file, corrupt compression, malformed record) stop the stream: trace_next()
 * returns -1 and trace_error() says where ("FILE:LINE: ..." for text, "FILE: record N: ..." for
 * binary formats). Nothing in here aborts on bad input.
 */
#ifndef MMSIM_TRACE_TRACE_H
#define MMSIM_TRACE_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum trace_kind {
	TRACE_READ = 0,
	TRACE_WRITE = 1,
	TRACE_EXEC = 2,
};

enum trace_format {
	TRACE_FMT_AUTO = 0,
	TRACE_FMT_ARC,	  /* ARC .lis: "start nblocks ignored reqno", expanded per block */
	TRACE_FMT_LIRS,	  /* LIRS .trace: one block per line, "*" lines are markers */
	TRACE_FMT_TXT,	  /* libCacheSim txt: one numeric object id per line */
	TRACE_FMT_CSV,	  /* libCacheSim csv: object id in one column */
	TRACE_FMT_ORACLE, /* libCacheSim oracleGeneral: packed 24-byte little-endian records */
	TRACE_FMT_LACKEY, /* valgrind --tool=lackey --trace-mem=yes output */
	TRACE_FMT_MMSIM,  /* mmsim's compact binary format (trace_writer) */
	TRACE_FMT_NR,
};

struct trace_ref {
	uint64_t page; /* page (block, object) number as the trace names it */
	uint32_t id;   /* dense id in order of first appearance */
	uint8_t kind;  /* enum trace_kind */
};

struct trace_opts {
	enum trace_format format; /* TRACE_FMT_AUTO to detect */
	unsigned page_shift;	  /* lackey: log2 of the page size; 0 means 12 */
	unsigned csv_col;	  /* csv: 1-based column of the object id; 0 = detect */
	char csv_delim;		  /* csv: 0 = detect among ',', '\t', ';', ' ' */
};

struct trace;

/* Open a trace. opts may be NULL (detect everything). On failure returns NULL with a message in
 * err. "-" reads standard input. */
struct trace *trace_open(const char *path, const struct trace_opts *opts, char *err, size_t errlen);
/* Read from an already open descriptor (e.g. a pipe); name is used in messages. The descriptor
 * is not closed by trace_close(). */
struct trace *trace_open_fd(int fd, const char *name, const struct trace_opts *opts, char *err,
			    size_t errlen);
/* Read from memory (fuzzers, tests). The buffer must outlive the trace. */
struct trace *trace_open_mem(const void *buf, size_t len, const char *name,
			     const struct trace_opts *opts, char *err, size_t errlen);

/* 1: *ref filled; 0: end of trace; -1: error (see trace_error()). After 0 or -1 it keeps
 * returning the same value. */
int trace_next(struct trace *t, struct trace_ref *ref);
/* Up to max references at once, ids (and kinds, if not NULL) only: the fast path of replay
 * loops, which need no page numbers. Returns the number read, 0 at the end, -1 on error (the
 * references before an error are returned first; the next call returns -1). */
long trace_next_batch(struct trace *t, uint32_t *ids, uint8_t *kinds, size_t max);
const char *trace_error(const struct trace *t);
enum trace_format trace_get_format(const struct trace *t);
uint64_t trace_count(const struct trace *t);	/* references returned so far */
uint32_t trace_distinct(const struct trace *t); /* distinct pages seen so far */
/* Bytes the page-number -> id map holds now (memory per distinct page = this / distinct). */
size_t trace_map_bytes(const struct trace *t);
/* Page number of a dense id already returned. */
uint64_t trace_page_of(const struct trace *t, uint32_t id);
/* Page shift recorded in the trace (mmsim format, lackey); 0 if the trace has none. */
unsigned trace_page_shift(const struct trace *t);
void trace_close(struct trace *t);
/* Calls fn after every read from a trace file: bytes read so far and the file's size (0 when
 * it is a pipe). Process-wide; NULL turns it off. For progress lines. */
void trace_set_progress(void (*fn)(uint64_t done, uint64_t total, void *arg), void *arg);

const char *trace_format_name(enum trace_format f);
/* Returns 0 and sets *f for a known name (arc, lis, lirs, txt, csv, oracleGeneral, lackey,
 * mmsim), -1 otherwise. */
int trace_format_parse(const char *name, enum trace_format *f);

/* Writer of mmsim's binary format. A name ending in ".zst" is zstd-compressed, ".gz" gzip;
 * "-" is standard output. */
struct trace_writer;
struct trace_writer *trace_writer_open(const char *path, unsigned page_shift, char *err,
				       size_t errlen);
struct trace_writer *trace_writer_open_fd(int fd, const char *name, unsigned page_shift,
					  int compress_zstd, char *err, size_t errlen);
/* Append one reference. Returns 0 or -1 (I/O error, see trace_writer_error()). */
int trace_writer_put(struct trace_writer *w, uint64_t page, enum trace_kind kind);
const char *trace_writer_error(const struct trace_writer *w);
uint64_t trace_writer_count(const struct trace_writer *w);
uint32_t trace_writer_distinct(const struct trace_writer *w);
/* Flush and close. Returns 0 or -1 if any write failed. */
int trace_writer_close(struct trace_writer *w);

#endif
