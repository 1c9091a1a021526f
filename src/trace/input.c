/* The byte stream of input.h: raw reads from a descriptor or memory, zstd or gzip decoded in
 * fixed-size buffers as they arrive, and line and block access for the readers. */
#include "trace/input.h"
#include "sim/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define RAW_SIZE (1u << 17)
#define BUF_SIZE (1u << 18)

static int fail(struct tin *t, const char *msg)
{
	if (!t->failed)
		snprintf(t->err, sizeof(t->err), "%s", msg);
	t->failed = 1;
	return -1;
}

static void (*progress_fn)(uint64_t done, uint64_t total, void *arg);
static void *progress_arg;

void trace_set_progress(void (*fn)(uint64_t done, uint64_t total, void *arg), void *arg)
{
	progress_fn = fn;
	progress_arg = arg;
}

/* Refill the raw buffer; returns bytes now available, 0 at EOF, -1 on error. */
static long raw_fill(struct tin *t)
{
	if (t->rawpos < t->rawend)
		return (long)(t->rawend - t->rawpos);
	t->rawpos = t->rawend = 0;
	if (t->raw_eof)
		return 0;
	if (t->mem) {
		size_t n = t->memlen - t->mempos;
		if (n > RAW_SIZE)
			n = RAW_SIZE;
		memcpy(t->raw, t->mem + t->mempos, n);
		t->mempos += n;
		t->rawend = n;
		if (!n)
			t->raw_eof = 1;
		return (long)n;
	}
	for (;;) {
		ssize_t n = read(t->fd, t->raw, RAW_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			char m[120];
			snprintf(m, sizeof(m), "read error: %s", strerror(errno));
			return fail(t, m);
		}
		if (!n)
			t->raw_eof = 1;
		t->rawend = (size_t)n;
		t->raw_read += (uint64_t)n;
		if (progress_fn)
			progress_fn(t->raw_read, t->raw_total, progress_arg);
		return n;
	}
}

/* Produce up to n decompressed bytes into dst. Returns count, 0 at end, -1 on error. */
static long produce(struct tin *t, uint8_t *dst, size_t n)
{
	for (;;) {
		long avail = raw_fill(t);
		if (avail < 0)
			return -1;
		if (t->comp == TIN_PLAIN) {
			size_t k = (size_t)avail < n ? (size_t)avail : n;
			memcpy(dst, t->raw + t->rawpos, k);
			t->rawpos += k;
			return (long)k;
		}
		if (avail == 0) {
			if (!t->zdone)
				return fail(t, t->comp == TIN_ZSTD ? "truncated zstd stream"
								   : "truncated gzip stream");
			return 0;
		}
		if (t->comp == TIN_ZSTD) {
			ZSTD_inBuffer in = {t->raw, t->rawend, t->rawpos};
			ZSTD_outBuffer out = {dst, n, 0};
			size_t r = ZSTD_decompressStream(t->zd, &out, &in);
			t->rawpos = in.pos;
			if (ZSTD_isError(r)) {
				char m[160];
				snprintf(m, sizeof(m), "corrupt zstd data: %s",
					 ZSTD_getErrorName(r));
				return fail(t, m);
			}
			t->zdone = (r == 0);
			if (out.pos)
				return (long)out.pos;
		} else {
			z_stream *zs = t->zs;
			if (t->zdone) {
				/* another gzip member follows (concatenated .gz files) */
				if (inflateReset(zs) != Z_OK)
					return fail(t, "gzip: inflateReset failed");
				t->zdone = 0;
			}
			zs->next_in = t->raw + t->rawpos;
			zs->avail_in = (uInt)(t->rawend - t->rawpos);
			zs->next_out = dst;
			zs->avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
			uInt before = zs->avail_out;
			int r = inflate(zs, Z_NO_FLUSH);
			t->rawpos = t->rawend - zs->avail_in;
			if (r == Z_STREAM_END)
				t->zdone = 1;
			else if (r != Z_OK && r != Z_BUF_ERROR) {
				char m[160];
				snprintf(m, sizeof(m), "corrupt gzip data: %s",
					 zs->msg ? zs->msg : "inflate error");
				return fail(t, m);
			}
			size_t got = before - zs->avail_out;
			if (got)
				return (long)got;
		}
	}
}

static int start(struct tin *t)
{
	t->raw = xmalloc(RAW_SIZE);
	t->buf = xcalloc(1, BUF_SIZE + TIN_PAD);
	t->cap = BUF_SIZE;
	long n = raw_fill(t);
	if (n < 0)
		return -1;
	/* A magic may be split over two reads of a pipe; gather 4 bytes when we can. */
	while (!t->raw_eof && t->rawend < 4) {
		if (t->mem)
			break;
		ssize_t k = read(t->fd, t->raw + t->rawend, RAW_SIZE - t->rawend);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k < 0)
				return fail(t, "read error");
			t->raw_eof = t->rawend == 0;
			break;
		}
		t->rawend += (size_t)k;
	}
	const uint8_t *r = t->raw;
	if (t->rawend >= 4 && r[0] == 0x28 && r[1] == 0xb5 && r[2] == 0x2f && r[3] == 0xfd) {
		t->comp = TIN_ZSTD;
		t->zd = ZSTD_createDStream();
		if (!t->zd)
			return fail(t, "out of memory");
		ZSTD_initDStream(t->zd);
	} else if (t->rawend >= 2 && r[0] == 0x1f && r[1] == 0x8b) {
		t->comp = TIN_GZIP;
		z_stream *zs = xcalloc(1, sizeof(*zs));
		t->zs = zs;
		if (inflateInit2(zs, 15 + 16) != Z_OK)
			return fail(t, "gzip: inflateInit failed");
	}
	return 0;
}

int tin_open_fd(struct tin *t, int fd)
{
	memset(t, 0, sizeof(*t));
	t->fd = fd;
	struct stat st;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		t->raw_total = (uint64_t)st.st_size;
	return start(t);
}

int tin_open_mem(struct tin *t, const void *buf, size_t len)
{
	static const uint8_t empty[1];
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->mem = buf ? buf : empty;
	t->memlen = len;
	return start(t);
}

void tin_close(struct tin *t)
{
	if (t->zd)
		ZSTD_freeDStream(t->zd);
	if (t->zs) {
		inflateEnd(t->zs);
		free(t->zs);
	}
	free(t->raw);
	free(t->buf);
	t->zd = t->zs = NULL;
	t->raw = t->buf = NULL;
}

long tin_want(struct tin *t, size_t want)
{
	if (t->failed)
		return -1;
	while (t->end - t->pos < want && !t->eof) {
		if (t->pos) {
			memmove(t->buf, t->buf + t->pos, t->end - t->pos);
			t->consumed += t->pos;
			t->end -= t->pos;
			t->pos = 0;
		}
		if (want > t->cap) {
			size_t nc = t->cap;
			while (nc < want)
				nc *= 2;
			uint8_t *nb = xrealloc(t->buf, nc + TIN_PAD);
			memset(nb + t->cap, 0, nc - t->cap + TIN_PAD);
			t->buf = nb;
			t->cap = nc;
		}
		long n = produce(t, t->buf + t->end, t->cap - t->end);
		if (n < 0)
			return -1;
		if (n == 0)
			t->eof = 1;
		t->end += (size_t)n;
		t->buf[t->end] = 0;
	}
	return (long)(t->end - t->pos);
}

int tin_getline(struct tin *t, char **line, size_t *len)
{
	size_t scanned = 0;
	for (;;) {
		uint8_t *s = t->buf + t->pos;
		size_t avail = t->end - t->pos;
		uint8_t *nl = memchr(s + scanned, '\n', avail - scanned);
		if (nl) {
			size_t l = (size_t)(nl - s);
			t->pos += l + 1;
			if (l && s[l - 1] == '\r')
				l--;
			s[l] = 0;
			*line = (char *)s;
			*len = l;
			return 1;
		}
		if (t->eof) {
			if (!avail)
				return 0;
			/* last line without a newline: buf has one spare byte for the NUL */
			t->pos = t->end;
			if (s[avail - 1] == '\r')
				avail--;
			s[avail] = 0;
			*line = (char *)s;
			*len = avail;
			return 1;
		}
		if (avail >= TIN_MAX_LINE)
			return fail(t, "line too long");
		scanned = avail;
		if (tin_want(t, avail + 1) < 0)
			return -1;
		if (t->pos == 0 && t->end - t->pos == avail && !t->eof)
			continue;
	}
}
