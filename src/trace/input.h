/* Internal to src/trace: a byte stream over a descriptor or memory that undoes zstd or gzip
 * compression (detected by magic) on the fly, with line and block access. */
#ifndef MMSIM_TRACE_INPUT_H
#define MMSIM_TRACE_INPUT_H

#include <stddef.h>
#include <stdint.h>

enum tin_comp { TIN_PLAIN, TIN_ZSTD, TIN_GZIP };

struct tin {
	/* raw (possibly compressed) source */
	int fd;
	const uint8_t *mem;
	size_t memlen, mempos;
	uint8_t *raw;
	size_t rawpos, rawend;
	int raw_eof;
	enum tin_comp comp;
	void *zd;  /* ZSTD_DStream */
	void *zs;  /* z_stream */
	int zdone; /* the last compressed frame/member ended cleanly */
	/* decompressed data: valid bytes are buf[pos..end), and buf[end] is 0, so that a parser
	 * scanning for a digit, a blank or a newline stops at the end without a bounds check;
	 * TIN_PAD bytes from buf[cap] on exist, so that it may read a word at any byte up to it */
	uint8_t *buf;
	size_t cap, pos, end;
	int eof; /* no more bytes will come */
	int failed;
	uint64_t consumed;	      /* decompressed bytes before buf[0] */
	uint64_t raw_read, raw_total; /* bytes read from fd, and its size (0: not a file) */
	char err[200];
};

/* Both return 0 or -1 with a message in t->err. */
int tin_open_fd(struct tin *t, int fd);
int tin_open_mem(struct tin *t, const void *buf, size_t len);
void tin_close(struct tin *t);

/* Make at least want bytes available at buf[pos..] if the stream has them. Returns the number
 * available (may be less at EOF), or -1 on error. */
long tin_want(struct tin *t, size_t want);
/* Next line without its terminator ("\n" or "\r\n"), NUL-terminated in place. Returns 1, 0 at
 * end, -1 on error (including a line over TIN_MAX_LINE bytes). */
int tin_getline(struct tin *t, char **line, size_t *len);

#define TIN_MAX_LINE (1u << 20)
#define TIN_PAD	     8

#endif
